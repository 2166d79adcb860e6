"""The benchmark script runs and reports every figure (timings are never asserted)."""

from __future__ import annotations

import json

import pytest

from benchmarks.engine_bench import main


def test_quick_benchmark_prints_one_json_line_with_every_figure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--quick", "--json", "--seconds", "0.05"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    for variant in ("syrian41", "tarneeb41_double", "tarneeb_solo"):
        assert figures[f"{variant}_public_deals_per_s"] > 0
        assert figures[f"{variant}_fast_deals_per_s"] > 0
    assert figures["trix_complex_public_matches_per_s"] > 0
    assert figures["trix_complex_fast_matches_per_s"] > 0
