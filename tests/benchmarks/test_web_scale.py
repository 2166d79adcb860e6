"""The web table's scale benchmark runs end to end on a tiny load: one process, two on
PostgreSQL with the reconnect storm, the abuse run and the run with every page open twice,
and prints the servers' own CPU figures beside the latencies. Timings are never asserted:
the figures must only be there and be plausible numbers."""

from __future__ import annotations

import contextlib
import io
import json
import os
from typing import Any

from benchmarks.web_scale import main

TINY = ["--sizes", "2", "--two", "2", "--abuse", "2", "--abuse-sockets", "5"]


def printed() -> tuple[str, dict[str, dict[str, Any]]]:
    """One tiny run (it takes seconds, so one test reads it all): its output and rows."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*TINY, "--seconds", "1", "--pace", "0.3", "--json"]) == 0
    text = out.getvalue()
    return text, {row["run"]: row for row in json.loads(text.splitlines()[-1])}


def test_a_tiny_run_reports_every_run_every_socket_back_and_the_servers_own_cpu() -> None:
    out, rows = printed()
    reports_every_run(rows)
    prints_the_servers_cpu(out, rows)


def reports_every_run(rows: dict[str, dict[str, Any]]) -> None:
    postgres = bool(os.environ.get("SAHRA_TEST_POSTGRES_URL"))
    assert set(rows) == {"one", "calm", "2pages", "abuse"} | ({"two"} if postgres else set())
    for run, row in rows.items():
        assert row["sockets"] == (16 if run == "2pages" else 8)
        assert row["moves"] > 0 and row["refused"] == 0
        assert row["p90_ms"] >= row["p50_ms"] > 0 and row["kb_per_socket"] > 0
    if "two" in rows:
        assert rows["two"]["storm_back"] == 8 and rows["two"]["storm_s"] < 10


def prints_the_servers_cpu(out: str, rows: dict[str, dict[str, Any]]) -> None:
    """Per move, per frame and as tables per core."""
    for run, row in rows.items():
        assert row["applied"] == row["moves"] - row["refused"] > 0
        # Each applied move reaches all four seats before the table moves again; with
        # every page open twice, the second pages get it too.
        assert row["frames_per_move"] >= 4 and row["frames"] >= 4 * row["applied"]
        if run == "2pages":
            assert row["frames_per_move"] > rows["calm"]["frames_per_move"]
        # CPU time is the scheduler's, in nanoseconds: even a tiny run's moves show.
        cores = 100 * (os.cpu_count() or 1)
        assert 0 <= row["idle_pct"] <= cores and 0 < row["server_cpu_pct"] <= cores
        assert row["server_ms_per_move"] > 0 and row["server_us_per_frame"] > 0
        # The event loop's thread is part of the process (each less its own idle).
        assert 0 < row["loop_ms_per_move"] <= 1.1 * row["server_ms_per_move"]
        assert row["tables_per_core"] > 0 and row["tables_per_loop"] > 0
    assert rows["one"]["db_ms_per_move"] is None  # SQLite's work is in the server's own CPU
    if "two" in rows:  # the throwaway cluster is local: PostgreSQL's CPU is read too
        # (here it serves the other tests' databases at the same time: what it adds over
        # its idle may round to nothing, never less)
        assert rows["two"]["db_ms_per_move"] >= 0
    # The frame/move split is the difference of two tiny runs: present, whatever its sign.
    assert isinstance(rows["2pages"]["frame_us"], float)
    assert "Server CPU (the server processes' own user + system time" in out
    assert "tables per core at a move every 1.5 s" in out
    assert "a frame's own CPU" in out
    assert "one process saturates its event loop's thread at" in out
