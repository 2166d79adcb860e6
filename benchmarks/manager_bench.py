"""Table manager throughput and latency on both backends, side by side: a real SQLite file
(WAL, synchronous=FULL, one writer task that group-commits) and a real PostgreSQL server
(one transaction per write on an asyncpg pool, synchronous_commit on).

* closed loop: 1, 100 and 1,000 tables of four computers play at once, each move going
  through the full apply path (lock → apply → durable commit → publish); durable moves/s
  and the per-move latency (from one committed move of a table to its next);
* open loop: 1,000 tables of four humans; a driver presses buttons at a fixed 1,000
  moves/s spread over the tables and times each press until its commit returns;
* mixed: hundreds of groups at once each open a table, join it, start it and play, so
  creates, joins and moves of many tables share the writer's batches; the largest batch
  committed and how many batches had to be split (a statement out of order would split
  them; it must be 0);
* memory: bytes per idle live table (tracemalloc) and the process's peak RSS;
* commits: per scenario, SQLite's batches (one commit, one WAL sync each) and PostgreSQL's
  ``pg_stat_database.xact_commit`` delta (every transaction of the run's database, reads and
  the pool's reset on each release included) beside its ``pg_stat_wal.wal_sync`` delta (the
  WAL flushes concurrent commits shared: PostgreSQL's own group commit).

Every scenario gets a fresh database: a new SQLite file, or a new PostgreSQL database
(``CREATE DATABASE`` on the admin URL, dropped afterwards). ``--backend`` picks
``sqlite``, ``postgresql`` or ``both``; by default both when a PostgreSQL URL is known
(``--postgres-url``, else ``SAHRA_BENCH_POSTGRES_URL``, else ``SAHRA_TEST_POSTGRES_URL``,
which ``python -m tests.postgres_cluster -- …`` and so ``make bench`` provide), SQLite alone
otherwise. Run together, each backend runs in a process of its own, so that its peak RSS
is its own.

Finished matches are replaced by new tables so the load stays constant. ``--json`` ends
with one JSON object (one set of figures per backend); ``--quick`` runs a reduced version.
Timings are never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.tables import LiveTable, Place, PlayerRef, Press, Refusal, TableManager
from storage import pg_admin
from storage.backend import Backend, Statement
from storage.database import Database
from storage.postgres import PostgresDatabase, redacted

VARIANTS = ("syrian41", "tarneeb_solo", "trix_complex", "tarneeb41_double")
OWNER = PlayerRef(user_id="bench", name="Bench", language="en")
HUMANS = [PlayerRef(user_id=f"h{i}", name=f"H{i}", language="en") for i in range(4)]
BACKENDS = ("sqlite", "postgresql")
URL_VARIABLES = ("SAHRA_BENCH_POSTGRES_URL", "SAHRA_TEST_POSTGRES_URL")
# The PostgreSQL pool: every write holds a connection for its whole transaction (BEGIN,
# statements, COMMIT waiting for the WAL flush, then the pool's reset), so at most this many
# writes are under way at once, writes/s can never pass pool size / commit latency, and only
# commits waiting together share one WAL flush. PostgresDatabase's default of 10 caps 1,000
# busy tables at 2,000 writes/s as soon as a flush takes 5 ms; 32 leaves that headroom, lets
# more commits share a flush, and stays far below max_connections (100 by default) for
# several processes. Measured on 2 shared cores: 10, 16, 32 and 64 moved moves/s and p99
# by less than the run-to-run noise (the CPU, not the pool, is the limit there), while
# writes per WAL sync went from 1.7 at 10 to 1.9-2.2 at 32-64.
POOL_SIZE = 32
# what ``run`` is given: the full run (its seconds from --seconds) and --quick
FULL: dict[str, Any] = {
    "sizes": (1, 100, 1000),
    "open_tables": 1000,
    "rate": 1000.0,
    "idle": 1000,
    "groups": 500,
}
QUICK: dict[str, Any] = {**FULL, "seconds": 2.0, "idle": 200, "groups": 100}


@dataclass
class Target:
    """Where each scenario gets its fresh database: a new SQLite file in ``folder``, or a new
    database on the PostgreSQL server ``admin_url`` names."""

    backend: str  # "sqlite" or "postgresql"
    folder: Path
    admin_url: str | None = None
    pool_size: int = POOL_SIZE


class CountingBackend:
    """A PostgreSQL backend that counts its writes (SQLite's writer counts its own jobs)."""

    def __init__(self, inner: PostgresDatabase) -> None:
        self.inner = inner
        self.dialect = inner.dialect
        self.writes = 0

    async def write(self, *statements: Statement) -> None:
        self.writes += 1
        await self.inner.write(*statements)

    async def write_if(self, guards: Sequence[Statement], *statements: Statement) -> bool:
        self.writes += 1
        return await self.inner.write_if(guards, *statements)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self.inner.fetchall(sql, params)

    async def schema_version(self) -> int:
        return await self.inner.schema_version()

    def current_schema(self) -> int:
        return self.inner.current_schema()

    async def integrity(self) -> str:
        return await self.inner.integrity()

    def describe(self) -> str:
        return self.inner.describe()

    async def close(self) -> None:
        await self.inner.close()


@dataclass
class Opened:
    """A scenario's database while it runs; its counts once it is closed."""

    db: Backend
    sqlite: Database | None = None
    counting: CountingBackend | None = None
    writes: int = 0  # write() calls: SQLite's jobs, PostgreSQL's transactions of changes
    commits: int = 0  # SQLite's batches; PostgreSQL's xact_commit delta
    wal_syncs: int | None = None  # PostgreSQL only: server-wide WAL flushes

    def written(self) -> int:
        """The writes so far."""
        if self.sqlite is not None:
            return self.sqlite.stats.jobs
        return self.counting.writes if self.counting is not None else 0

    def durable_commits(self) -> int:
        """The commits so far, counted here, exactly: SQLite's batches (one writer commit
        each), PostgreSQL's writes (one transaction each)."""
        if self.sqlite is not None:
            return self.sqlite.stats.batches
        return self.written()


@contextlib.asynccontextmanager
async def fresh(target: Target, name: str) -> AsyncIterator[Opened]:
    """A new, migrated database for one scenario, closed (and dropped) on exit."""
    if target.backend == "sqlite":
        async with Database.open(target.folder / f"{name}.sqlite") as db:
            opened = Opened(db, sqlite=db)
            yield opened
        opened.writes = opened.written()
        opened.commits = db.stats.batches
        return
    assert target.admin_url is not None
    url = await pg_admin.create_database(target.admin_url)
    try:
        commits_before = await pg_admin.commits(url)
        syncs_before = await pg_admin.wal_syncs(url)
        counting = CountingBackend(PostgresDatabase(url, max_size=target.pool_size))
        await counting.inner.start()
        try:
            opened = Opened(counting, counting=counting)
            yield opened
        finally:
            await counting.close()
        opened.writes = opened.written()
        # commits() waits for the pool's sessions to end and report their counts
        opened.commits = await pg_admin.commits(url) - commits_before
        opened.wal_syncs = await pg_admin.wal_syncs(url) - syncs_before
    finally:
        await pg_admin.drop_database(target.admin_url, url)


class TimingNotifier:
    """Records, per table, when each committed change was published and how many moves
    (log entries) it carried; a commit may carry several consecutive computer moves."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[float, int]] = {}
        self.gaps: list[float] = []
        self.moves = 0

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        now = time.perf_counter()
        previous = self.last.get(table.id)
        if previous is not None and table.seq > previous[1]:
            moves = table.seq - previous[1]
            self.moves += moves
            # each move waited for its commit: the gap since the table's last commit
            self.gaps.extend([now - previous[0]] * moves)
        self.last[table.id] = (now, table.seq)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def computer_table(manager: TableManager, number: int) -> LiveTable:
    variant = VARIANTS[number % len(VARIANTS)]
    table = await manager.create(
        Place("bench", str(number)), OWNER, {"variant": variant}, join=False
    )
    for _ in range(4):
        await manager.add_computer(table.id, OWNER.user_id)
    await manager.begin(table.id, OWNER.user_id)
    return table


async def human_table(
    manager: TableManager, number: int, chat: str, config: dict[str, Any]
) -> LiveTable:
    variant = VARIANTS[number % len(VARIANTS)]
    table = await manager.create(
        Place(chat, str(number)), HUMANS[0], {"variant": variant, **config}
    )
    for player in HUMANS[1:]:
        await manager.join(table.id, player)
    await manager.begin(table.id, HUMANS[0].user_id)
    return table


def counts(opened: Opened) -> dict[str, float]:
    """The database's counts for one scenario (``wal_syncs`` on PostgreSQL only)."""
    found: dict[str, float] = {"writes": opened.writes, "commits": opened.commits}
    if opened.wal_syncs is not None:
        found["wal_syncs"] = opened.wal_syncs
    return found


def writes_per_sync(opened: Opened) -> dict[str, float]:
    """Writes per WAL sync over the whole run: how many writes shared one flush to disk
    (SQLite: one sync per batch; PostgreSQL: ``pg_stat_wal.wal_sync``)."""
    syncs = opened.commits if opened.wal_syncs is None else opened.wal_syncs
    return {"writes_per_sync": opened.writes / max(1, syncs)}


async def closed_loop(target: Target, tables: int, seconds: float) -> dict[str, float]:
    async with fresh(target, f"closed-{tables}") as opened:
        notifier = TimingNotifier()
        manager = TableManager(opened.db, notifier)
        await manager.start()
        await asyncio.gather(*(computer_table(manager, number) for number in range(tables)))
        created = tables
        notifier.gaps.clear()
        notifier.moves = 0
        commits_before = opened.durable_commits()
        begin = time.perf_counter()
        while time.perf_counter() - begin < seconds:
            await asyncio.sleep(0.05)
            running = sum(1 for t in manager.live_tables() if t.status == "running")
            for _ in range(tables - running):
                await computer_table(manager, created)
                created += 1
        elapsed = time.perf_counter() - begin
        moves = notifier.moves
        commits = opened.durable_commits() - commits_before
        gaps = list(notifier.gaps)
        await manager.close()
    return {
        "moves_per_s": moves / elapsed,
        "p50_ms": percentile(gaps, 0.5) * 1000,
        "p99_ms": percentile(gaps, 0.99) * 1000,
        # the measured seconds only: setting 1,000 tables up is not the steady state
        "moves_per_commit": moves / max(1, commits),
        **writes_per_sync(opened),
        **counts(opened),
    }


async def open_loop(target: Target, tables: int, rate: float, seconds: float) -> dict[str, float]:
    config = {"turn_seconds": 3600, "bid_seconds": 3600, "doubling_seconds": 600}
    async with fresh(target, "open") as opened:
        manager = TableManager(opened.db, TimingNotifier())
        await manager.start()
        live = list(
            await asyncio.gather(
                *(human_table(manager, number, "open", config) for number in range(tables))
            )
        )
        latencies: list[float] = []
        pending: set[asyncio.Task[None]] = set()

        async def one_press(table: LiveTable) -> None:
            match = table.match
            if match is None or table.status != "running" or not match.to_act:
                return
            seat = match.to_act[0]
            action = match.auto_action(seat)
            player = HUMANS[seat]
            sent = time.perf_counter()
            try:
                await manager.press(
                    Press(table_id=table.id, version=table.seq, action=action or {}, player=player)
                )
            except Refusal:
                return
            latencies.append(time.perf_counter() - sent)

        interval = 1.0 / rate
        begin = time.perf_counter()
        issued = 0
        rng = random.Random(1)
        while time.perf_counter() - begin < seconds:
            due = begin + issued * interval
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            task = asyncio.create_task(one_press(live[rng.randrange(len(live))]))
            pending.add(task)
            task.add_done_callback(pending.discard)
            issued += 1
        if pending:
            await asyncio.gather(*pending)
        elapsed = time.perf_counter() - begin
        await manager.close()
    return {
        "offered_per_s": issued / elapsed,
        "done_per_s": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        **writes_per_sync(opened),
        **counts(opened),
    }


async def mixed(target: Target, groups: int, moves: int) -> dict[str, float]:
    """Every group at once: create, three joins, begin, then ``moves`` presses."""
    config = {"turn_seconds": 3600, "bid_seconds": 3600, "doubling_seconds": 600}

    async def one_group(manager: TableManager, number: int) -> None:
        table = await human_table(manager, number, "mixed", config)
        for _ in range(moves):
            match = table.match
            if match is None or table.status != "running" or not match.to_act:
                return
            seat = match.to_act[0]
            press = Press(
                table_id=table.id,
                version=table.seq,
                action=match.auto_action(seat) or {},
                player=HUMANS[seat],
            )
            await manager.press(press)

    async with fresh(target, "mixed") as opened:
        manager = TableManager(opened.db, TimingNotifier())
        await manager.start()
        writes_before = opened.written()
        begin = time.perf_counter()
        await asyncio.gather(*(one_group(manager, number) for number in range(groups)))
        elapsed = time.perf_counter() - begin
        await manager.close()
    result = {
        "jobs_per_s": (opened.writes - writes_before) / elapsed,
        **writes_per_sync(opened),
        **counts(opened),
    }
    if opened.sqlite is not None:  # the writer's batches: SQLite only
        stats = opened.sqlite.stats
        result |= {"largest_batch": stats.largest_batch, "split_batches": stats.split_batches}
    return result


async def idle_bytes(target: Target, tables: int) -> float:
    """Memory one more live, started, idle table costs (tracemalloc, after set-up)."""
    config = {"turn_seconds": 3600, "bid_seconds": 3600}
    async with fresh(target, "idle") as opened:
        manager = TableManager(opened.db, TimingNotifier())
        await manager.start()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        await asyncio.gather(
            *(human_table(manager, number, "idle", config) for number in range(tables))
        )
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        await manager.close()
    return (after - before) / tables


def run(
    seconds: float,
    sizes: tuple[int, ...],
    open_tables: int,
    rate: float,
    idle: int,
    groups: int = 500,
    backend: str = "sqlite",
    admin_url: str | None = None,
    pool_size: int = POOL_SIZE,
) -> dict[str, float]:
    """Every scenario on one backend (``admin_url``: the PostgreSQL server's, for
    ``postgresql``); prints a line per scenario and returns the figures."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}")
    if backend == "postgresql" and not admin_url:
        raise ValueError("the postgresql backend needs the server's admin URL")
    figures: dict[str, float] = {}
    if backend == "postgresql":
        figures["pool_size"] = pool_size
    tag = f"[{backend}]"

    def keep(result: dict[str, float], suffix: str) -> None:
        for name in ("writes", "commits", "wal_syncs"):
            if name in result:
                figures[f"{name}_{suffix}"] = round(result[name])
        figures[f"writes_per_sync_{suffix}"] = round(result["writes_per_sync"], 2)

    def counted(result: dict[str, float]) -> str:
        """The whole run's counts (set-up included)."""
        text = f"run: {result['writes']:,.0f} writes, {result['commits']:,.0f} commits"
        if "wal_syncs" in result:
            text += f" (xact_commit), {result['wal_syncs']:,.0f} WAL syncs"
        return text + f", {result['writes_per_sync']:,.1f} writes per sync"

    with tempfile.TemporaryDirectory() as folder:
        target = Target(backend, Path(folder), admin_url, pool_size)
        for tables in sizes:
            result = asyncio.run(closed_loop(target, tables, seconds))
            figures[f"moves_per_s_{tables}_tables"] = round(result["moves_per_s"])
            figures[f"p50_ms_{tables}_tables"] = round(result["p50_ms"], 2)
            figures[f"p99_ms_{tables}_tables"] = round(result["p99_ms"], 2)
            figures[f"moves_per_commit_{tables}_tables"] = round(result["moves_per_commit"], 2)
            keep(result, f"{tables}_tables")
            print(
                f"{tag} closed loop {tables:>5} tables: {result['moves_per_s']:>9,.0f} durable"
                f" moves/s  p50 {result['p50_ms']:.2f} ms  p99 {result['p99_ms']:.2f} ms"
                f"  {result['moves_per_commit']:.1f} moves per commit"
                f" ({counted(result)})",
                flush=True,
            )
        opened = asyncio.run(open_loop(target, open_tables, rate, seconds))
        figures[f"done_per_s_at_{rate:.0f}_offered"] = round(opened["done_per_s"])
        figures[f"p50_ms_at_{rate:.0f}_offered"] = round(opened["p50_ms"], 2)
        figures[f"p99_ms_at_{rate:.0f}_offered"] = round(opened["p99_ms"], 2)
        keep(opened, f"at_{rate:.0f}_offered")
        print(
            f"{tag} open loop {open_tables} tables at {opened['offered_per_s']:,.0f} moves/s"
            f" offered: {opened['done_per_s']:,.0f} done/s  p50 {opened['p50_ms']:.2f} ms"
            f"  p99 {opened['p99_ms']:.2f} ms ({counted(opened)})",
            flush=True,
        )
        mix = asyncio.run(mixed(target, groups, 20))
        figures["mixed_jobs_per_s"] = round(mix["jobs_per_s"])
        keep(mix, "mixed")
        batches = ""
        if "largest_batch" in mix:
            figures["largest_batch"] = mix["largest_batch"]
            figures["split_batches"] = mix["split_batches"]
            batches = (
                f", largest batch {mix['largest_batch']:,.0f} jobs,"
                f" {mix['split_batches']:.0f} split"
            )
        print(
            f"{tag} mixed {groups} groups (create, 3 joins, begin, 20 moves each, all at once):"
            f" {counted(mix)}{batches}, {mix['jobs_per_s']:,.0f} jobs/s",
            flush=True,
        )
        per_table = asyncio.run(idle_bytes(target, idle))
        figures["bytes_per_idle_table"] = round(per_table)
        print(f"{tag} memory: {per_table:,.0f} bytes per idle live table", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    figures["peak_rss_bytes"] = peak
    print(f"{tag} peak RSS {peak / 2**20:,.1f} MiB", flush=True)
    return figures


def postgres_url(given: str | None) -> tuple[str | None, str]:
    """The admin URL to use and where it came from (or why there is none)."""
    if given:
        return given, "--postgres-url"
    for name in URL_VARIABLES:
        if os.environ.get(name):
            return os.environ[name], name
    return None, (
        f"no PostgreSQL URL (--postgres-url, {' or '.join(URL_VARIABLES)});"
        " `make bench` starts a throwaway server when PostgreSQL is installed"
    )


def reachable(admin_url: str) -> str | None:
    """Why a database cannot be created on the server, or ``None`` when it can."""

    async def probe() -> None:
        await pg_admin.drop_database(admin_url, await pg_admin.create_database(admin_url))

    try:
        asyncio.run(probe())
    except Exception as error:  # the driver's errors are not ours to import here
        return f"{type(error).__name__}: {error}"
    return None


# (label, figure keys joined by "|", format); {n} stands for a table count, {rate} for the
# open loop's offered moves/s, {s} for a scenario's suffix in the count keys
COUNT_ROWS = (
    ("  run: writes / commits", "writes_{s}|commits_{s}", "{:,.0f} / {:,.0f}"),
    ("  run: WAL syncs", "wal_syncs_{s}", "{:,.0f}"),
    ("  run: writes per WAL sync", "writes_per_sync_{s}", "{:,.2f}"),
)
CLOSED_ROWS = (
    ("closed loop, {n} tables: durable moves/s", "moves_per_s_{n}_tables", "{:,.0f}"),
    ("  p50 / p99 ms", "p50_ms_{n}_tables|p99_ms_{n}_tables", "{:.2f} / {:.2f}"),
    ("  moves per commit (measured seconds)", "moves_per_commit_{n}_tables", "{:,.2f}"),
    *((label, keys.replace("{s}", "{n}_tables"), form) for label, keys, form in COUNT_ROWS),
)
OTHER_ROWS = (
    ("open loop, {rate} moves/s offered: done/s", "done_per_s_at_{rate}_offered", "{:,.0f}"),
    ("  p50 / p99 ms", "p50_ms_at_{rate}_offered|p99_ms_at_{rate}_offered", "{:.2f} / {:.2f}"),
    *((label, keys.replace("{s}", "at_{rate}_offered"), form) for label, keys, form in COUNT_ROWS),
    ("mixed: jobs/s", "mixed_jobs_per_s", "{:,.0f}"),
    ("  largest batch / split batches", "largest_batch|split_batches", "{:,.0f} / {:.0f}"),
    *((label, keys.replace("{s}", "mixed"), form) for label, keys, form in COUNT_ROWS),
    ("memory: bytes per idle live table", "bytes_per_idle_table", "{:,.0f}"),
    ("peak RSS MiB", "peak_rss_bytes", "{:,.1f}"),
    ("PostgreSQL pool size", "pool_size", "{:.0f}"),
)
NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def side_by_side(results: dict[str, dict[str, float]], sizes: Sequence[int], rate: float) -> str:
    """The figures as a table: scenario | SQLite | PostgreSQL ("—": not measured there).
    A commit is SQLite's batch; on PostgreSQL, a write's transaction for "moves per commit"
    and the server's xact_commit (reads and the pool's resets too) in the run's counts."""
    wanted = [
        (label.format(n=f"{n:,}"), keys.format(n=n), form)
        for n in sizes
        for label, keys, form in CLOSED_ROWS
    ]
    wanted += [
        (label.format(rate=f"{rate:,.0f}"), keys.format(rate=f"{rate:.0f}"), form)
        for label, keys, form in OTHER_ROWS
    ]
    rows: list[tuple[str, ...]] = [("scenario", *(NAMES[backend] for backend in results))]
    for label, keys, form in wanted:
        cells = []
        for figures in results.values():
            found = [figures.get(key) for key in keys.split("|")]
            values = [value for value in found if value is not None]
            if len(values) < len(found):
                cells.append("—")
                continue
            if keys == "peak_rss_bytes":
                values = [value / 2**20 for value in values]
            cells.append(form.format(*values))
        if any(cell != "—" for cell in cells):
            rows.append((label, *cells))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        " | ".join(
            cell.ljust(widths[0]) if column == 0 else cell.rjust(widths[column])
            for column, cell in enumerate(row)
        )
        for row in rows
    ]
    lines.insert(1, "-+-".join("-" * width for width in widths))
    return "\n".join(lines)


def run_in_child(options: dict[str, Any]) -> dict[str, float]:
    """``run`` in a process of its own (a fresh peak RSS, nothing left from the other
    backend's run)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(run, **options).result()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Sahra table manager benchmark")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument(
        "--backend",
        choices=(*BACKENDS, "both"),
        help="default: both when a PostgreSQL URL is known, else sqlite",
    )
    parser.add_argument(
        "--postgres-url",
        help="a PostgreSQL server's admin URL (default: $SAHRA_BENCH_POSTGRES_URL, else"
        " $SAHRA_TEST_POSTGRES_URL); each scenario creates and drops a database of its own",
    )
    parser.add_argument(
        "--pool-size",
        type=int,
        default=POOL_SIZE,
        help=f"PostgreSQL connections in the pool (default {POOL_SIZE})",
    )
    args = parser.parse_args(argv)
    url, source = postgres_url(args.postgres_url)
    if args.backend is None:
        problem = source if url is None else None
        if url is not None and (problem := reachable(url)) is not None:
            problem = f"{redacted(url)} ({source}): {problem}"
        if problem is not None:
            print(f"PostgreSQL skipped: {problem}", flush=True)
        backends: tuple[str, ...] = BACKENDS if problem is None else ("sqlite",)
    else:
        backends = BACKENDS if args.backend == "both" else (args.backend,)
        if "postgresql" in backends and url is None:
            parser.error(f"--backend {args.backend}: {source}")
    if "postgresql" in backends and url is not None:
        print(
            f"PostgreSQL: {redacted(url)} ({source}), pool of {args.pool_size} connections",
            flush=True,
        )
    scale = dict(QUICK) if args.quick else {**FULL, "seconds": args.seconds}
    results: dict[str, dict[str, float]] = {}
    for backend in backends:
        options: dict[str, Any] = {
            **scale,
            "backend": backend,
            "admin_url": url if backend == "postgresql" else None,
            "pool_size": args.pool_size,
        }
        results[backend] = run_in_child(options) if len(backends) > 1 else run(**options)
    print()
    print(side_by_side(results, scale["sizes"], scale["rate"]))
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
