"""Who can be reached and in which language: each chat's language (``/lang``) and whether
a player has opened a private chat with the bot.

Read through a bounded cache: the frontends ``prefetch`` the chat and user of each update
before handling it (one indexed read for what is not cached yet), and the players seated
at live tables are loaded at start, so rendering never waits on the database and a bot
that has met a million users keeps only the ones in play in memory.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from storage.backend import Backend
from storage.records import ChatLanguageSet, DmReachability
from storage.store import Store

CAPACITY = 10_000  # entries per cache: far more than the players of the live tables
TTL = 3600.0  # seconds an entry is kept unused

V = TypeVar("V")


class _Cache(Generic[V]):
    """Least recently used entries: at most ``capacity`` of them, none unused for longer
    than ``ttl`` seconds (a chat or a player not seen for that long is read again when
    they come back, so memory follows who is playing now)."""

    def __init__(self, capacity: int, ttl: float, clock: Callable[[], float]) -> None:
        self.capacity = capacity
        self.ttl = ttl
        self.clock = clock
        self._items: OrderedDict[str, tuple[V, float]] = OrderedDict()

    def get(self, key: str) -> V | None:
        self._expire()
        item = self._items.get(key)
        if item is None:
            return None
        self._items[key] = (item[0], self.clock())
        self._items.move_to_end(key)
        return item[0]

    def __contains__(self, key: str) -> bool:
        self._expire()
        return key in self._items

    def put(self, key: str, value: V) -> None:
        self._items[key] = (value, self.clock())
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)
        self._expire()

    def _expire(self) -> None:
        # In least-recently-used order: the stale ones are at the front.
        oldest = self.clock() - self.ttl
        while self._items:
            key, (_, used) = next(iter(self._items.items()))
            if used >= oldest:
                return
            del self._items[key]

    def __len__(self) -> int:
        self._expire()
        return len(self._items)


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
        # A chat without a stored language is cached as "" so it is not read again.
        self._languages: _Cache[str] = _Cache(capacity, ttl, clock)
        self._dm_ok: _Cache[bool] = _Cache(capacity, ttl, clock)

    async def load(self) -> None:
        """What the live tables need at once after a restart: their players' DMs."""
        for contact in await self.store.seated_contacts(self.platform):
            self._dm_ok.put(contact.user_id, contact.dm_ok)

    async def prefetch(self, chat: str | None, users: Iterable[str] = ()) -> None:
        """Read what the next update needs and the cache does not hold yet."""
        if chat is not None and chat not in self._languages:
            stored = await self.store.chat_language(self.platform, chat)
            self._languages.put(chat, stored or "")
        missing = [user for user in users if user not in self._dm_ok]
        if missing:
            known = {c.user_id: c.dm_ok for c in await self.store.contacts(self.platform, missing)}
            for user in missing:
                self._dm_ok.put(user, known.get(user, False))

    def language(self, chat: str, default: str | None = None) -> str:
        return self._languages.get(chat) or default or self.default_language

    async def set_language(self, chat: str, language: str) -> None:
        await self.store.commit([ChatLanguageSet(self.platform, chat, language, self.clock())])
        self._languages.put(chat, language)

    def dm_ok(self, user: str) -> bool:
        return bool(self._dm_ok.get(user))

    async def set_dm_ok(self, user: str, ok: bool, name: str = "", language: str = "ar") -> None:
        if user in self._dm_ok and ok == self.dm_ok(user):
            return
        change = DmReachability(self.platform, user, name or user, language, ok, self.clock())
        await self.store.commit([change])
        self._dm_ok.put(user, ok)

    def sizes(self) -> dict[str, int]:
        """Cached entries (the soak benchmark checks they stay bounded)."""
        return {"languages": len(self._languages), "dm": len(self._dm_ok)}
