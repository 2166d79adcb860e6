"""Table manager throughput and latency on a real SQLite file (WAL, synchronous=FULL).

* closed loop: 1, 100 and 1,000 tables of four computers play at once, each move going
  through the full apply path (lock → apply → durable commit → publish); durable moves/s
  and the per-move latency (from one committed move of a table to its next);
* open loop: 1,000 tables of four humans; a driver presses buttons at a fixed 1,000
  moves/s spread over the tables and times each press until its commit returns;
* mixed: hundreds of groups at once each open a table, join it, start it and play, so
  creates, joins and moves of many tables share the writer's batches; the largest batch
  committed and how many batches had to be split (a statement out of order would split
  them; it must be 0);
* memory: bytes per idle live table (tracemalloc) and the process's peak RSS.

Finished matches are replaced by new tables so the load stays constant. ``--json`` ends
with one JSON object; ``--quick`` runs a reduced version. Timings are never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bot.tables import LiveTable, Place, PlayerRef, Press, Refusal, TableManager
from storage.database import Database

VARIANTS = ("syrian41", "tarneeb_solo", "trix_complex", "tarneeb41_double")
OWNER = PlayerRef(user_id="bench", name="Bench", language="en")
HUMANS = [PlayerRef(user_id=f"h{i}", name=f"H{i}", language="en") for i in range(4)]


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


async def closed_loop(path: Path, tables: int, seconds: float) -> dict[str, float]:
    async with Database.open(path) as db:
        notifier = TimingNotifier()
        manager = TableManager(db, notifier)
        await manager.start()
        await asyncio.gather(*(computer_table(manager, number) for number in range(tables)))
        created = tables
        notifier.gaps.clear()
        notifier.moves = 0
        begin = time.perf_counter()
        while time.perf_counter() - begin < seconds:
            await asyncio.sleep(0.05)
            running = sum(1 for t in manager.live_tables() if t.status == "running")
            for _ in range(tables - running):
                await computer_table(manager, created)
                created += 1
        elapsed = time.perf_counter() - begin
        moves = notifier.moves
        gaps = list(notifier.gaps)
        await manager.close()
        batches = db.stats.batches
    return {
        "moves_per_s": moves / elapsed,
        "p50_ms": percentile(gaps, 0.5) * 1000,
        "p99_ms": percentile(gaps, 0.99) * 1000,
        "moves_per_commit": moves / max(1, batches),
    }


async def open_loop(path: Path, tables: int, rate: float, seconds: float) -> dict[str, float]:
    config = {"turn_seconds": 3600, "bid_seconds": 3600, "doubling_seconds": 600}
    async with Database.open(path) as db:
        manager = TableManager(db, TimingNotifier())
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
    }


async def mixed(path: Path, groups: int, moves: int) -> dict[str, float]:
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

    async with Database.open(path) as db:
        manager = TableManager(db, TimingNotifier())
        await manager.start()
        begin = time.perf_counter()
        await asyncio.gather(*(one_group(manager, number) for number in range(groups)))
        elapsed = time.perf_counter() - begin
        await manager.close()
        stats = db.stats
    return {
        "jobs": stats.jobs,
        "batches": stats.batches,
        "largest_batch": stats.largest_batch,
        "split_batches": stats.split_batches,
        "jobs_per_s": stats.jobs / elapsed,
    }


async def idle_bytes(path: Path, tables: int) -> float:
    """Memory one more live, started, idle table costs (tracemalloc, after set-up)."""
    config = {"turn_seconds": 3600, "bid_seconds": 3600}
    async with Database.open(path) as db:
        manager = TableManager(db, TimingNotifier())
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
) -> dict[str, float]:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for tables in sizes:
            path = Path(folder) / f"closed-{tables}.sqlite"
            result = asyncio.run(closed_loop(path, tables, seconds))
            figures[f"moves_per_s_{tables}_tables"] = round(result["moves_per_s"])
            figures[f"p50_ms_{tables}_tables"] = round(result["p50_ms"], 2)
            figures[f"p99_ms_{tables}_tables"] = round(result["p99_ms"], 2)
            print(
                f"closed loop {tables:>5} tables: {result['moves_per_s']:>9,.0f} durable moves/s"
                f"  p50 {result['p50_ms']:.2f} ms  p99 {result['p99_ms']:.2f} ms"
                f"  {result['moves_per_commit']:.1f} moves per commit"
            )
        path = Path(folder) / "open.sqlite"
        opened = asyncio.run(open_loop(path, open_tables, rate, seconds))
        figures[f"p50_ms_at_{rate:.0f}_offered"] = round(opened["p50_ms"], 2)
        figures[f"p99_ms_at_{rate:.0f}_offered"] = round(opened["p99_ms"], 2)
        print(
            f"open loop {open_tables} tables at {opened['offered_per_s']:,.0f} moves/s offered:"
            f" {opened['done_per_s']:,.0f} done/s  p50 {opened['p50_ms']:.2f} ms"
            f"  p99 {opened['p99_ms']:.2f} ms"
        )
        mix = asyncio.run(mixed(Path(folder) / "mixed.sqlite", groups, 20))
        figures["largest_batch"] = mix["largest_batch"]
        figures["split_batches"] = mix["split_batches"]
        print(
            f"mixed {groups} groups (create, 3 joins, begin, 20 moves each, all at once):"
            f" {mix['jobs']:,.0f} jobs in {mix['batches']:,.0f} batches,"
            f" largest batch {mix['largest_batch']:,.0f} jobs,"
            f" {mix['split_batches']:.0f} split, {mix['jobs_per_s']:,.0f} jobs/s"
        )
        per_table = asyncio.run(idle_bytes(Path(folder) / "idle.sqlite", idle))
        figures["bytes_per_idle_table"] = round(per_table)
        print(f"memory: {per_table:,.0f} bytes per idle live table")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    figures["peak_rss_bytes"] = peak
    print(f"peak RSS {peak / 2**20:,.1f} MiB")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Sahra table manager benchmark")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    seconds = 2.0 if args.quick else args.seconds
    figures = run(
        seconds,
        (1, 100, 1000),
        1000,
        1000.0,
        200 if args.quick else 1000,
        100 if args.quick else 500,
    )
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
