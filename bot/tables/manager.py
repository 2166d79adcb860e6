"""The table manager: the one entrance for every platform — lobbies, presses, stops.

It checks each command against the table (seat, turn, the state version a button was
drawn for) under the table's lock and hands accepted moves to the apply path
(``commits.py``); the scheduler (``scheduler.py``) plays computers and deadlines; the
deadline policy is pure (``deadlines.py``); restarts replay the log (``recovery.py``).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

import engine
from bot.tables import checks, deadlines, rematch, rows
from bot.tables.commands import ACCEPTED_SECONDS, Accepted, PlayerRef, Press, answered
from bot.tables.commits import Committer
from bot.tables.computers import Computers
from bot.tables.config import TableConfig
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Place, Seat
from bot.tables.lobby import Lobby
from bot.tables.notifier import Event, Notifier, Results
from bot.tables.recovery import live_table
from bot.tables.registry import Registry
from bot.tables.scheduler import Scheduler
from storage.backend import Backend
from storage.errors import Conflict
from storage.records import Change, PlayerSeen, TableRecord
from storage.store import Store

log = logging.getLogger("sahra.tables")


def _new_seed() -> int:
    return random.SystemRandom().getrandbits(62)


class TableManager:
    def __init__(
        self,
        db: Store | Backend,
        notifier: Notifier,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = _new_seed,
        computers: Computers | None = None,
        results: Results | None = None,
    ) -> None:
        self.store = db if isinstance(db, Store) else Store(db)
        self.clock = clock
        self.seed_source = seed_source
        self.computers = computers or Computers()
        self.registry = Registry()
        self.committer = Committer(self.store, notifier, self.registry, clock)
        self.scheduler = Scheduler(self.committer, self.computers, self.registry, clock)
        self.lobby = Lobby(self.committer, clock)
        self.results = results  # None: finished matches are left for a later count
        self.accepted_seconds = ACCEPTED_SECONDS
        self.committer.ended = self._ended
        self.scheduler.rematch_due = lambda table: rematch.fill_and_start(self, table)

    @property
    def notifier(self) -> Notifier:
        return self.committer.notifier

    @notifier.setter
    def notifier(self, notifier: Notifier) -> None:
        self.committer.notifier = notifier  # the apply path is the one that publishes

    # ---------------------------------------------------------------- lookup

    def table(self, table_id: int) -> LiveTable:
        return self.registry.get(table_id)

    def table_at(self, place: Place) -> LiveTable | None:
        return self.registry.at(place)

    def live_tables(self) -> list[LiveTable]:
        return list(self.registry)

    def unarmed(self) -> list[int]:
        """Live tables with neither a timer nor a runner (an invariant: always empty)."""
        return self.scheduler.unarmed()

    # ---------------------------------------------------------------- lobby

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
    ) -> LiveTable:
        """Open a lobby at ``place``; the creator takes seat 0 unless ``join`` is False or
        ``seats`` are given (a rematch: everyone where they sat). ``decks`` and ``seed``
        replay a known match (tests, exported logs)."""
        if not isinstance(config, TableConfig):
            try:
                config = TableConfig.model_validate(config)
            except ValueError as error:
                raise Refusal("bad_option", detail=str(error)) from None
        self.registry.reserve(place)  # a second create here is refused from now on
        try:
            now = self.clock()
            table_id = await self.store.new_table_id()  # shared by processes (PostgreSQL)
            table = LiveTable(
                id=self.registry.new_id() if table_id is None else table_id,
                place=place,
                config=config,
                seed=self.seed_source() if seed is None else seed,
                creator=creator.user_id,
                status="lobby",
                created_at=now,
                updated_at=now,
                last_human_at=now,
                decks=decks,
            )
            if seats is not None:
                table.seats = list(seats)
            elif join:
                table.seats[0] = Seat("human", creator.user_id, creator.name, creator.language)
            table.deadline, table.deadline_kind = deadlines.next_deadline(table, now)
            changes: list[Change] = [
                rows.table_created(table),
                PlayerSeen(place.platform, creator.user_id, creator.name, creator.language, now),
                *rows.seat_changes(table, [i for i, s in enumerate(table.seats) if s]),
            ]
            try:
                await self.store.commit(changes)
            except Conflict:
                # Another process (or a row this one does not hold) has a table here.
                raise Refusal("place_taken") from None
            except Exception as error:
                log.error("event=create_failed error=%s", type(error).__name__)
                raise Refusal("storage", detail=type(error).__name__) from None
            self.registry.add(table)
        finally:
            self.registry.release(place)
        log.info("event=table_created table=%d variant=%s", table.id, config.variant)
        await self.committer.publish(table, [{"type": "table_created", "table": table.id}])
        self.scheduler.arm(table)
        return table

    async def join(
        self,
        table_id: int,
        player: PlayerRef,
        seat: int | None = None,
        *,
        version: int | None = None,
    ) -> int:
        """Take a seat of a lobby. ``version``: the lobby's version a tapped command was
        drawn at (``bot/tables/lobby.py``); None when typed."""
        table = self.table(table_id)
        async with table.lock:
            return await self.lobby.join(table, player, seat, version)

    async def leave(self, table_id: int, user: str, *, version: int | None = None) -> None:
        """Leave a lobby, or hand a running seat to a computer until the owner reclaims it."""
        table = self.table(table_id)
        async with table.lock:
            seat = table.seat_of(user)
            if seat is None:
                raise Refusal("not_seated")
            if table.status == "lobby":
                await self.lobby.leave(table, seat, user, version)
                return
            checks.require_running(table)
            occupant = table.seats[seat]
            assert occupant is not None
            occupant.away = True
            await self.committer.commit(
                table,
                list(rows.seat_changes(table, [seat])),
                [{"type": "seat_taken_over", "seat": seat, "reason": "left"}],
            )

    async def add_computer(
        self, table_id: int, user: str, seat: int | None = None, *, version: int | None = None
    ) -> int:
        table = self.table(table_id)
        async with table.lock:
            return await self.lobby.add_computer(table, user, seat, version)

    async def begin(self, table_id: int, user: str | None) -> None:
        """Start the match once four seats are filled (any seated player may start; a
        second Begin finds no lobby)."""
        table = self.table(table_id)
        async with table.lock:
            checks.require_lobby(table)
            if user is not None:
                checks.require_member(table, user)
            if table.free_seats():
                raise Refusal("not_enough_players")
            await self.start_match(table)

    async def start_match(
        self,
        table: LiveTable,
        changes: list[Change] | None = None,
        events: list[Event] | None = None,
    ) -> None:
        """Deal the first cards of a full lobby (the caller holds its lock); ``changes`` and
        ``events`` that led to it are committed and published with the start."""
        table.match = engine.new_match(
            table.variant,
            seed=table.seed,
            options=table.config.engine_options(),
            decks=table.decks,
        )
        table.status = "running"
        started = {"type": "table_started", "table": table.id}
        await self.committer.commit(table, changes or [], [*(events or []), started])

    # ---------------------------------------------------------------- rematch

    async def rematch(self, old_table: int, player: PlayerRef) -> LiveTable:
        """A new table where ``old_table`` was played, same game and seats; a press on a
        rematch already open confirms it (``bot/tables/rematch.py``)."""
        return await rematch.open_rematch(self, old_table, player)

    async def ready(self, table_id: int, user: str) -> None:
        await rematch.confirm(self, table_id, user)

    async def swap_partners(self, table_id: int, user: str, *, version: int | None = None) -> None:
        await rematch.swap(self, table_id, user, version)

    async def stop(self, table_id: int, user: str, *, is_admin: bool = False) -> None:
        """End a live table. ``is_admin``: this user may although not the creator, as
        ``table_commands.may_stop`` decided from what the platform told; trusted here."""
        table = self.table(table_id)
        async with table.lock:
            if not table.live:
                raise Refusal("not_running")
            if user != table.creator and not is_admin:
                raise Refusal("not_allowed")
            await self.committer.end(table, "stopped", [{"type": "table_stopped", "by": user}])

    async def reclaim(self, table_id: int, user: str) -> None:
        """The owner takes back a seat a computer played for them."""
        table = self.table(table_id)
        async with table.lock:
            checks.require_running(table)
            seat = table.seat_of(user)
            if seat is None:
                raise Refusal("not_seated")
            occupant = table.seats[seat]
            assert occupant is not None
            if not occupant.away:
                raise Refusal("not_away")
            occupant.away = False
            occupant.timeouts = 0
            table.last_human_at = self.clock()
            await self.committer.commit(
                table,
                list(rows.seat_changes(table, [seat])),
                [{"type": "seat_reclaimed", "seat": seat}],
            )

    # ---------------------------------------------------------------- play

    async def press(self, press: Press, on_accepted: Accepted | None = None) -> list[Event]:
        """A human's move: refused with a ``Refusal`` (changing nothing) or committed.
        ``on_accepted(table, seat)`` runs under the table's lock once the seat, version and
        turn checks have passed, before the move is applied: a frontend that answers the
        press in place draws its immediate answer there, with no check of its own; if it
        says False (its answer can no longer be given) the press is withdrawn: no events."""
        table = self.table(press.table_id)
        async with table.lock:
            checks.require_running(table)
            seat = table.seat_of(press.player.user_id)
            if seat is None:
                raise Refusal("not_seated")
            if not table.version_accepts(press.version):
                if table.forced_replay(press.version, seat, press.action):
                    # TX.12: the player tapped the lone move the table had just played
                    # for them. Theirs, already applied: nothing to do twice.
                    table.last_human_at = self.clock()
                    return []
                raise Refusal("stale")
            match = table.match
            assert match is not None
            occupant = table.seats[seat]
            assert occupant is not None
            if seat not in match.to_act:
                raise Refusal("not_your_turn")
            if on_accepted and not await answered(on_accepted, table, seat, self.accepted_seconds):
                return []  # withdrawn before anything changed
            returning = occupant.away  # acting again is coming back
            occupant.away = False
            try:
                events = await self.committer.apply(table, seat, press.action, "human", returning)
            except Refusal:
                if table.status == "running" and table.seats[seat] is occupant:
                    occupant.away = returning
                raise
            table.last_forced = None  # a later move: an earlier lone move is not replayable
            return events

    async def run_due(self) -> None:
        """Fire every deadline that has passed (tests with a fake clock call it)."""
        await self.scheduler.run_due()

    async def settle(self) -> None:
        """Wait until no computer move or timer task is running (tests, shutdown)."""
        await self.scheduler.settle()

    # ---------------------------------------------------------------- start-up and shutdown

    async def start(self, keep: Callable[[TableRecord], bool] | None = None) -> list[LiveTable]:
        """Load every live table (or those ``keep`` accepts: the partitions this process
        has just taken) by replaying its log, and re-arm its timer (an expired deadline
        fires at once). Tables already held are left as they are."""
        self.registry.next_id = max(self.registry.next_id, await self.store.max_table_id() + 1)
        loaded: list[LiveTable] = []
        for stored in await self.store.live_tables(keep):
            if stored.table.id in self.registry:
                continue
            try:
                table = live_table(stored)
            except Exception as error:  # one bad log must not keep every other table down
                log.error(
                    "event=table_load_failed table=%d error=%s",
                    stored.table.id,
                    type(error).__name__,
                )
                continue
            self.registry.add(table)
            loaded.append(table)
        for table in loaded:
            self.scheduler.arm(table)
        log.info("event=tables_loaded count=%d held=%d", len(loaded), len(self.registry))
        if self.results is not None:
            self.results.finished()  # matches that finished before a crash are counted now
        return loaded

    def _ended(self, table: LiveTable) -> None:
        if table.status == "finished" and self.results is not None:
            self.results.finished()

    async def resume(self, tables: list[LiveTable] | None = None) -> None:
        """After a restart, once the platforms are up: every live table's screens (or
        those of ``tables``) are redrawn at once (the group and whoever is to act), in the
        messages they had, so the player to act is told instead of waiting for a timer."""
        for table in list(self.registry) if tables is None else tables:
            async with table.lock:
                if table.live:
                    await self.committer.publish(table, [{"type": "resumed"}])

    async def close(self) -> None:
        """Stop timers and computer turns; in-flight moves finish their commit first."""
        await self.scheduler.close()
        if self.results is not None:
            await self.results.close()  # an uncounted match is counted at the next start
