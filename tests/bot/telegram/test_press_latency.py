"""The press → answer benchmark runs end to end on a tiny load over the fake Bot API's
simulated round trip (timings are printed by the benchmark, never asserted)."""

from __future__ import annotations

from benchmarks.press_latency import measure


async def test_a_tiny_press_latency_run_answers_every_press() -> None:
    figures = await measure(tables=2, humans=1, presses=2, latency=0.02)
    summary = figures.summary()
    assert summary["presses"] == 4 and summary["refused"] == 0
    assert summary["max_s"] >= summary["p90_s"] >= summary["p50_s"] > 0.02
