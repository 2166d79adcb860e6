"""A page's frames carried out through the core, as every frontend's are.

A move is the same ``Press`` (table, version, action, player) through
``TableManager.press``: the same lock, seat, turn and version checks, the same commit
before anything is shown. A table command goes through ``table_commands``. A refusal
comes back to that page alone, in its language, with a fresh state; nothing changes.
The page's seat is never read from the frame: it is the verified visitor's seat.
"""

from __future__ import annotations

import logging

from bot.render import refusal_notice
from bot.tables import table_commands
from bot.tables.commands import PlayerRef, Press
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable
from bot.tables.manager import TableManager
from bot.tables.table_commands import TableCommand
from bot.web.frames import Command, Incoming, Language, Move, Ping, action_dict, out
from bot.web.hub import PageHub
from bot.web.socket import PageSocket

log = logging.getLogger("sahra.web")


def player_of(socket: PageSocket) -> PlayerRef:
    visitor = socket.visitor
    assert visitor is not None
    spoken = visitor.language or socket.language
    return PlayerRef(
        user_id=visitor.user_id,
        name=visitor.name[:64] or "?",
        language="en" if spoken == "en" else "ar",
    )


async def act(
    manager: TableManager, hub: PageHub, socket: PageSocket, table: LiveTable, frame: Incoming
) -> None:
    if isinstance(frame, Ping):
        socket.send(out("pong"))
        return
    if isinstance(frame, Language):
        socket.language = frame.language
        hub.welcome(socket, table)  # the page's texts and state in that language
        return
    try:
        if isinstance(frame, Move):
            press = Press(
                table_id=table.id,
                version=frame.version,
                action=action_dict(frame.action),
                player=player_of(socket),
            )
            await manager.press(press)
        elif isinstance(frame, Command):
            await _command(manager, table, frame, socket)
    except Refusal as refusal:
        log.info("event=page_move_refused table=%d code=%s", table.id, refusal.code)
        notice = refusal_notice(socket.language, refusal.code, refusal.detail)
        socket.send(out("refused", code=refusal.code, message=notice.text))
        hub.push(hub.table_of(socket) or table, only=socket)


async def _command(
    manager: TableManager, table: LiveTable, frame: Command, socket: PageSocket
) -> None:
    player = player_of(socket)
    if frame.command == "rematch":
        await manager.rematch(table.id, player)  # the hub moves this page to it
        return
    # The page offers no command that needs a chat's administrators (stop is the chat's).
    command: TableCommand = frame.command
    await table_commands.run(manager, table.id, command, player, table_commands.NobodyElse())
