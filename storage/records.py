"""What the store keeps, as typed records, and the changes a commit is made of.

The core never writes SQL: it builds a list of changes (a move appended, a seat set, the
table's row updated, …) and hands them to ``Store.commit``, which turns each into its
dialect's statement and commits them together, in order. The same changes are what a
second backend (PostgreSQL) has to understand, so they are plain data: no SQL, no driver
types, no platform.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# ---------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One table's row: where it lives, what was chosen, and its state at the last row
    update (moves carry the timer in their own rows; see ``ActionRecord``)."""

    id: int
    platform: str
    chat: str
    thread: str
    variant: str
    config: str  # TableConfig as JSON (validated by the core, not here)
    seed: int
    decks: list[list[str]] | None
    status: str
    creator: str
    created_at: float
    updated_at: float
    last_human_at: float
    deadline: float | None
    deadline_kind: str | None
    seq: int = 0
    guild: str = ""  # Discord: the server of the table's channel (its shard owns it)
    lobby_version: int = 0  # changes of the lobby so far (a lobby's buttons carry it)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    kind: str  # human computer
    owner: str | None
    name: str
    language: str
    away: bool = False
    timeouts: int = 0
    ready: bool = False  # confirmed a rematch


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One accepted move of the log: the truth a table is rebuilt from."""

    seq: int
    seat: int
    action: dict[str, Any]
    source: str  # human timeout computer forced
    at: float
    deadline: float | None = None  # the table's timer after this move
    deadline_kind: str | None = None


@dataclass(frozen=True, slots=True)
class ResultRecord:
    table_id: int
    variant: str
    status: str  # finished abandoned stopped
    finished_at: float
    winners: list[int]
    draw: bool
    scores: list[int]
    players: list[str | None]  # the owner of each seat; None for a computer
    away: list[int] = field(default_factory=list)  # seats whose owner had left to a computer


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A live table as loaded at start: its row, its seats and its whole action log."""

    table: TableRecord
    seats: list[SeatRecord]
    actions: list[ActionRecord]


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One line of ``sahra tables``."""

    id: int
    platform: str
    chat: str
    thread: str
    variant: str
    status: str
    seq: int
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class Contact:
    """What is known of a user on one platform: whether their private chat is open."""

    user_id: str
    dm_ok: bool


@dataclass(frozen=True, slots=True)
class MessageRow:
    """A message the outbox edits through one of its keys (``key`` as the caller encoded
    it), kept so a restarted process edits it instead of posting a copy."""

    platform: str
    chat: str
    key: str
    message_id: str
    group: bool
    at: float  # when it was posted (wall clock)


# ---------------------------------------------------------------------- changes


@dataclass(frozen=True, slots=True)
class TableCreated:
    record: TableRecord


@dataclass(frozen=True, slots=True)
class TableUpdated:
    """The table's row as it is now (status, timer, how far the log had got)."""

    table_id: int
    status: str
    seq: int
    updated_at: float
    last_human_at: float
    deadline: float | None
    deadline_kind: str | None
    lobby_version: int = 0


@dataclass(frozen=True, slots=True)
class SeatSet:
    """``seat`` now holds ``record``; ``None`` empties it."""

    table_id: int
    seat: int
    record: SeatRecord | None


@dataclass(frozen=True, slots=True)
class ActionAppended:
    table_id: int
    record: ActionRecord


@dataclass(frozen=True, slots=True)
class PlayerSeen:
    """A user's current display name and language (kept for operators and stats)."""

    platform: str
    user_id: str
    name: str
    language: str | None
    at: float


@dataclass(frozen=True, slots=True)
class ResultRecorded:
    record: ResultRecord


@dataclass(frozen=True, slots=True)
class ChatLanguageSet:
    platform: str
    chat: str
    language: str
    at: float


@dataclass(frozen=True, slots=True)
class DmReachability:
    """Whether the bot can write to the user privately (they opened the chat, or it
    answered 403)."""

    platform: str
    user_id: str
    name: str
    language: str
    ok: bool
    at: float


@dataclass(frozen=True, slots=True)
class MessageSaved:
    """``key``'s message in ``chat`` is now ``message_id`` (posted ``at``)."""

    platform: str
    chat: str
    key: str
    message_id: str
    group: bool
    at: float


@dataclass(frozen=True, slots=True)
class MessageDropped:
    """``key`` of ``chat`` names no message any more."""

    platform: str
    chat: str
    key: str


Change = (
    TableCreated
    | TableUpdated
    | SeatSet
    | ActionAppended
    | PlayerSeen
    | ResultRecorded
    | ChatLanguageSet
    | DmReachability
    | MessageSaved
    | MessageDropped
)


@dataclass(frozen=True, slots=True)
class StoredReview:
    """A finished deal's analysis as kept with its match: made by analysis ``version``."""

    table_id: int
    deal: int
    version: int
    analysis: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class InboxRow:
    """An update one process received for a table another process owns."""

    id: int
    target: str  # the partition that owns it ("telegram", "discord:3")
    payload: str  # the platform's update as JSON
    at: float
