"""The review benchmark runs end to end on a few deals and prints every figure (timings are
never asserted: they must only be there and be plausible numbers)."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from benchmarks.review_bench import main
from engine.players import doubledummy


@pytest.mark.skipif(not doubledummy.available(), reason="DDS is not installed")
def test_a_tiny_run_reports_each_variant_s_times_and_marks() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--deals", "2", "--json"]) == 0
    rows = json.loads(out.getvalue().splitlines()[-1])
    assert [row["variant"] for row in rows] == [
        "syrian41",
        "tarneeb41_double",
        "tarneeb_solo",
        "trix_complex",
    ]
    for row in rows:
        assert row["deals"] == 2 and 0 <= row["p50_ms"] <= row["p95_ms"] <= row["max_ms"]
        assert 0 <= row["marked_pct"] <= 100
