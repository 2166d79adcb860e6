"""The manager benchmark runs end to end on a tiny load (timings are never asserted)."""

from __future__ import annotations

from benchmarks.manager_bench import run


def test_a_tiny_manager_benchmark_reports_every_figure() -> None:
    figures = run(0.3, (1, 5), open_tables=8, rate=50.0, idle=8, groups=10)
    assert figures["moves_per_s_5_tables"] > 0
    assert figures["p99_ms_at_50_offered"] >= figures["p50_ms_at_50_offered"] > 0
    assert figures["bytes_per_idle_table"] > 0 and figures["peak_rss_bytes"] > 0
    assert figures["largest_batch"] >= 1 and figures["split_batches"] == 0
