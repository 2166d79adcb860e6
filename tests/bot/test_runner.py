"""With both tokens, Telegram and Discord run in one process over one table manager and
one database: a table opened on each platform lives side by side (fake servers for both)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest
import yarl
from pydantic import SecretStr

from bot.runner import run_bots
from bot.settings import Settings
from storage.database import Database
from tests.bot.discord.fake_discord import FakeDiscord
from tests.bot.support import eventually
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.telegram.harness import GROUP


async def test_both_platforms_share_one_manager_and_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    telegram, discord_fake = FakeBotAPI(), FakeDiscord()
    await telegram.start()
    await discord_fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord_fake.base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(discord_fake.gateway)
    )
    monkeypatch.setattr("bot.discord.app.SahraClient.setup_hook", _no_sync)
    settings = Settings(
        database=tmp_path / "both.sqlite",
        telegram_token=SecretStr("123:TEST"),
        telegram_api_url=telegram.url,
        discord_token=SecretStr("fake"),
    )
    ready, done = asyncio.Event(), asyncio.Event()
    runner = asyncio.create_task(run_bots(settings, ready, done))
    try:
        await asyncio.wait_for(ready.wait(), timeout=20)
        telegram.command(GROUP, 1, "/new syrian41")
        interaction = await discord_fake.slash(2, "new", variant="trix_complex")
        await discord_fake.answered(interaction)

        async def platforms() -> set[str]:
            async with Database.open(settings.database) as db:
                rows = await db.fetchall("SELECT platform FROM tables")
            return {row["platform"] for row in rows}

        await eventually(lambda: any("طرنيب" in m.text for m in telegram.in_chat(GROUP)))
        await eventually(lambda: len(discord_fake.in_channel()) >= 1)
        assert await platforms() == {"telegram", "discord"}
    finally:
        done.set()
        await asyncio.wait_for(runner, timeout=20)
        await telegram.close()
        await discord_fake.close()


async def _no_sync(self: discord.Client) -> None:
    """The real setup hook without the command sync (the fake has no command registry)."""
    from bot.discord.views import SahraButton

    self.add_dynamic_items(SahraButton)
    self.tree.add_command(self.frontend.commands())  # type: ignore[attr-defined]
