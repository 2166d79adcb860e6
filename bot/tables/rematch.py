"""Rematch in one tap: the final result carries a Rematch button; pressing it opens a new
table in the same place, same game and options, everyone where they sat (computers kept).

The presser is confirmed at once; every other human confirms with one tap (Ready). The
match starts as soon as every seated human has confirmed, or when the wait
(``TableConfig.rematch_seconds``, counted from the opening) runs out: computers then take
the seats of those who did not confirm, and the table says so. In a team game anyone
seated may swap partners while it waits (the three seats after the first rotate, so each
press pairs the first seat with another player). Confirmations live on the seats, so a
restart keeps them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from bot.render.i18n import computer_name
from bot.tables import checks, rows
from bot.tables.commands import PlayerRef
from bot.tables.commits import Committer
from bot.tables.config import TableConfig
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Place, Seat
from bot.tables.notifier import Event
from engine import VARIANTS
from storage.records import Change
from storage.store import Store


class TableManager(Protocol):
    """What a rematch uses of the manager (``manager.TableManager``), which calls in here:
    declared so that the two modules do not import each other."""

    store: Store
    committer: Committer
    clock: Callable[[], float]

    def table(self, table_id: int) -> LiveTable: ...
    def table_at(self, place: Place) -> LiveTable | None: ...
    async def create(
        self,
        place: Place,
        creator: PlayerRef,
        config: TableConfig | dict[str, Any],
        *,
        join: bool = True,
        decks: list[list[str]] | None = None,
        seed: int | None = None,
        seats: list[Seat | None] | None = None,
    ) -> LiveTable: ...
    async def start_match(
        self,
        table: LiveTable,
        changes: list[Change] | None = None,
        events: list[Event] | None = None,
    ) -> None: ...


OVER = ("finished", "stopped", "abandoned")


async def open_rematch(manager: TableManager, old_id: int, player: PlayerRef) -> LiveTable:
    stored = await manager.store.load_table(old_id)
    if stored is None:
        raise Refusal("unknown_table")
    row = stored.table
    if row.status not in OVER or not stored.actions:
        raise Refusal("rematch_not_over")
    if player.user_id not in {seat.owner for seat in stored.seats if seat.kind == "human"}:
        raise Refusal("rematch_not_player")
    place = Place(row.platform, row.chat, row.thread, row.guild)
    here = manager.table_at(place)
    if here is not None:
        if here.config.rematch_of == old_id and here.status == "lobby":
            await confirm(manager, here.id, player.user_id)  # the second tap: a confirmation
            return here
        raise Refusal("rematch_started" if here.config.rematch_of == old_id else "place_taken")
    config = TableConfig.model_validate_json(row.config).model_copy(update={"rematch_of": old_id})
    seats: list[Seat | None] = [None, None, None, None]
    for seat in stored.seats:
        if seat.kind == "computer":
            seats[seat.seat] = Seat("computer", None, seat.name, seat.language)
        else:
            mine = seat.owner == player.user_id
            name = player.name if mine else seat.name
            seats[seat.seat] = Seat("human", seat.owner, name, seat.language, ready=mine)
    table = await manager.create(place, player, config, seats=seats)
    async with table.lock:
        if table.status == "lobby" and _all_ready(table):
            await manager.start_match(table)  # nobody else to wait for
    return table


async def confirm(manager: TableManager, table_id: int, user: str) -> None:
    """One tap of Ready (a second is refused: already ready); the last one starts the
    match."""
    table = manager.table(table_id)
    async with table.lock:
        _require_rematch_lobby(table)
        seat = table.seat_of(user)
        if seat is None:
            raise Refusal("not_seated")
        occupant = table.seats[seat]
        assert occupant is not None
        if occupant.ready:
            raise Refusal("already_ready")
        occupant.ready = True
        changes: list[Change] = list(rows.seat_changes(table, [seat]))
        events = [{"type": "rematch_ready", "seat": seat}]
        if _all_ready(table):
            filled = _fill(table)
            changes += rows.seat_changes(table, filled)
            if filled:
                events.append({"type": "rematch_filled", "seats": filled})
            await manager.start_match(table, changes, events)
        else:
            table.last_human_at = manager.clock()
            await manager.committer.commit(table, changes, events)


async def swap(
    manager: TableManager, table_id: int, user: str, version: int | None = None
) -> None:
    """New partners: the seats after the first rotate (T41.1: partners sit opposite). A
    second tap drawn before the first swap is stale: it would swap them back."""
    table = manager.table(table_id)
    async with table.lock:
        _require_rematch_lobby(table)
        checks.require_first_tap(table, user, "swap", version)
        if table.seat_of(user) is None:
            raise Refusal("not_seated")
        if not VARIANTS[table.variant].teams:
            raise Refusal("no_partners")
        first, *others = table.seats
        table.seats = [first, others[1], others[2], others[0]]
        table.last_human_at = manager.clock()
        at = table.lobby_version
        await manager.committer.commit(
            table, list(rows.seat_changes(table, [1, 2, 3])), [{"type": "partners_swapped"}]
        )
        table.tapped(user, "swap", at)


async def fill_and_start(manager: TableManager, table: LiveTable) -> None:
    """The wait is over (the caller holds the lock): computers for the unconfirmed, play."""
    if table.status != "lobby":
        return
    filled = _fill(table)
    events = [{"type": "rematch_filled", "seats": filled}] if filled else []
    await manager.start_match(table, list(rows.seat_changes(table, filled)), events)


def _fill(table: LiveTable) -> list[int]:
    """Computers take the empty seats and those of humans who did not confirm."""
    language = table.config.language
    filled = []
    for index, seat in enumerate(table.seats):
        if seat is None or (seat.kind == "human" and not seat.ready):
            table.seats[index] = Seat("computer", None, computer_name(language, index), language)
            filled.append(index)
    return filled


def _all_ready(table: LiveTable) -> bool:
    return all(seat.ready for seat in table.seats if seat is not None and seat.kind == "human")


def _require_rematch_lobby(table: LiveTable) -> None:
    checks.require_lobby(table)
    if table.config.rematch_of is None:
        raise Refusal("not_running")  # a plain lobby has nothing to confirm
