"""Who can be reached and in which language: each chat's language (``/lang``) and whether
a player has opened a private chat with the bot.

Read through a bounded cache: the frontends ``prefetch`` the chat and user of each update
before handling it (one indexed read for what is not cached yet), and the players seated
at live tables are loaded at start, so rendering never waits on the database and a bot
that has met a million users keeps only the ones in play in memory.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from cachetools import TTLCache

from storage.backend import Backend
from storage.records import ChatLanguageSet, DmReachability
from storage.store import Store

CAPACITY = 10_000  # entries per cache: far more than the players of the live tables
TTL = 3600.0  # seconds an entry is kept unused

V = TypeVar("V")


def _used(cache: TTLCache[str, V], key: str) -> V | None:
    """The entry, kept another ``ttl`` seconds: a chat or a player in play stays cached
    however long ago it was read from the store (TTLCache counts from the last write), and
    one not seen for that long is read again when they come back, so memory follows who
    is playing now."""
    value = cache.get(key)
    if value is not None:
        cache[key] = value
    return value


class Contacts:
    def __init__(
        self,
        db: Store | Backend,
        platform: str,
        clock: Callable[[], float] = time.time,
        capacity: int = CAPACITY,
        ttl: float = TTL,
    ) -> None:
        self.store = db if isinstance(db, Store) else Store(db)
        self.platform = platform
        self.clock = clock
        self.default_language = "ar"  # until a chat says otherwise (/lang); a setting
        # Least recently used entries, at most ``capacity``, none unused for ``ttl``. A chat
        # without a stored language is cached as "" so it is not read again.
        self._languages: TTLCache[str, str] = TTLCache(capacity, ttl, timer=clock)
        self._dm_ok: TTLCache[str, bool] = TTLCache(capacity, ttl, timer=clock)

    async def load(self) -> None:
        """What the live tables need at once after a restart: their players' DMs."""
        for contact in await self.store.seated_contacts(self.platform):
            self._dm_ok[contact.user_id] = contact.dm_ok

    async def prefetch(self, chat: str | None, users: Iterable[str] = ()) -> None:
        """Read what the next update needs and the cache does not hold yet."""
        if chat is not None and chat not in self._languages:
            stored = await self.store.chat_language(self.platform, chat)
            self._languages[chat] = stored or ""
        missing = [user for user in users if user not in self._dm_ok]
        if missing:
            known = {c.user_id: c.dm_ok for c in await self.store.contacts(self.platform, missing)}
            for user in missing:
                self._dm_ok[user] = known.get(user, False)

    def language(self, chat: str, default: str | None = None) -> str:
        return _used(self._languages, chat) or default or self.default_language

    async def set_language(self, chat: str, language: str) -> None:
        await self.store.commit([ChatLanguageSet(self.platform, chat, language, self.clock())])
        self._languages[chat] = language

    def dm_ok(self, user: str) -> bool:
        return _used(self._dm_ok, user) is True

    async def set_dm_ok(self, user: str, ok: bool, name: str = "", language: str = "ar") -> None:
        if user in self._dm_ok and ok == self.dm_ok(user):
            return
        change = DmReachability(self.platform, user, name or user, language, ok, self.clock())
        await self.store.commit([change])
        self._dm_ok[user] = ok

    def sizes(self) -> dict[str, int]:
        """Cached entries (the soak benchmark checks they stay bounded)."""
        return {"languages": len(self._languages), "dm": len(self._dm_ok)}
