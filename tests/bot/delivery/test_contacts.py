"""Contacts: a bounded cache over the store, read ahead of each update."""

from __future__ import annotations

from pathlib import Path

from bot.delivery.contacts import Contacts
from storage.database import Database
from tests.bot.virtual_time import VirtualTime


async def test_languages_and_open_dms_are_read_back_from_the_store(tmp_path: Path) -> None:
    async with Database.open(tmp_path / "c.sqlite", synchronous="NORMAL") as db:
        first = Contacts(db, "telegram")
        await first.set_language("-1", "en")
        await first.set_dm_ok("7", True, "Ali", "en")
        fresh = Contacts(db, "telegram")  # a restarted process: nothing cached
        assert fresh.language("-1") == "ar" and not fresh.dm_ok("7")
        await fresh.prefetch("-1", ["7", "8"])
        assert fresh.language("-1") == "en" and fresh.dm_ok("7") and not fresh.dm_ok("8")
        assert Contacts(db, "discord").language("-1") == "ar"  # per platform


async def test_the_cache_is_bounded_and_forgets_who_has_not_been_seen(tmp_path: Path) -> None:
    clock = VirtualTime(1000.0)
    async with Database.open(tmp_path / "c.sqlite", synchronous="NORMAL") as db:
        contacts = Contacts(db, "telegram", clock=clock, capacity=3, ttl=60.0)
        for user in "abcde":
            await contacts.set_dm_ok(user, True)
        assert contacts.sizes()["dm"] == 3  # the least recently used went first
        assert not contacts.dm_ok("a") and contacts.dm_ok("e")
        clock.now += 30
        assert contacts.dm_ok("d")  # used: kept another minute
        clock.now += 45
        assert contacts.sizes() == {"languages": 0, "dm": 1}
        await contacts.prefetch(None, ["a"])  # read again from the store when back
        assert contacts.dm_ok("a")
