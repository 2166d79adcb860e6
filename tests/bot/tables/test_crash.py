"""SIGKILL the manager's process at random moments: no acknowledged move is ever lost.

A worker process plays computer tables on a real SQLite file (WAL, synchronous=FULL) and
prints an ``ack`` after each commit. The test kills it with SIGKILL at random moments,
more than twenty times, restarting it each time, then checks that every acknowledged
move is in the log, that each table's log replays through a fresh engine to the state
the worker reported, and that no deal was dealt twice.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import engine
from bot.tables import TableConfig

ROOT = Path(__file__).resolve().parents[3]
KILLS = 22


def replay(conn: sqlite3.Connection, table_id: int, upto: int) -> engine.Match:
    row = conn.execute(
        "SELECT config, seed, decks FROM tables WHERE id = ?", (table_id,)
    ).fetchone()
    config = TableConfig.model_validate_json(row[0])
    match = engine.new_match(config.variant, seed=row[1], options=config.engine_options())
    actions = conn.execute(
        "SELECT seq, seat, action FROM actions WHERE table_id = ? AND seq <= ? ORDER BY seq",
        (table_id, upto),
    ).fetchall()
    assert [seq for seq, _, _ in actions] == list(range(1, len(actions) + 1))
    for _, seat, action in actions:
        match.apply(seat, json.loads(action))
    return match


def digest(match: engine.Match) -> str:
    return hashlib.sha256(match.to_json().encode()).hexdigest()[:16]


def run_once(path: Path, rng: random.Random) -> list[list[str]]:
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.tables.crash_worker", str(path), "6"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert worker.stdout is not None
    lines: list[list[str]] = []
    acks = 0
    wanted = rng.randrange(1, 400)
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


def test_no_acknowledged_move_is_lost_across_sigkills(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite"
    rng = random.Random(2026)
    acked: dict[tuple[int, int], tuple[int, str]] = {}
    loads = 0
    for _ in range(KILLS):
        for parts in run_once(path, rng):
            if parts[0] == "ack":
                table, seq, deal, state = int(parts[1]), int(parts[2]), int(parts[3]), parts[4]
                acked[table, seq] = (deal, state)
            elif parts[0] == "loaded":
                table, seq, state = int(parts[1]), int(parts[2]), parts[3]
                loads += 1
                # What the restarted worker rebuilt equals a fresh replay of the log, and
                # it is the state it acknowledged before being killed (no redeal).
                with sqlite3.connect(path) as conn:
                    assert digest(replay(conn, table, seq)) == state
                if (table, seq) in acked:
                    assert acked[table, seq][1] == state
    assert len(acked) > KILLS and loads > 0
    with sqlite3.connect(path) as conn:
        logged = set(conn.execute("SELECT table_id, seq FROM actions").fetchall())
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
                match = replay(conn, table, seq)
                deal, state = acked[table, seq]
                assert match.deal_number == deal and digest(match) == state
