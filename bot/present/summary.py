"""The small table summary every screen is drawn from, read off a live table (under its
lock, by the caller): the renderer below takes it as plain data."""

from __future__ import annotations

from bot.render.model import SeatInfo, TableInfo
from bot.tables.live import LiveTable


def table_info(table: LiveTable, dm_pending: frozenset[int] = frozenset()) -> TableInfo:
    """The facts of a live table, read once (under its lock, by the caller)."""
    seats = tuple(
        None
        if seat is None
        else SeatInfo(
            seat.name,
            seat.kind == "computer",
            seat.away,
            index in dm_pending and not seat.away,
            seat.ready,
        )
        for index, seat in enumerate(table.seats)
    )
    return TableInfo(
        id=table.id,
        config=table.config,
        status=table.status,
        version=table.version,
        seats=seats,
        deadline=table.deadline if table.deadline_kind != "lobby" else None,
        creator=table.creator,
    )
