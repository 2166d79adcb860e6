"""The real discord.py client against the fake Discord, over a real SQLite file."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.discord.app import DiscordBot, build, start, stop
from bot.render.codes import decode
from bot.render.hand import DOUBLE_PICK
from bot.render.i18n import card_label
from bot.render.model import Screen
from bot.tables import LiveTable, Place
from bot.tables.computers import Computers
from storage.database import Database
from tests.bot.discord.fake_discord import CHANNEL, FakeDiscord, Message
from tests.bot.virtual_time import VirtualTime

BIDI = str.maketrans("", "", "\u2068\u2069\u200e")
CARD_RE = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


async def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition never held")
        await asyncio.sleep(0.002)


@dataclass
class Guild:
    fake: FakeDiscord
    path: Path
    time: VirtualTime = field(default_factory=VirtualTime)
    db: Database | None = None
    bot: DiscordBot | None = None
    leaks: list[str] = field(default_factory=list)
    public_texts: set[str] = field(default_factory=set)

    async def boot(self) -> DiscordBot:
        self.db = Database(self.path, synchronous="NORMAL")
        await self.db.start()
        self.bot = build(
            self.db,
            sync_commands=False,
            outbox_clock=self.time,
            outbox_sleep=self.time.sleep,
            computers=Computers(),
            guild_ready_timeout=0.05,
        )
        self._watch()
        await start(self.bot, "fake-token")
        return self.bot

    async def shutdown(self) -> None:
        if self.bot is not None:
            await stop(self.bot)
            self.bot = None
        if self.db is not None:
            await self.db.close()
            self.db = None

    def _watch(self) -> None:
        """Check each public screen when it is rendered against the hands at that moment."""
        assert self.bot is not None
        outbox = self.bot.outbox
        for name in ("post", "show"):
            original = getattr(outbox, name)

            def checked(
                chat: str,
                key: object,
                screen: Screen,
                *,
                group: bool,
                thread: str = "",
                _original: Any = original,
            ) -> None:
                if chat == str(CHANNEL):
                    leaked = set(CARD_RE.findall(screen.text.translate(BIDI))) & self.hidden()
                    if leaked:
                        self.leaks.append(f"hidden cards {leaked} in {screen.text!r}")
                    self.public_texts.add(screen.text)
                _original(chat, key, screen, group=group, thread=thread)

            setattr(outbox, name, checked)

    def hidden(self) -> set[str]:
        assert self.bot is not None
        cards: set[str] = set()
        for table in self.bot.manager.live_tables():
            match = table.match
            if match is None:
                continue
            public = match.view(None)
            allowed = {public.get("shown_card")} | {d["card"] for d in public.get("doubled") or []}
            cards |= {card_label(c) for s in range(4) for c in match.hand(s) if c not in allowed}
        return cards

    async def settle(self) -> None:
        assert self.bot is not None
        for _ in range(3):
            await self.bot.manager.settle()
            await self.bot.outbox.flush()

    async def slash(
        self, user: int, command: str, admin: bool = False, **options: Any
    ) -> dict[str, Any]:
        interaction = await self.fake.slash(user, command, admin, **options)
        reply = await self.fake.answered(interaction)
        token = f"tok{interaction}"
        if reply["type"] == 5:  # deferred: done when the followup comes
            await eventually(lambda: self.fake.followups.get(token, 0) > 0)
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

    def table(self) -> LiveTable:
        assert self.bot is not None
        table = self.bot.manager.table_at(Place("discord", str(CHANNEL), ""))
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


@pytest.fixture
async def guild(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Guild]:
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway)
    )
    world = Guild(fake, tmp_path / "sahra.sqlite")
    await world.boot()
    try:
        yield world
    finally:
        await world.shutdown()
        await fake.close()
