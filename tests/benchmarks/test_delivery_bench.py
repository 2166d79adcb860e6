"""The delivery benchmark plays a whole deal through the real Telegram bot and reports sane
figures (a smoke run on a tiny time scale; nothing is timed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.delivery import main


def test_a_tiny_delivery_run_reports_every_figure_of_a_played_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # as deployed; PTB warns otherwise
    path = tmp_path / "delivery.json"
    argv = ["--variants", "tarneeb_solo", "--configs", "1h+3c", "--scale", "0.02"]
    assert main([*argv, "--json", str(path)]) == 0
    figures = json.loads(path.read_text())
    assert figures["scale"] == 0.02
    [run] = figures["runs"]
    assert (run["variant"], run["config"]) == ("tarneeb_solo", "1h+3c")
    played = [deal for deal in run["deals"] if not deal["cancelled"]]
    assert len(played) == 1  # a solo deal is never cancelled (TS.5)
    deal = played[0]
    assert deal["plays"] == 52 and 0 <= deal["plays_shown"] <= deal["plays"]
    assert 0.0 <= deal["share_shown"] <= 1.0
    assert deal["group_writes"] > 0 and deal["dm_writes"] > 0
    assert deal["presses"] > 0 and deal["answer_callback"] > 0
    assert deal["api_calls"] >= deal["group_writes"] + deal["dm_writes"]
    assert deal["too_many"] >= 0 and deal["seconds"] > 0
    assert deal["max_group_silence_s"] > 0 and deal["tables_per_token"] > 0
    printed = capsys.readouterr().out
    assert "tarneeb_solo" in printed and "silence" in printed
