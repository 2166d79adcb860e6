"""A live table as the store keeps it: the changes that record it (``storage.records``)."""

from __future__ import annotations

from bot.tables.live import LiveTable, Seat
from storage.records import (
    ResultRecord,
    ResultRecorded,
    SeatRecord,
    SeatSet,
    TableCreated,
    TableRecord,
    TableUpdated,
)


def seat_record(index: int, seat: Seat) -> SeatRecord:
    return SeatRecord(
        index,
        seat.kind,
        seat.owner,
        seat.name,
        seat.language,
        seat.away,
        seat.timeouts,
        seat.ready,
    )


def seat_changes(table: LiveTable, seats: list[int]) -> list[SeatSet]:
    changes: list[SeatSet] = []
    for index in seats:
        seat = table.seats[index]
        changes.append(
            SeatSet(table.id, index, None if seat is None else seat_record(index, seat))
        )
    return changes


def table_created(table: LiveTable) -> TableCreated:
    place = table.place
    return TableCreated(
        TableRecord(
            id=table.id,
            platform=place.platform,
            chat=place.chat,
            thread=place.thread,
            variant=table.variant,
            config=table.config.model_dump_json(),
            seed=table.seed,
            decks=table.decks,
            status=table.status,
            creator=table.creator,
            created_at=table.created_at,
            updated_at=table.updated_at,
            last_human_at=table.last_human_at,
            deadline=table.deadline,
            deadline_kind=table.deadline_kind,
            seq=table.seq,
            guild=place.guild,
            lobby_version=table.lobby_version,
        )
    )


def table_updated(table: LiveTable) -> TableUpdated:
    return TableUpdated(
        table.id,
        table.status,
        table.seq,
        table.updated_at,
        table.last_human_at,
        table.deadline,
        table.deadline_kind,
        table.lobby_version,
    )


def result_recorded(table: LiveTable, status: str, now: float) -> ResultRecorded:
    match = table.match
    assert match is not None
    result = match.result or {"winners": [], "draw": False}
    owners = [None if s is None or s.kind == "computer" else s.owner for s in table.seats]
    return ResultRecorded(
        ResultRecord(
            table_id=table.id,
            variant=table.variant,
            status=status,
            finished_at=now,
            winners=list(result["winners"]),
            draw=bool(result["draw"]),
            scores=list(match.scores),
            players=owners,
            # Whoever left (or was taken over) and never came back takes the loss.
            away=[i for i, s in enumerate(table.seats) if s is not None and s.away],
        )
    )
