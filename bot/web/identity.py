"""Who a page is: a hello's credential checked, or refused with a reason the page shows.

Three credentials, one outcome (a ``Visitor``: platform, user, the table it was issued
for): Telegram's signed launch data (the Mini App), a personal link (Discord, the
terminal), or a session the server issued earlier (a reload, a reconnect, a restart: the
signing secret is kept in the database, so sessions outlive the process).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.render.i18n import language_of
from bot.tables.live import LiveTable
from bot.web.auth import (
    INIT_DATA_MAX_AGE,
    SESSION_SECONDS,
    LaunchRefused,
    LinkLedger,
    Signer,
    TokenRefused,
    validate_init_data,
)
from bot.web.frames import Hello
from bot.web.socket import Visitor


class Denied(Exception):
    """A hello refused: ``code`` is the protocol's fatal code; ``reason`` is for the log."""

    def __init__(self, code: str, reason: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.reason = reason or code


class Gate:
    def __init__(
        self,
        signer: Signer,
        *,
        telegram_token: str | None = None,
        clock: Callable[[], float] = time.time,
        max_age: float = INIT_DATA_MAX_AGE,
    ) -> None:
        self.signer = signer
        self.telegram_token = telegram_token
        self.clock = clock
        self.max_age = max_age
        self.ledger = LinkLedger()

    async def admit(self, hello: Hello) -> Visitor:
        now = self.clock()
        if hello.init_data is not None:
            return self._telegram(hello.init_data, now, hello.table)
        kind = "link" if hello.link is not None else "session"
        token = hello.link if hello.link is not None else hello.session
        assert token is not None
        try:
            claims = self.signer.verify(token, kind, now=now)
        except TokenRefused as refused:
            raise Denied(refused.code, refused.reason) from None
        if kind == "link" and not self.ledger.spend(claims, now=now):
            raise Denied("bad_link", "used")  # a link is exchanged once, for a session
        return Visitor(
            claims.platform,
            claims.user_id,
            claims.name,
            language_of(claims.language),
            claims.table,
        )

    def _telegram(self, raw: str, now: float, asked: int | None) -> Visitor:
        if self.telegram_token is None:
            raise Denied("bad_launch", "no_telegram")
        try:
            launch = validate_init_data(raw, self.telegram_token, now=now, max_age=self.max_age)
        except LaunchRefused as refused:
            raise Denied("bad_launch", refused.code) from None
        table = table_param(launch.start_param) if launch.start_param else asked
        if table is None:
            raise Denied("unknown_table", "start_param")
        return Visitor("telegram", str(launch.user_id), launch.name, launch.language or "", table)

    async def may_watch(self, table: LiveTable, visitor: Visitor) -> bool:
        """Whether ``visitor``, not seated at ``table``, may watch it (or join its lobby)."""
        return True

    def session(self, visitor: Visitor, table: int) -> str:
        return self.signer.issue(
            "session",
            platform=visitor.platform,
            user_id=visitor.user_id,
            table=table,
            name=visitor.name,
            language=visitor.language,
            expires=self.clock() + SESSION_SECONDS,
        )


def table_param(start_param: str) -> int | None:
    """``t123`` (the Mini App link's ``startapp``: routing data, never an authority)."""
    if len(start_param) > 12 or not start_param.startswith("t") or not start_param[1:].isdigit():
        return None
    table = int(start_param[1:])
    return table if table > 0 else None
