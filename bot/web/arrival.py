"""A page opened inside Discord (the Activity): which table it is for, or the offer to start
one where the Activity was launched.

Discord, not the page, says where the Activity runs (``activity.py`` proves the instance's
channel). The table is the live one of that channel; a page that names a table of another
channel (an old address, a forged one) is refused. In a channel with no table the page is
offered the variants, and its ``start`` frame opens a lobby there with the person seated,
as ``/sahra new`` would: the table's message appears in the channel as usual.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.render import refusal_notice
from bot.render.codes import NEW_VARIANTS
from bot.render.i18n import variant_name
from bot.render.page import page_strings
from bot.tables import table_commands
from bot.tables.commands import PlayerRef
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Place
from bot.tables.manager import TableManager
from bot.web.activity import ActivityLaunch
from bot.web.frames import Hello, Ping, Start, out
from bot.web.hub import PageHub
from bot.web.identity import Denied, Gate
from bot.web.socket import PageSocket, Visitor
from bot.web.texts import denial

log = logging.getLogger("sahra.web")

LANGUAGES = ("ar", "en")
TableLookup = Callable[[int], Awaitable[LiveTable]]


class Arrivals:
    def __init__(
        self, manager: TableManager, hub: PageHub, gate: Gate, table: TableLookup
    ) -> None:
        self.manager = manager
        self.hub = hub
        self.gate = gate
        self.table = table  # a table by id, wherever it is (``Denied`` if none)
        self.defaults: dict[str, Any] = {}  # the operator's timers and difficulty
        self.default_language = "ar"  # the operator's (``SAHRA_DEFAULT_LANGUAGE``)

    async def hello(
        self, socket: PageSocket, hello: Hello, several: bool
    ) -> tuple[Visitor | None, str]:
        """An Activity's hello: the visitor Discord proved, with the table of its channel
        (None: there is none, and the page was offered to start one), and the user's
        access token for the page's SDK. ``several``: other processes share the tables."""
        assert hello.discord is not None
        launch = await self.gate.launch(hello.discord)
        if socket.visitor is not None and launch.user_id != socket.visitor.user_id:
            raise Denied("bad_session", "other_user")
        if hello.table is not None and (await self.table(hello.table)).place != launch.place:
            raise Denied("other_channel")  # a table named by the page, of another channel
        table_id = await table_in_channel(self.manager, launch.place)
        if table_id is None and hello.table is not None:
            table_id = hello.table  # ended, in this channel: its result, its rematch
        chosen = await self.manager.store.chat_language("discord", launch.place.chat)
        visitor = visitor_of(
            launch, table_id or 0, launch_language(chosen, launch.locale, self.default_language)
        )
        if table_id is not None:
            return visitor, launch.access_token
        if several:
            # The process that owns the channel's Discord shard opens its tables (``/sahra
            # new`` there); this one could not post the table's message.
            raise Denied("no_table_here", "start_elsewhere")
        self.hub.detach(socket)
        socket.send(out("authenticate", access_token=launch.access_token))
        offer_start(socket, visitor, launch.place)
        return None, launch.access_token

    async def frame(self, socket: PageSocket, frame: object) -> int | None:
        """A frame of a page offered to start a table: the table its ``start`` opened, or
        None when it was answered here (a ping, a refusal, anything else: nothing
        changes)."""
        if isinstance(frame, Ping):
            socket.send(out("pong"))
            return None
        if not isinstance(frame, Start):
            said = denial(socket.language, "bad_frame")
            socket.send(out("error", code="bad_frame", message=said, fatal=False))
            return None
        try:
            return await self.start(socket, frame)
        except Refusal as refusal:
            said = refusal_notice(socket.language, refusal.code, refusal.detail).text
            socket.send(out("refused", code=refusal.code, message=said))
            return None

    async def start(self, socket: PageSocket, frame: Start) -> int:
        """The table the page's ``start`` opened (or the one another person opened there
        first); ``Refusal`` for a variant not offered."""
        visitor, place = socket.visitor, socket.start_place
        assert visitor is not None and place is not None
        if frame.variant not in NEW_VARIANTS:
            raise Refusal("bad_option")
        player = PlayerRef.model_validate(
            {"user_id": visitor.user_id, "name": visitor.name, "language": frame.language}
        )
        try:
            table = await table_commands.new_table(
                self.manager, place, player, frame.variant, frame.language, {}, self.defaults
            )
            table_id = table.id
        except Refusal:
            found = await table_in_channel(self.manager, place)
            if found is None:
                raise
            table_id = found  # someone started one here meanwhile: this page joins it
        socket.start_place = None
        socket.visitor = replace(visitor, table=table_id, language=frame.language)
        log.info("event=page_started_table table=%d platform=discord", table_id)
        return table_id


def launch_language(chosen: str | None, locale: str, default: str) -> str:
    """A new table's language, as ``/sahra new`` decides it: the channel's, when it chose
    one (``/sahra lang``); else Arabic for an Arabic Discord client (Discord lists no such
    locale yet); else the operator's default. English is not taken from a locale: an Arabic
    reader's client is often set to English. The page offers both before starting."""
    if chosen is not None and chosen in LANGUAGES:
        return chosen
    return "ar" if locale.lower().startswith("ar") else default


async def table_in_channel(manager: TableManager, place: Place) -> int | None:
    """The live table of ``place`` (this process's, else the database's: another process
    may own it)."""
    here = manager.table_at(place)
    if here is not None and here.live:
        return here.id
    return await manager.store.live_table_at(place.platform, place.chat, place.thread)


def visitor_of(launch: ActivityLaunch, table: int, language: str) -> Visitor:
    return Visitor("discord", launch.user_id, launch.name, language, table)


def offer_start(socket: PageSocket, visitor: Visitor, place: Place) -> None:
    """No table in the Activity's channel: the page shows the variants to start one."""
    socket.visitor = visitor
    socket.language = visitor.language
    socket.start_place = place
    variants = [
        {"value": variant, "name": variant_name(visitor.language, variant)}
        for variant in NEW_VARIANTS
    ]
    socket.send(
        out(
            "start",
            language=visitor.language,
            strings=page_strings(visitor.language),
            variants=variants,
        )
    )
    log.info("event=page_offered_start platform=discord")
