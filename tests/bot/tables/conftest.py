"""A manager on a real SQLite file in a temp dir, with a clock the test moves."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.tables import InMemoryNotifier, PlayerRef, TableManager
from storage.database import Database


@dataclass
class FakeClock:
    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Harness:
    path: Path
    clock: FakeClock
    db: Database
    notifier: InMemoryNotifier
    manager: TableManager
    seeds: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def restart(self, down_for: float = 0.0) -> None:
        """Close everything (as a clean shutdown would), let ``down_for`` seconds pass,
        and load again from the file."""
        await self.manager.close()
        await self.db.close()
        self.clock.advance(down_for)
        self.db = Database(self.path, synchronous="NORMAL")
        await self.db.start()
        self.notifier = InMemoryNotifier()
        self.manager = TableManager(
            self.db, self.notifier, clock=self.clock, seed_source=self.seeds.__next__
        )
        await self.manager.start()


PLAYERS = [PlayerRef(user_id=f"u{i}", name=f"Player {i}", language="en") for i in range(6)]


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    clock = FakeClock()
    # NORMAL keeps the file real (WAL, pragmas, a separate writer thread) and survives a
    # killed process; the crash test uses FULL, the default.
    db = Database(tmp_path / "sahra.sqlite", synchronous="NORMAL")
    await db.start()
    notifier = InMemoryNotifier()
    seeds = itertools.count(1)
    manager = TableManager(db, notifier, clock=clock, seed_source=seeds.__next__)
    await manager.start()
    h = Harness(tmp_path / "sahra.sqlite", clock, db, notifier, manager, seeds)
    try:
        yield h
    finally:
        await h.manager.close()
        await h.db.close()
