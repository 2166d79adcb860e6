"""The manager benchmark runs end to end on a tiny load, on SQLite and on PostgreSQL
(timings are never asserted)."""

from __future__ import annotations

import asyncio
import json
import os

import asyncpg
import pytest

from benchmarks import manager_bench
from benchmarks.manager_bench import main, postgres_url, run

ADMIN_URL = os.environ.get("SAHRA_TEST_POSTGRES_URL")
needs_postgres = pytest.mark.skipif(
    not ADMIN_URL, reason="SAHRA_TEST_POSTGRES_URL is not set (make test starts a server)"
)
TINY = {"seconds": 0.3, "sizes": (1, 5), "open_tables": 8, "rate": 50.0, "idle": 8, "groups": 10}


def test_a_tiny_manager_benchmark_reports_every_figure() -> None:
    figures = run(0.3, (1, 5), open_tables=8, rate=50.0, idle=8, groups=10)
    assert figures["moves_per_s_5_tables"] > 0
    assert figures["p99_ms_at_50_offered"] >= figures["p50_ms_at_50_offered"] > 0
    assert figures["bytes_per_idle_table"] > 0 and figures["peak_rss_bytes"] > 0
    assert figures["largest_batch"] >= 1 and figures["split_batches"] == 0
    assert figures["commits_5_tables"] >= 1 and figures["writes_mixed"] >= 10 * 5


async def bench_databases() -> set[str]:
    assert ADMIN_URL is not None
    connection = await asyncpg.connect(ADMIN_URL)
    try:
        rows = await connection.fetch(
            "SELECT datname FROM pg_database WHERE datname LIKE 'sahra_bench_%'"
        )
    finally:
        await connection.close()
    return {row["datname"] for row in rows}


@needs_postgres
def test_the_quick_run_on_postgresql_reports_every_figure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before = asyncio.run(bench_databases())
    monkeypatch.setattr(manager_bench, "QUICK", TINY)  # --quick, made tiny
    monkeypatch.delenv("SAHRA_BENCH_POSTGRES_URL", raising=False)
    assert main(["--quick", "--backend", "postgresql", "--pool-size", "4", "--json"]) == 0
    printed = capsys.readouterr().out
    results = json.loads(printed.splitlines()[-1])
    assert list(results) == ["postgresql"]
    figures = results["postgresql"]
    assert figures["pool_size"] == 4
    assert figures["moves_per_s_5_tables"] > 0 and figures["moves_per_commit_5_tables"] > 0
    assert figures["p99_ms_at_50_offered"] >= figures["p50_ms_at_50_offered"] > 0
    assert figures["mixed_jobs_per_s"] > 0 and figures["writes_mixed"] >= 10 * 5
    # the server's counts: every write is a transaction, and each needed the WAL on disk
    assert figures["commits_mixed"] >= figures["writes_mixed"]
    assert figures["wal_syncs_mixed"] >= 1
    assert figures["bytes_per_idle_table"] > 0 and figures["peak_rss_bytes"] > 0
    assert "largest_batch" not in figures  # the writer's batches are SQLite's alone
    assert "scenario" in printed and "PostgreSQL" in printed and "SQLite" not in printed
    # every scenario's database was dropped again
    assert asyncio.run(bench_databases()) <= before


def test_the_postgresql_url_comes_from_the_option_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SAHRA_BENCH_POSTGRES_URL", "postgresql://bench@h/postgres")
    monkeypatch.setenv("SAHRA_TEST_POSTGRES_URL", "postgresql://test@h/postgres")
    assert postgres_url("postgresql://given@h/postgres")[0] == "postgresql://given@h/postgres"
    assert postgres_url(None) == ("postgresql://bench@h/postgres", "SAHRA_BENCH_POSTGRES_URL")
    monkeypatch.delenv("SAHRA_BENCH_POSTGRES_URL")
    assert postgres_url(None) == ("postgresql://test@h/postgres", "SAHRA_TEST_POSTGRES_URL")
    monkeypatch.delenv("SAHRA_TEST_POSTGRES_URL")
    url, why = postgres_url(None)
    assert url is None and "SAHRA_TEST_POSTGRES_URL" in why
