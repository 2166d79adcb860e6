"""Rebuilding live tables from the store: the action log is the truth, and replaying it
through a fresh engine gives the exact state every acknowledged move left."""

from __future__ import annotations

import engine
from bot.tables.config import TableConfig
from bot.tables.live import DeadlineKind, LiveTable, Place, Seat, Status
from storage.records import ActionRecord, StoredTable

# What a reload copies from the stored table onto the one the rest of the process holds.
RELOADED = (
    "status",
    "seats",
    "match",
    "seq",
    "lobby_version",
    "window_seq",
    "deadline",
    "deadline_kind",
    "last_human_at",
    "updated_at",
)


def live_table(stored: StoredTable) -> LiveTable:
    table = _shell(stored)
    if table.status == "running":
        replay(table, stored.actions)
        _moved(table, stored)
    return table


def followed(stored: StoredTable, before: LiveTable | None) -> LiveTable:
    """A table as a process that does not own it sees it (to draw its pages): ``stored``
    holds the moves after ``before.seq``, or all of them when ``before`` has no match.
    The match is carried forward by the new moves, not replayed from the start, and kept
    once the table has ended (its result stays on the page)."""
    table = _shell(stored)
    if table.status == "lobby":
        return table
    if before is None or before.match is None:
        replay(table, stored.actions)
    else:
        table.match, table.seq, table.window_seq = before.match, before.seq, before.window_seq
        table.recent = before.recent
        advance(table, stored.actions)
    _moved(table, stored)
    return table


def _shell(stored: StoredTable) -> LiveTable:
    """The table's row and seats, without its match."""
    row = stored.table
    status: Status = row.status  # type: ignore[assignment]  # the store holds our statuses
    kind: DeadlineKind | None = row.deadline_kind  # type: ignore[assignment]
    table = LiveTable(
        id=row.id,
        place=Place(row.platform, row.chat, row.thread, row.guild),
        config=TableConfig.model_validate_json(row.config),
        seed=row.seed,
        creator=row.creator,
        status=status,
        created_at=row.created_at,
        updated_at=row.updated_at,
        last_human_at=row.last_human_at,
        decks=row.decks,
        deadline=row.deadline,
        deadline_kind=kind,
        lobby_version=row.lobby_version,
    )
    for seat in stored.seats:
        table.seats[seat.seat] = Seat(
            seat.kind,  # type: ignore[arg-type]
            seat.owner,
            seat.name,
            seat.language,
            seat.away,
            seat.timeouts,
            seat.ready,
        )
    return table


def _moved(table: LiveTable, stored: StoredTable) -> None:
    """What the moves say beyond the match: the timer and the last human move."""
    actions = stored.actions
    if actions and actions[-1].seq > stored.table.seq:
        # Moves carry the timer in their own row (the table row is not rewritten).
        last = actions[-1]
        table.deadline = last.deadline
        table.deadline_kind = last.deadline_kind  # type: ignore[assignment]
        table.updated_at = max(table.updated_at, last.at)
    humans = [a.at for a in actions if a.source == "human"]
    table.last_human_at = max([table.last_human_at, *humans])


def replay(table: LiveTable, actions: list[ActionRecord]) -> None:
    table.match = engine.new_match(
        table.variant,
        seed=table.seed,
        options=table.config.engine_options(),
        decks=table.decks,
    )
    table.seq = 0
    advance(table, actions)


def advance(table: LiveTable, actions: list[ActionRecord]) -> None:
    """Apply logged moves that follow ``table.seq`` to its match."""
    match = table.match
    assert match is not None
    for action in actions:
        if action.seq != table.seq + 1:
            raise RuntimeError(f"table {table.id}: action log gap at {action.seq}")
        was_doubling = match.phase == "doubling"
        events = match.apply(action.seat, action.action)
        table.seq = action.seq
        table.remember(events)
        if match.phase == "doubling" and not was_doubling:
            table.window_seq = action.seq  # TX.7: answers drawn then stay valid


def refresh(table: LiveTable, stored: StoredTable) -> None:
    """Make ``table`` (the object everyone holds) what the store says it is."""
    fresh = live_table(stored)
    for name in RELOADED:
        setattr(table, name, getattr(fresh, name))
