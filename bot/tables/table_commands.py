"""The table commands every frontend calls, decided once: a person asked for ``command`` at
a table; who may (the stop policy), and which manager call it is. An adapter parses its
platform's input into this call and maps what comes back (or the ``Refusal``) to its
widgets; it holds no rule of its own, so a refusal reads the same on every platform."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Protocol, get_args

from bot.tables.commands import PlayerRef
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Place
from bot.tables.manager import TableManager
from engine import VARIANTS

TableCommand = Literal[
    "join", "leave", "add_computer", "begin", "reclaim", "stop", "ready", "swap"
]
TABLE_COMMANDS: tuple[str, ...] = get_args(TableCommand)


class Standing(Protocol):
    """What only the platform can tell about people in the chat. An answer it cannot
    give is False: it grants nothing."""

    async def is_admin(self, user: str) -> bool:
        """An administrator (or owner) of the chat."""
        ...

    async def has_left(self, user: str) -> bool:
        """No longer in the chat (left, removed, banned)."""
        ...


class NobodyElse:
    """A place with no administrators and nobody leaving (the terminal): only the rules
    that need no platform apply."""

    async def is_admin(self, user: str) -> bool:
        return False

    async def has_left(self, user: str) -> bool:
        return False


async def may_stop(table: LiveTable, user: str, standing: Standing) -> bool:
    """Besides the creator, a table may be stopped by an administrator of the chat, or by
    anyone seated at it once its creator has left the chat (else a table whose creator
    went away could only run out its timers). The platform is asked only what the
    answer needs."""
    if user == table.creator or await standing.is_admin(user):
        return True
    return table.seat_of(user) is not None and await standing.has_left(table.creator)


async def may_set_language(table: LiveTable | None, user: str, standing: Standing) -> bool:
    """The chat's language (``/lang``) is the chat's: anyone may set it, except while a
    table is live there, when it belongs to the people playing (and the administrators),
    so a passer-by cannot switch the replies under the players' feet."""
    if table is None or not table.live or table.seat_of(user) is not None:
        return True
    return user == table.creator or await standing.is_admin(user)


async def check_language_change(table: LiveTable | None, user: str, standing: Standing) -> None:
    """Refused (``language_not_allowed``) unless ``may_set_language``."""
    if not await may_set_language(table, user, standing):
        raise Refusal("language_not_allowed")


async def run(
    manager: TableManager,
    table_id: int,
    command: TableCommand,
    player: PlayerRef,
    standing: Standing,
    version: int | None = None,
) -> None:
    """Carry out ``command`` for ``player`` at the table; a ``Refusal`` says why not.
    ``version``: the table's version the command was offered at (a button's, a page's):
    a command this person already had carried out since is refused as stale, so a second
    tap never repeats it (``checks.require_first_tap``); None for a command typed by
    name. The commands a repeat could not change say so by their own refusal."""
    user = player.user_id
    if command == "join":
        await manager.join(table_id, player, version=version)
    elif command == "leave":
        await manager.leave(table_id, user, version=version)
    elif command == "add_computer":
        await manager.add_computer(table_id, user, version=version)
    elif command == "begin":
        await manager.begin(table_id, user)  # twice: the second finds no lobby
    elif command == "reclaim":
        await manager.reclaim(table_id, user)  # twice: the seat is not away
    elif command == "ready":
        await manager.ready(table_id, user)  # twice: already ready
    elif command == "swap":
        await manager.swap_partners(table_id, user, version=version)
    else:
        if not await may_stop(manager.table(table_id), user, standing):
            raise Refusal("stop_not_allowed")
        await manager.stop(table_id, user, is_admin=True)


async def new_table(
    manager: TableManager,
    place: Place,
    creator: PlayerRef,
    variant: str,
    language: str,
    options: Mapping[str, Any],
    defaults: Mapping[str, Any],
) -> LiveTable:
    """A lobby of ``variant`` at ``place``, its creator seated: the operator's defaults
    (timers, difficulty), then what the creator chose. ``TableConfig`` validates them all
    once: a bad option, or a target where the rules offer none (TS.1), is the
    ``bad_option`` refusal on every platform."""
    config = {**defaults, "variant": variant, "language": language, **options}
    return await manager.create(place, creator, config)


def offered(table: LiveTable, user: str | None) -> list[TableCommand | Literal["rematch"]]:
    """The table commands a person may ask for now, for frontends that draw them per
    person (the web page): the manager still decides each one when it is asked."""
    seat = table.seat_of(user) if user is not None else None
    if table.status == "lobby":
        if seat is None:
            return ["join"] if user is not None and table.free_seats() else []
        occupant = table.seats[seat]
        if table.config.rematch_of is not None:
            commands: list[TableCommand | Literal["rematch"]] = []
            if occupant is not None and not occupant.ready:
                commands.append("ready")
            if VARIANTS[table.variant].teams:
                commands.append("swap")
            return commands
        if table.free_seats():
            return ["add_computer", "leave"]
        return ["begin", "leave"]
    if table.status == "running":
        occupant = table.seats[seat] if seat is not None else None
        return ["reclaim"] if occupant is not None and occupant.away else []
    if table.status == "finished" and seat is not None:
        return ["rematch"]
    return []
