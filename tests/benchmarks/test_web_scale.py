"""The web table's scale benchmark runs end to end on a tiny load: one process, two on
PostgreSQL with the reconnect storm, and the abuse run (timings are never asserted)."""

from __future__ import annotations

import json
import os

import pytest

from benchmarks.web_scale import main


def test_a_tiny_scale_run_reports_every_run_and_every_socket_comes_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tiny = ["--sizes", "2", "--two", "2", "--abuse", "2", "--abuse-sockets", "5"]
    assert main([*tiny, "--seconds", "2", "--pace", "0.3", "--json"]) == 0
    rows = {row["run"]: row for row in json.loads(capsys.readouterr().out.splitlines()[-1])}
    expected = {"one", "calm", "abuse"} | (
        {"two"} if os.environ.get("SAHRA_TEST_POSTGRES_URL") else set()
    )
    assert set(rows) == expected
    for row in rows.values():
        assert row["sockets"] == 8 and row["moves"] > 0 and row["refused"] == 0
        assert row["p90_ms"] >= row["p50_ms"] > 0 and row["kb_per_socket"] > 0
    if "two" in rows:
        assert rows["two"]["storm_back"] == 8 and rows["two"]["storm_s"] < 10
