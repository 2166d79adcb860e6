"""A manager on a real SQLite file in a temp dir, with a clock the test moves."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from bot.league.service import counting
from bot.tables import InMemoryNotifier, PlayerRef, TableManager
from storage.database import Database
from storage.postgres import PostgresDatabase
from tests.backends import BackendFactory


@dataclass
class FakeClock:
    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Harness:
    backend: BackendFactory
    clock: FakeClock
    db: Database | PostgresDatabase
    notifier: InMemoryNotifier
    manager: TableManager
    seeds: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def restart(self, down_for: float = 0.0) -> None:
        """Close everything (as a clean shutdown would), let ``down_for`` seconds pass,
        and load again from the database."""
        await self.manager.close()
        await self.db.close()
        self.clock.advance(down_for)
        self.db = self.backend.make()
        await self.db.start()
        self.notifier = InMemoryNotifier()
        self.manager = TableManager(
            self.db, self.notifier, clock=self.clock, seed_source=self.seeds.__next__
        )
        counting(self.manager)  # finished matches are counted, as in a running bot
        await self.manager.start()


PLAYERS = [PlayerRef(user_id=f"u{i}", name=f"Player {i}", language="en") for i in range(6)]


@pytest.fixture
async def harness(backend: BackendFactory) -> AsyncIterator[Harness]:
    """A manager on each backend: the SQLite file (NORMAL keeps it real: WAL, pragmas, a
    separate writer thread; the crash test uses FULL) and a PostgreSQL database."""
    clock = FakeClock()
    db = backend.make()
    await db.start()
    notifier = InMemoryNotifier()
    seeds = itertools.count(1)
    manager = TableManager(db, notifier, clock=clock, seed_source=seeds.__next__)
    counting(manager)  # finished matches are counted, as in a running bot
    await manager.start()
    h = Harness(backend, clock, db, notifier, manager, seeds)
    try:
        yield h
    finally:
        await h.manager.close()
        await h.db.close()
