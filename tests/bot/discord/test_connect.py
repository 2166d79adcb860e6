"""A gateway that is down when Sahra starts: the first connection is retried until the
gateway comes back, and the bot becomes ready (discord.py alone gives up, failing to
resume a session it never had)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord.shard
import pytest

from bot.discord import client
from bot.discord.app import build, start, stop
from storage.database import Database
from tests.bot.discord.fake_discord import FakeDiscord
from tests.bot.support import eventually


class ShortPauses:
    """``discord.shard``'s asyncio, with its fixed 5 s pause before retrying a shard's
    connection cut short: the retry is what this test is about, not its pause."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(seconds: float, result: Any = None) -> Any:
        return await asyncio.sleep(min(seconds, 0.1), result)


async def test_a_gateway_down_at_start_is_retried_until_it_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.shard, "asyncio", ShortPauses())
    monkeypatch.setattr(client, "IDENTIFY_SECONDS", 0.1)  # a retried shard's IDENTIFY waits it
    fake = FakeDiscord()
    await fake.start()
    fake.gateway_mode = "refuse"
    try:
        async with Database.open(tmp_path / "d.sqlite", synchronous="NORMAL") as db:
            bot = build(db, api_url=fake.base, sync_commands=False, guild_ready_timeout=0.05)
            starting = asyncio.create_task(start(bot, "fake-token", connect_retry=0.1))
            # Several refused connections, each retried; the bot is not ready meanwhile.
            await eventually(lambda: len([c for c in fake.calls if c[1] == "WS"]) >= 3)
            assert not starting.done() and not bot.client.is_ready()
            fake.gateway_mode = "normal"
            await asyncio.wait_for(starting, timeout=10)
            assert bot.client.is_ready()
            await stop(bot)
    finally:
        await fake.close()
