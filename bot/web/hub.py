"""Every page socket of this process, by table, and what each is shown.

The hub is one of the router's listeners: after every committed change of a table it
builds each socket's state from that socket's own seat view (``view(None)`` for a
watcher) and hands it to the socket's writer, so moves made anywhere (a DM button, a
timer, a computer, another page) reach every page at once and no frame carries what its
seat may not see. A state is built once per (seat, language) per change, whatever the
number of sockets sharing it. When a finished table's rematch opens at the same place,
its sockets follow it, as the people in the chat do.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.present.summary import table_info
from bot.render.model import TableInfo
from bot.render.moves import page_moves
from bot.render.page import page_state, page_strings
from bot.tables import table_commands
from bot.tables.live import LiveTable
from bot.tables.pace import Pace
from bot.web.frames import out
from bot.web.socket import PageSocket, Visitor

log = logging.getLogger("sahra.web")

Event = dict[str, Any]
# Issues the session a page resumes with (the server's signer): (visitor, table) → token.
SessionMaker = Callable[[Visitor, int], str]


class PageHub:
    def __init__(
        self,
        sessions: SessionMaker,
        clock: Callable[[], float] = time.time,
        pace: Pace | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.pace = pace if pace is not None else Pace()
        self._sockets: dict[int, set[PageSocket]] = {}
        self._tables: dict[int, LiveTable] = {}
        self._pages: defaultdict[tuple[str, str], list[PageSocket]] = defaultdict(list)
        # Seats whose page came or went: the presenter is told (``on_pages``) so it knows
        # whose private hand the page stands for.
        self.on_pages: Callable[[LiveTable], None] | None = None
        # The seats of a table with a page open on other processes (several processes on
        # one database: ``remote.py`` keeps them); none when this process is alone.
        self.elsewhere: Callable[[int], frozenset[int]] = lambda table_id: frozenset()
        # The last page of a table went: whoever follows that table for us may stop.
        self.on_empty: Callable[[int], object] | None = None

    # ---------------------------------------------------------------- sockets

    def attach(self, socket: PageSocket, table: LiveTable) -> None:
        if socket.visitor is not None:
            self._pages[_person(socket)].append(socket)
        self._sockets.setdefault(table.id, set()).add(socket)
        self._tables[table.id] = table
        socket.table_id = table.id
        socket.written_seq = None  # its first state shows the table as it is
        self._pages_changed(table)

    def detach(self, socket: PageSocket) -> None:
        if socket.visitor is not None:
            pages = self._pages.get(_person(socket), [])
            if socket in pages:
                pages.remove(socket)
            if not pages:
                self._pages.pop(_person(socket), None)
        sockets = self._sockets.get(socket.table_id)
        if sockets is None:
            return
        sockets.discard(socket)
        table = self._tables.get(socket.table_id)
        if not sockets:
            del self._sockets[socket.table_id]
            self._tables.pop(socket.table_id, None)
            if self.on_empty is not None:
                self.on_empty(socket.table_id)
        if table is not None:
            self._pages_changed(table)

    def pages_of(self, visitor: Visitor) -> list[PageSocket]:
        """The sockets one person holds open here, oldest first."""
        return list(self._pages.get((visitor.platform, visitor.user_id), ()))

    def table_of(self, socket: PageSocket) -> LiveTable | None:
        return self._tables.get(socket.table_id)

    def seats_on_page(self, table_id: int) -> frozenset[int]:
        """The seats of ``table_id`` with a page open on this process now."""
        table = self._tables.get(table_id)
        if table is None:
            return frozenset()
        return frozenset(
            seat
            for socket in self._sockets.get(table_id, ())
            if (seat := seat_of(table, socket)) is not None and not socket.closed
        )

    def sockets(self) -> int:
        return sum(len(sockets) for sockets in self._sockets.values())

    def every_socket(self) -> list[PageSocket]:
        return [socket for sockets in self._sockets.values() for socket in sockets]

    # ---------------------------------------------------------------- frames

    def welcome(self, socket: PageSocket, table: LiveTable) -> None:
        visitor = socket.visitor
        assert visitor is not None
        socket.send(
            out(
                "welcome",
                session=self.sessions(visitor, table.id),
                table=table.id,
                seat=seat_of(table, socket),
                language=socket.language,
                strings=page_strings(socket.language),
                pace=self.pace.for_page(),
            )
        )
        self.push(table, only=socket)

    def push(
        self,
        table: LiveTable,
        only: PageSocket | None = None,
        seats: frozenset[int] | None = None,
    ) -> None:
        """Each socket of ``table`` (or ``only`` one, or those of ``seats``) gets the
        table's state as its seat sees it now."""
        sockets = [only] if only is not None else list(self._sockets.get(table.id, ()))
        # Each state is built once per (seat, language), each list of moves once per
        # (seq last written, language), whatever the number of sockets sharing them.
        built: dict[tuple[int | None, str], str] = {}
        moved: dict[tuple[int | None, str], str] = {}
        now = self.clock()
        for socket in sockets:
            if socket.closed or socket.visitor is None:
                continue
            seat = seat_of(table, socket)
            if seats is not None and seat not in seats:
                continue
            key = (seat, socket.language)
            text = built.get(key)
            if text is None:
                text = built[key] = _dumps(state_of(table, socket, seat, now))
            since = (socket.written_seq, socket.language)
            moves = moved.get(since)
            if moves is None:
                moves = moved[since] = _dumps(moves_since(table, *since))
            socket.send_state(f'{{"type":"state","state":{text},"moves":{moves}}}', table.seq)

    async def publish(self, table: LiveTable, events: list[Event]) -> None:
        """A committed change of ``table`` (called by the router after the platform's own
        notifier): every page of it is redrawn, and a rematch opened at the place of a
        table with pages takes them along."""
        if any(event["type"] == "table_created" for event in events):
            self._follow(table)
        if table.id in self._sockets:
            self._tables[table.id] = table  # the owner's own (after a takeover, say)
            # A change told only to some seats (TX.7's secret doubling answer) redraws
            # only their pages: a new state elsewhere would tell who answered, and when.
            self.push(table, seats=_addressees(events))
            if not table.live:
                self._pages_changed(table)

    def adopt(self, table: LiveTable) -> None:
        """This process now owns ``table``, whose pages here showed a copy read from the
        store: they show the table itself from now on."""
        if table.id in self._sockets:
            self._tables[table.id] = table
            self.push(table)
            self._pages_changed(table)

    def _follow(self, table: LiveTable) -> None:
        old = table.config.rematch_of
        if old is None or old not in self._sockets:
            return
        for socket in list(self._sockets[old]):
            self.detach(socket)
            self.attach(socket, table)
            self.welcome(socket, table)

    def pages_changed(self, table: LiveTable) -> None:
        """Tell ``on_pages`` that the seats of ``table`` on a page may have changed."""
        self._pages_changed(table)

    def _pages_changed(self, table: LiveTable) -> None:
        if self.on_pages is not None:
            try:
                self.on_pages(table)
            except Exception as error:  # a screen's bookkeeping must not fail a socket
                log.error(
                    "event=pages_hook_failed table=%d error=%s", table.id, type(error).__name__
                )


def _addressees(events: list[Event]) -> frozenset[int] | None:
    """The seats every one of ``events`` is addressed to, or None if any is public."""
    if not events or any("to" not in event for event in events):
        return None
    return frozenset(int(event["to"]) for event in events)


def _person(socket: PageSocket) -> tuple[str, str]:
    visitor = socket.visitor
    assert visitor is not None
    return visitor.platform, visitor.user_id


def seat_of(table: LiveTable, socket: PageSocket) -> int | None:
    """The seat a socket plays: its verified user's seat at a table of the same
    platform; anyone else watches."""
    visitor = socket.visitor
    if visitor is None or visitor.platform != table.place.platform:
        return None
    return table.seat_of(visitor.user_id)


def moves_since(table: LiveTable, seq: int | None, language: str) -> list[dict[str, Any]]:
    """The public moves made after ``seq``, for a page to show one by one; none when the
    page had no state of this table yet, or when the table no longer holds all of them
    (after a restart, or a page that missed more than a deal): it draws the table as is."""
    if seq is None or seq >= table.seq:
        return []
    recent = table.recent
    if not recent or (len(recent) == recent.maxlen and recent[0][0] > seq + 1):
        return []
    return page_moves(_info(table, language), [event for at, event in recent if at > seq])


def _info(table: LiveTable, language: str) -> TableInfo:
    info = table_info(table)
    if table.config.language != language:  # the page's own switch
        info = replace(info, config=table.config.model_copy(update={"language": language}))
    return info


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def state_of(table: LiveTable, socket: PageSocket, seat: int | None, now: float) -> dict[str, Any]:
    """One socket's state: its seat's own view, in the socket's language."""
    info = _info(table, socket.language)
    match = table.match
    view = match.view(seat) if match is not None else None
    visitor = socket.visitor
    user = visitor.user_id if visitor is not None and seat is not None else None
    if visitor is not None and seat is None and visitor.platform == table.place.platform:
        user = visitor.user_id  # not seated, but may join a lobby
    commands = [str(c) for c in table_commands.offered(table, user)]
    state = page_state(info, view, you=seat, now=now, commands=commands)
    if view is not None and view.get("doubling"):
        # TX.7: the version counts the window's secret answers; a page shows the one the
        # window opened at (and its own answer, once given), which every answer drawn in
        # the window still carries (``LiveTable.version_accepts``).
        state["version"] = table.window_seq + (view.get("my_answer") is not None)
    return state
