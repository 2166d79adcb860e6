"""The ``world`` fixture: a fake Bot API, a real SQLite file and the real bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.telegram.harness import World


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    fake = FakeBotAPI()
    await fake.start()
    world = World(fake, tmp_path / "sahra.sqlite")
    await world.boot()
    try:
        yield world
    finally:
        await world.shutdown()
        await fake.close()
