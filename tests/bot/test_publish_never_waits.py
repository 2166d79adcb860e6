"""No platform call is made while a table's lock is held: the notifiers publish by queueing
screens in the outbox and return without ever waiting (the outbox's own workers write),
so a slow or hanging chat API can never hold a table's moves up."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.discord.notifier import DiscordNotifier
from bot.render.model import Screen
from bot.tables import LiveTable, Place, PlayerRef, TableManager
from bot.tables.notifier import Notifier
from bot.telegram.notifier import TelegramNotifier
from storage.database import Database

OWNER = PlayerRef(user_id="42", name="Owner", language="en")


class HangingSender:
    """A chat API that never answers."""

    def __init__(self) -> None:
        self.calls = 0

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        self.calls += 1
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self.calls += 1
        await asyncio.Event().wait()


class MustNotSuspend:
    """Runs each publication of ``inner`` in one step: if it awaited anything that is
    not already done (a platform call, a lock, a sleep), the step would not finish."""

    def __init__(self, inner: Notifier) -> None:
        self.inner = inner
        self.publications = 0

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        assert table.lock.locked()  # published under the table's lock, after the commit
        coroutine = self.inner.publish(table, events)
        try:
            coroutine.send(None)
        except StopIteration:
            self.publications += 1
            return
        coroutine.close()
        raise AssertionError("a publication waited while the table's lock was held")


async def play_match_through(tmp_path: Path, platform: str) -> tuple[MustNotSuspend, int]:
    sender = HangingSender()
    async with Database.open(tmp_path / f"{platform}.sqlite", synchronous="NORMAL") as db:
        outbox = Outbox(sender)
        if platform == "telegram":
            contacts = Contacts(db, "telegram")
            await contacts.set_dm_ok(OWNER.user_id, True, OWNER.name, "en")
            inner: Notifier = TelegramNotifier(outbox, contacts, lambda: "sahra_bot")
        else:
            discord = DiscordNotifier(outbox)
            inner = discord
        notifier = MustNotSuspend(inner)
        manager = TableManager(db, notifier)
        await manager.start()
        table = await manager.create(Place(platform, "-100"), OWNER, {"variant": "tarneeb_solo"})
        if platform == "discord":
            discord.want_dm(table.id, OWNER.user_id)
        for _ in range(3):
            await manager.add_computer(table.id, OWNER.user_id)
        await manager.begin(table.id, OWNER.user_id)
        await manager.leave(table.id, OWNER.user_id)  # a computer plays the seat to the end
        await manager.settle()
        assert table.status == "finished"
        await manager.close()
        await outbox.close()
    return notifier, sender.calls


async def test_telegram_publications_never_wait_on_the_chat_api(tmp_path: Path) -> None:
    notifier, calls = await play_match_through(tmp_path, "telegram")
    assert notifier.publications > 50 and calls >= 1  # the writes were tried, elsewhere


async def test_discord_publications_never_wait_on_the_chat_api(tmp_path: Path) -> None:
    notifier, calls = await play_match_through(tmp_path, "discord")
    assert notifier.publications > 50 and calls >= 1
