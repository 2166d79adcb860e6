"""The checks every command runs on a table before it changes anything: each refuses
with a ``Refusal`` (changing nothing) or lets the command go on."""

from __future__ import annotations

from bot.tables.errors import Refusal
from bot.tables.live import LiveTable


def require_fresh(table: LiveTable) -> None:
    if table.needs_reload:  # memory may be ahead of the log: nothing until reloaded
        raise Refusal("storage")


def require_lobby(table: LiveTable) -> None:
    require_fresh(table)
    if table.status != "lobby":
        raise Refusal("not_in_lobby" if table.status == "running" else "not_running")


def require_first_tap(table: LiveTable, user: str, command: str, version: int | None) -> None:
    """A lobby command tapped on a screen drawn at ``version`` is a repeat, refused as
    stale, when this person's same command was carried out since that screen was drawn
    (a double tap, a button pressed again before its message was redrawn). Other people's
    changes since do not make it stale: in a busy lobby the group's message lags by
    seconds, and a join or a new computer of someone else is no reason to refuse. None: a
    command typed by name, which means what it says whatever changed."""
    if version is not None and table.lobby_taps.get((user, command), -1) >= version:
        raise Refusal("stale")


def require_running(table: LiveTable) -> None:
    require_fresh(table)
    if table.status != "running":
        raise Refusal("not_running")


def require_member(table: LiveTable, user: str) -> None:
    if table.seat_of(user) is None and user != table.creator:
        raise Refusal("not_seated")


def pick_seat(table: LiveTable, seat: int | None) -> int:
    """The seat a joiner asked for (or the first free one), if it is free."""
    free = table.free_seats()
    if not free:
        raise Refusal("table_full")
    if seat is None:
        return free[0]
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise Refusal("bad_option", "seats are 0 to 3")
    if seat not in free:
        raise Refusal("seat_taken")
    return seat
