"""The ``world`` fixture: a fake Bot API, a real SQLite file and the real bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.telegram.harness import GROUP, World


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    fake = FakeBotAPI()
    await fake.start()
    world = World(tmp_path / "sahra.sqlite", str(GROUP), fake=fake)
    await world.boot()
    try:
        yield world
    finally:
        await world.shutdown()
        await fake.close()
