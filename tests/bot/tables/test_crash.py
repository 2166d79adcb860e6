"""SIGKILL the manager's process at random moments: no acknowledged move is ever lost.

A worker process plays computer tables on a real database — the SQLite file (WAL,
synchronous=FULL) or PostgreSQL (synchronous_commit on) — and prints an ``ack`` after each
commit. The test kills it with SIGKILL at random moments, more than twenty times on SQLite
(ten on PostgreSQL), restarting it each time, then checks that every acknowledged
move is in the log, that each table's log replays through a fresh engine to the state
the worker reported, and that no deal was dealt twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import engine
from bot.tables import TableConfig
from storage.store import Store
from tests.backends import BackendFactory

ROOT = Path(__file__).resolve().parents[3]
# The SQLite file is where a kill could tear a write (the WAL, fsync): more than twenty
# kills there; PostgreSQL commits in its server, which the kill never reaches.
KILLS = {"sqlite": 22, "postgresql": 10}


async def replay(store: Store, table_id: int, upto: int) -> engine.Match:
    stored = await store.load_table(table_id)
    assert stored is not None
    config = TableConfig.model_validate_json(stored.table.config)
    match = engine.new_match(
        config.variant, seed=stored.table.seed, options=config.engine_options()
    )
    actions = [action for action in stored.actions if action.seq <= upto]
    assert [action.seq for action in actions] == list(range(1, len(actions) + 1))
    for action in actions:
        match.apply(action.seat, action.action)
    return match


def digest(match: engine.Match) -> str:
    return hashlib.sha256(match.to_json().encode()).hexdigest()[:16]


def run_once(address: str, rng: random.Random) -> list[list[str]]:
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.tables.crash_worker", address, "6"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert worker.stdout is not None
    lines: list[list[str]] = []
    acks = 0
    # A kill lands anywhere in a commit whatever the count; a short run each time leaves
    # the time for many kills (and restarts, which replay every table's log).
    wanted = rng.randrange(1, 80)
    deadline = time.monotonic() + 20
    while acks < wanted and time.monotonic() < deadline:
        line = worker.stdout.readline()
        if not line:
            break
        parts = line.split()
        lines.append(parts)
        acks += parts[0] == "ack"
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    worker.stdout.close()
    return lines


async def test_no_acknowledged_move_is_lost_across_sigkills(backend: BackendFactory) -> None:
    rng = random.Random(2026)
    acked: dict[tuple[int, int], tuple[int, str]] = {}
    loads = 0
    db = backend.make("FULL")
    await db.start()
    store = Store(db)
    try:
        kills = KILLS[backend.kind]
        for _ in range(kills):
            lines = await asyncio.to_thread(run_once, backend.address, rng)
            for parts in lines:
                if parts[0] == "ack":
                    table, seq, deal = int(parts[1]), int(parts[2]), int(parts[3])
                    acked[table, seq] = (deal, parts[4])
                elif parts[0] == "loaded":
                    table, seq, state = int(parts[1]), int(parts[2]), parts[3]
                    loads += 1
                    # What the restarted worker rebuilt equals a fresh replay of the log,
                    # and it is the state it acknowledged before being killed (no redeal).
                    assert digest(await replay(store, table, seq)) == state
                    if (table, seq) in acked:
                        assert acked[table, seq][1] == state
        assert len(acked) > kills and loads > 0
        logs = {table: await store.load_table(table) for table, _ in acked}
        logged = {
            (table, action.seq)
            for table, stored in logs.items()
            if stored is not None
            for action in stored.actions
        }
        missing = [key for key in acked if key not in logged and key[1] > 0]
        assert missing == []
        # Every acknowledged state is what the log replays to, deal number included.
        by_table: dict[int, list[int]] = {}
        for table, seq in acked:
            by_table.setdefault(table, []).append(seq)
        for table, seqs in by_table.items():
            for seq in sorted(seqs)[-3:]:
                if seq == 0:
                    continue
                match = await replay(store, table, seq)
                deal, state = acked[table, seq]
                assert match.deal_number == deal and digest(match) == state
    finally:
        await db.close()
