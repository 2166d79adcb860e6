"""The ``world`` fixtures: a fake Bot API, a real SQLite file and the real bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.backends import BackendFactory
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.telegram.harness import GROUP, World


@pytest.fixture(autouse=True)
def _timedelta_periods(monkeypatch: pytest.MonkeyPatch) -> None:
    """PTB's future behaviour, as production runs it (deploy/ sets PTB_TIMEDELTA): periods
    such as a 429's ``retry_after`` are timedeltas, and reading one is no deprecation
    warning (which this suite turns into an error inside PTB)."""
    monkeypatch.setenv("PTB_TIMEDELTA", "true")


async def _world(
    path: Path, *, real_time: bool, backend: BackendFactory | None = None
) -> AsyncIterator[World]:
    fake = FakeBotAPI()
    await fake.start()
    world = World(path, str(GROUP), fake=fake, real_time=real_time, backend=backend)
    await world.boot()
    try:
        yield world
    finally:
        await world.shutdown()
        await fake.close()


@pytest.fixture
async def world(backend: BackendFactory) -> AsyncIterator[World]:
    """The real bot on each backend (the SQLite file, a PostgreSQL database)."""
    async for running in _world(backend.path, real_time=False, backend=backend):
        yield running


@pytest.fixture
async def real_time_world(tmp_path: Path) -> AsyncIterator[World]:
    """The outbox on the real clock: its pauses take real seconds (keep them short)."""
    async for running in _world(tmp_path / "sahra.sqlite", real_time=True):
        yield running
