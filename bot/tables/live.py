"""A table as the manager holds it in memory between commits."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

import engine
from bot.tables.config import TableConfig

Status = Literal["lobby", "running", "finished", "abandoned", "stopped", "expired"]
LIVE_STATUSES = ("lobby", "running")
# Public events a table keeps for its pages: more than a deal's (bids, 52 cards, 13 tricks,
# the result), so a page that missed a few frames is still shown every move.
RECENT_EVENTS = 160
DeadlineKind = Literal["turn", "forced", "lobby", "rematch"]


@dataclass(frozen=True)
class Place:
    """Where a table lives: one live table per (platform, chat, thread)."""

    platform: str
    chat: str
    thread: str = ""
    # Discord: the server of the chat. Not part of the place's identity (a chat has one
    # server); it decides which process owns the table when shards are spread out.
    guild: str = field(default="", compare=False)


@dataclass
class Seat:
    kind: Literal["human", "computer"]
    owner: str | None  # platform user id of a human seat
    name: str
    language: str
    away: bool = False  # a computer plays for the absent owner
    timeouts: int = 0  # consecutive timeouts
    ready: bool = False  # confirmed a rematch (its lobby starts once every human has)

    @property
    def computer_plays(self) -> bool:
        return self.kind == "computer" or self.away


@dataclass(eq=False)
class LiveTable:
    id: int
    place: Place
    config: TableConfig
    seed: int
    creator: str
    status: Status
    created_at: float
    updated_at: float
    last_human_at: float
    seats: list[Seat | None] = field(default_factory=lambda: [None, None, None, None])
    decks: list[list[str]] | None = None
    match: engine.Match | None = None
    seq: int = 0  # actions applied = the state version buttons carry
    # Changes of the lobby so far: the version a lobby's buttons carry (``version``).
    lobby_version: int = 0
    # The lobby version each person's lobby command was carried out at, by (user,
    # command): a tap drawn before it is a repeat (``checks.require_first_tap``). Kept by
    # the owner in memory: a repeat that straddles a restart is not caught.
    lobby_taps: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)
    window_seq: int = 0  # seq when the current multi-seat window opened (TX.7)
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    # The one supervised task acting for the table now (computers' moves, a deadline, a
    # reload); while it runs it owns re-arming the table.
    runner: asyncio.Task[None] | None = field(default=None, repr=False)
    failures: int = 0  # background failures in a row (backoff); reset by a commit
    needs_reload: bool = False  # memory ran ahead of a failed write and the log was unreadable
    # The lone move the scheduler last played for a human (TX.12): (seq before it, seat,
    # action). Only good while that move is the last applied one (see ``forced_replay``).
    last_forced: tuple[int, int, dict[str, Any]] | None = None
    # The latest public events, each with the seq of the move that made it: a page is sent
    # those after the last state it was sent, to show them one by one. In memory only: a
    # page after a restart draws the table without replaying what came before.
    recent: deque[tuple[int, dict[str, Any]]] = field(
        default_factory=lambda: deque(maxlen=RECENT_EVENTS), repr=False
    )
    # When the pages will have shown every move so far, and the seats that follow the table
    # on a page (their turn's time starts then: ``bot/tables/pace.py``).
    shown_until: float = 0.0
    paced_seats: frozenset[int] = frozenset()

    @property
    def variant(self) -> str:
        return self.config.variant

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES

    def seat_of(self, user: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.kind == "human" and seat.owner == user:
                return index
        return None

    @property
    def version(self) -> int:
        """The version a screen of the table is drawn at, and its buttons carry: the
        lobby's changes while it is a lobby, the moves applied once it is dealt."""
        return self.lobby_version if self.status == "lobby" else self.seq

    def tapped(self, user: str, command: str, at: int) -> None:
        """``user``'s lobby ``command`` was carried out at lobby version ``at``."""
        self.lobby_taps[(user, command)] = at

    def remember(self, events: list[dict[str, Any]]) -> None:
        """Keep the public ones of ``events``, made by the move at ``seq``."""
        for event in events:
            if "to" not in event:  # a seat's own (its hand, a secret answer): never shown
                self.recent.append((self.seq, event))

    def free_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat is None]

    def version_accepts(self, version: int) -> bool:
        """A button drawn at ``version`` is current. In TX.7's doubling window several
        seats answer at once, so an answer drawn when the window opened stays valid while
        other seats answer (the engine refuses a second answer from the same seat)."""
        if version == self.seq:
            return True
        match = self.match
        return (
            match is not None
            and match.phase == "doubling"
            and self.window_seq <= version <= self.seq
        )

    def forced_replay(self, version: int, seat: int, action: Any) -> bool:
        """A press drawn at ``version`` of the very move the table just played for ``seat``
        by itself (TX.12): the player's own move, already applied. Any later move ends it."""
        forced = self.last_forced
        return (
            forced is not None
            and self.seq == version + 1
            and forced[0] == version
            and forced[1] == seat
            and forced[2] == action
        )
