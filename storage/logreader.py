"""A read-only, synchronous look at a database file that a running bot is writing.

Measurements (``benchmarks/delivery.py``) follow a table's action log from outside the
bot process, as an operator's tool would: they must not share the bot's writer or its
event loop, and every SQL statement stays in ``storage/``. WAL mode lets this reader see
each committed move while the bot keeps writing.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class LoggedMove:
    seq: int
    seat: int
    action: dict[str, Any]
    at: float  # wall time of the commit


@dataclass(frozen=True, slots=True)
class TableSetup:
    variant: str
    config: dict[str, Any]
    seed: int
    decks: list[list[str]] | None


class LogReader:
    """Reads tables, seats and moves from a bot's SQLite file without writing to it."""

    def __init__(self, path: str | Path) -> None:
        self._conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        self._conn.row_factory = sqlite3.Row

    def close(self) -> None:
        self._conn.close()

    def latest_table(self, platform: str, chat: str) -> int | None:
        row = self._conn.execute(
            "SELECT id FROM tables WHERE platform = ? AND chat = ? ORDER BY id DESC LIMIT 1",
            (platform, chat),
        ).fetchone()
        return None if row is None else int(row["id"])

    def seats(self, table_id: int) -> dict[int, tuple[str, bool]]:
        """seat -> (name, is a computer)."""
        rows = self._conn.execute(
            "SELECT seat, name, kind FROM seats WHERE table_id = ?", (table_id,)
        )
        return {int(r["seat"]): (str(r["name"]), r["kind"] != "human") for r in rows}

    def status(self, table_id: int) -> str | None:
        row = self._conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else str(row["status"])

    def setup(self, table_id: int) -> TableSetup:
        row = self._conn.execute(
            "SELECT variant, config, seed, decks FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        decks = None if row["decks"] is None else json.loads(row["decks"])
        return TableSetup(str(row["variant"]), json.loads(row["config"]), int(row["seed"]), decks)

    def moves_after(self, table_id: int, seq: int) -> list[LoggedMove]:
        rows = self._conn.execute(
            "SELECT seq, seat, action, at FROM actions WHERE table_id = ? AND seq > ?"
            " ORDER BY seq",
            (table_id, seq),
        ).fetchall()
        return [
            LoggedMove(int(r["seq"]), int(r["seat"]), json.loads(r["action"]), float(r["at"]))
            for r in rows
        ]
