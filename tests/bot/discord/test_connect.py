"""A gateway that is down when Sahra starts: the first connection is retried until the
gateway comes back, and the bot becomes ready (discord.py alone gives up, failing to
resume a session it never had)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.discord.app import build, start, stop
from storage.database import Database
from tests.bot.discord.fake_discord import FakeDiscord


async def test_a_gateway_down_at_start_is_retried_until_it_answers(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    fake.gateway_mode = "refuse"
    try:
        async with Database.open(tmp_path / "d.sqlite", synchronous="NORMAL") as db:
            bot = build(db, api_url=fake.base, sync_commands=False, guild_ready_timeout=0.05)
            starting = asyncio.create_task(start(bot, "fake-token", connect_retry=0.1))
            await asyncio.sleep(1.0)  # several refused connections, retried with backoff
            assert not starting.done()
            fake.gateway_mode = "normal"
            await asyncio.wait_for(starting, timeout=10)
            assert bot.client.is_ready()
            await stop(bot)
    finally:
        await fake.close()
