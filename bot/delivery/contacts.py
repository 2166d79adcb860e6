"""Who can be reached and in which language: each chat's language (``/lang``) and whether
a player has opened a private chat with the bot. Kept in memory, written through to
SQLite, loaded at start."""

from __future__ import annotations

import time
from collections.abc import Callable

from storage.database import Database

UPSERT_CHAT = (
    "INSERT INTO chats (platform, chat, language, updated_at) VALUES (?,?,?,?)"
    " ON CONFLICT (platform, chat) DO UPDATE SET language = excluded.language,"
    " updated_at = excluded.updated_at"
)
UPSERT_DM = (
    "INSERT INTO players (platform, user_id, name, language, dm_ok, updated_at)"
    " VALUES (?,?,?,?,?,?) ON CONFLICT (platform, user_id) DO UPDATE SET"
    " dm_ok = excluded.dm_ok, updated_at = excluded.updated_at"
)


class Contacts:
    def __init__(
        self, db: Database, platform: str, clock: Callable[[], float] = time.time
    ) -> None:
        self.db = db
        self.platform = platform
        self.clock = clock
        self.default_language = "ar"  # until a chat says otherwise (/lang); a setting
        self._languages: dict[str, str] = {}
        self._dm_ok: set[str] = set()

    async def load(self) -> None:
        rows = await self.db.fetchall(
            "SELECT chat, language FROM chats WHERE platform = ?", (self.platform,)
        )
        self._languages = {row["chat"]: row["language"] for row in rows}
        rows = await self.db.fetchall(
            "SELECT user_id FROM players WHERE platform = ? AND dm_ok = 1", (self.platform,)
        )
        self._dm_ok = {row["user_id"] for row in rows}

    def language(self, chat: str, default: str | None = None) -> str:
        return self._languages.get(chat, default or self.default_language)

    async def set_language(self, chat: str, language: str) -> None:
        await self.db.write((UPSERT_CHAT, (self.platform, chat, language, self.clock())))
        self._languages[chat] = language

    def dm_ok(self, user: str) -> bool:
        return user in self._dm_ok

    async def set_dm_ok(self, user: str, ok: bool, name: str = "", language: str = "ar") -> None:
        if ok == (user in self._dm_ok):
            return
        await self.db.write(
            (UPSERT_DM, (self.platform, user, name or user, language, int(ok), self.clock()))
        )
        if ok:
            self._dm_ok.add(user)
        else:
            self._dm_ok.discard(user)
