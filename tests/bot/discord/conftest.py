"""The real discord.py client against the fake Discord, over a real SQLite file."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.delivery.router import PlatformRouter
from bot.discord.app import DiscordBot, build, start, stop
from bot.render.codes import decode
from bot.render.hand import DOUBLE_PICK
from bot.tables import LiveTable, Place
from bot.tables.computers import Computers
from bot.web.app import web_table
from tests.backends import BackendFactory
from tests.bot.discord.fake_discord import CHANNEL, FakeDiscord, Message
from tests.bot.support import PlatformWorld, eventually


@dataclass
class Guild(PlatformWorld):
    fake: FakeDiscord = field(default_factory=FakeDiscord)
    bot: DiscordBot | None = None
    sync_commands: bool = False  # the start-up sync of the global commands
    activities: bool = False  # the operator's discord_activity

    async def boot(self) -> DiscordBot:
        self.bot = build(
            await self.open_db(),
            api_url=self.fake.base,
            sync_commands=self.sync_commands,
            activities=self.activities,
            outbox_clock=self.time,
            outbox_sleep=self.time.sleep,
            computers=Computers(),
            guild_ready_timeout=0.05,
        )
        self.watch_public()
        await start(self.bot, "fake-token")
        return self.bot

    async def stop_bot(self) -> None:
        assert self.bot is not None
        await stop(self.bot)

    async def slash(
        self, user: int, command: str | None, admin: bool = False, **options: Any
    ) -> dict[str, Any]:
        """A slash command, answered and its consequences settled (a deferred command is
        done when its handler has ended: an answer can reach Discord before the handler has
        queued what follows it, such as a DM hand)."""
        assert self.bot is not None
        done = self.bot.frontend.commands_completed
        interaction = await self.fake.slash(user, command, admin, **options)
        reply = await self.fake.answered(interaction)
        await eventually(
            lambda: self.bot is not None and self.bot.frontend.commands_completed > done
        )
        await self.settle()
        return reply

    async def click(self, user: int, message: Message, custom_id: str) -> dict[str, Any]:
        assert self.bot is not None
        done = self.bot.frontend.completed
        interaction = await self.fake.click(user, message, custom_id)
        reply = await self.fake.answered(interaction)
        await eventually(lambda: self.bot is not None and self.bot.frontend.completed > done)
        await self.settle()
        return reply

    @staticmethod
    def table_place(channel: int = CHANNEL) -> Place:
        return Place("discord", str(channel), "")

    def table(self) -> LiveTable:
        assert self.bot is not None
        table = self.bot.manager.table_at(self.table_place())
        assert table is not None
        return table

    def button(self, message: Message, kind: str) -> str:
        for custom_id, action in buttons(message):
            if action["type"] == kind:
                return custom_id
        raise AssertionError(f"no {kind} button on {message.content[:40]!r}")

    def public(self) -> Message:
        """The newest public message with a table or lobby button."""
        for message in sorted(self.fake.in_channel(), key=lambda m: m.id, reverse=True):
            if any(a["type"] in ("hand", "rules") for _, a in buttons(message)):
                return message
        raise AssertionError("no table message")


def buttons(message: Message) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for row in message.components:
        for item in row.get("components", []):
            custom_id = item.get("custom_id", "")
            decoded = decode(custom_id[2:]) if custom_id.startswith("s:") else None
            if decoded and not item.get("disabled"):
                found.append((custom_id, decoded[2]))
    return found


def playable(message: Message) -> list[tuple[str, dict[str, Any]]]:
    return [(c, a) for c, a in buttons(message) if a["type"] not in ("noop", DOUBLE_PICK)]


async def booted(
    backend: BackendFactory,
    *,
    sync_commands: bool = False,
    activities: bool = False,
    **fake_options: Any,
) -> AsyncGenerator[Guild, None]:
    """The real bot against a fake Discord (``fake_options``: its sharding, say)."""
    fake = FakeDiscord(**fake_options)
    await fake.start()
    world = Guild(
        backend.path,
        str(CHANNEL),
        fake=fake,
        backend=backend,
        sync_commands=sync_commands,
        activities=activities,
    )
    await world.boot()
    try:
        yield world
    finally:
        await world.shutdown()
        await fake.close()


@contextlib.asynccontextmanager
async def on_sqlite(tmp_path: Path, **options: Any) -> AsyncIterator[Guild]:
    """``booted`` on the SQLite file alone, for a test of what Discord sees, which the
    storage behind the bot does not change (``options``: ``booted``'s)."""
    worlds = booted(BackendFactory("sqlite", tmp_path / "sahra.sqlite"), **options)
    try:
        yield await anext(worlds)
    finally:
        await worlds.aclose()


@pytest.fixture
async def guild(backend: BackendFactory) -> AsyncIterator[Guild]:
    """The real bot on each backend (the SQLite file, a PostgreSQL database)."""
    async for world in booted(backend):
        yield world


@contextlib.asynccontextmanager
async def served(tmp_path: Path, **options: Any) -> AsyncIterator[Guild]:
    """The bot with the web table beside it, offered the way ``sahra run`` offers it."""
    async with on_sqlite(tmp_path, **options) as guild:
        bot = guild.bot
        assert bot is not None and isinstance(bot.manager.notifier, PlatformRouter)
        web = await web_table(
            bot.manager, bot.manager.notifier, public_url="https://table.example.org"
        )
        await web.start("127.0.0.1", 0)
        bot.notifier.web = True
        bot.frontend.web_link = lambda table, player: web.personal_link("discord", table, player)
        try:
            yield guild
        finally:
            await web.stop()
