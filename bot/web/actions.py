"""A page's frames carried out through the core, as every frontend's are.

A move is the same ``Press`` (table, version, action, player) through
``TableManager.press``: the same lock, seat, turn and version checks, the same commit
before anything is shown. A table command goes through ``table_commands``. A refusal
comes back to that page alone, in its language, with a fresh state; nothing changes.
The page's seat is never read from the frame: it is the verified visitor's seat.

A table another process owns (several processes on one database) gets the same request
through that process (``bot/web/remote.py``): it is carried out there by ``perform``.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from bot.render import refusal_notice
from bot.tables import table_commands
from bot.tables.commands import PlayerRef, Press
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable
from bot.tables.manager import TableManager
from bot.web.frames import (
    Command,
    Incoming,
    Language,
    Move,
    PageCommand,
    Ping,
    Replay,
    action_dict,
    out,
)
from bot.web.hub import PageHub
from bot.web.replays import Replays
from bot.web.socket import PageSocket

log = logging.getLogger("sahra.web")

# A page waits for the table's answer before its next tap; a few requests in flight cover
# a resend after "moving", and more is a page that does not wait.
ERRANDS_PER_PAGE = 4


class Request(BaseModel):
    """A page's move or table command, with the verified player who made it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    table: int = Field(ge=1)
    player: PlayerRef
    version: int | None = Field(default=None, ge=0)
    action: dict[str, Any] | None = None
    command: PageCommand | None = None


class Elsewhere(Protocol):
    """Where a request for a table this process does not own is carried out."""

    def owns(self, table_id: int) -> bool: ...

    async def carry(self, table: LiveTable, request: Request) -> int | None: ...

    async def follow(self, socket: PageSocket, table_id: int) -> None: ...


def player_of(socket: PageSocket) -> PlayerRef:
    visitor = socket.visitor
    assert visitor is not None
    spoken = visitor.language or socket.language
    return PlayerRef(
        user_id=visitor.user_id,
        name=visitor.name[:64] or "?",
        language="en" if spoken == "en" else "ar",
    )


async def perform(manager: TableManager, request: Request) -> int | None:
    """Carry ``request`` out on a table this process owns; the rematch's table id when
    it opened (or confirmed) one. Raises ``Refusal``, changing nothing."""
    if request.command is None:
        assert request.version is not None and request.action is not None
        press = Press(
            table_id=request.table,
            version=request.version,
            action=request.action,
            player=request.player,
        )
        await manager.press(press)
        return None
    if request.command == "rematch":
        return (await manager.rematch(request.table, request.player)).id
    # The page offers no command that needs a chat's administrators (stop is the chat's).
    await table_commands.run(
        manager,
        request.table,
        request.command,
        request.player,
        table_commands.NobodyElse(),
        request.version,
    )
    return None


async def act(
    manager: TableManager,
    hub: PageHub,
    socket: PageSocket,
    table: LiveTable,
    frame: Incoming,
    elsewhere: Elsewhere | None = None,
    replays: Replays | None = None,
) -> None:
    if isinstance(frame, Ping):
        socket.send(out("pong"))
        return
    if isinstance(frame, Replay):
        if replays is None:  # no replays served here: said, and nothing else
            _refused(hub, socket, table, Refusal("review_not_over"))
        else:
            replays.ask(socket, table, frame.deal)
        return
    if isinstance(frame, Language):
        socket.language = frame.language
        hub.welcome(socket, table)  # the page's texts and state in that language
        return
    if isinstance(frame, Move):
        request = Request(
            table=table.id,
            player=player_of(socket),
            version=frame.version,
            action=action_dict(frame.action),
        )
    elif isinstance(frame, Command):
        request = Request(
            table=table.id,
            player=player_of(socket),
            command=frame.command,
            version=frame.version,
        )
    else:
        return
    if elsewhere is not None and not elsewhere.owns(table.id):
        if len(socket.errands) >= ERRANDS_PER_PAGE:
            _refused(hub, socket, table, Refusal("moving"))
        else:
            socket.spawn(_carried(hub, socket, table, request, elsewhere))
        return
    try:
        await perform(manager, request)  # a rematch: the hub moves this page to it
    except Refusal as refusal:
        _refused(hub, socket, table, refusal)


async def _carried(
    hub: PageHub, socket: PageSocket, table: LiveTable, request: Request, elsewhere: Elsewhere
) -> None:
    """A request carried out by the table's owner, awaited beside the socket's reader."""
    try:
        opened = await elsewhere.carry(table, request)
        if opened is not None and opened != table.id:
            await elsewhere.follow(socket, opened)
    except Refusal as refusal:
        _refused(hub, socket, table, refusal)


def _refused(hub: PageHub, socket: PageSocket, table: LiveTable, refusal: Refusal) -> None:
    """Said to that page alone, in its language, with a fresh state: nothing changed."""
    log.info("event=page_move_refused table=%d code=%s", table.id, refusal.code)
    notice = refusal_notice(socket.language, refusal.code, refusal.detail)
    socket.send(out("refused", code=refusal.code, message=notice.text))
    hub.push(hub.table_of(socket) or table, only=socket)
