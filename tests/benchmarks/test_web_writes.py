"""The writes-per-deal benchmark runs one Syrian 41 deal on each platform's pacing and
prints every figure: a row per platform and way, four pages costing no private write and
fewer shared-chat writes than the chats alone. The counts are the presenter's (its tests
hold the exact bill); here they must only be there and be plausible."""

from __future__ import annotations

import json

import pytest

from benchmarks.web_writes import PLATFORMS, WAYS, main


def test_one_deal_on_each_platform_prints_a_bill_per_way(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--deals", "1", "--variants", "syrian41", "--json"]) == 0
    out = capsys.readouterr().out
    rows = {(row["platform"], row["way"]): row for row in json.loads(out.splitlines()[-1])}
    assert set(rows) == {(platform, way) for platform in PLATFORMS for way in WAYS}
    for platform in PLATFORMS:
        chats, paged = rows[(platform, "chats")], rows[(platform, "four pages")]
        assert chats["private_writes"] > 0 and paged["private_writes"] == 0
        assert 0 < paged["group_writes"] < chats["group_writes"]
        assert paged["group_most"] == paged["group_writes"]  # one deal: its own most
        assert paged["writes"] == paged["group_writes"] + paged["private_writes"]
        assert paged["tables_per_token"] > chats["tables_per_token"] > 0
        assert paged["deal_seconds"] > 0
    assert "(discord, virtual time)" in out and "channel" in out
    assert "(telegram, virtual time)" in out
