"""The table manager: lobbies, the apply path, timers, takeovers, and restart recovery.

One move, end to end (architecture.md): take the table's lock → check the seat, the turn
and the state version the button was drawn for → ``match.apply`` → append the action to
the log and await its commit → publish the events. Nothing is published before its
commit, and a restart replays the log, so an accepted move is never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Callable
from typing import Any

import engine
from bot.tables.commands import PlayerRef, Press
from bot.tables.computers import Computers
from bot.tables.config import TableConfig
from bot.tables.errors import Refusal
from bot.tables.live import LIVE_STATUSES, DeadlineKind, LiveTable, Place, Seat, Status
from bot.tables.notifier import Event, Notifier
from storage.database import Database, Statement

log = logging.getLogger("sahra.tables")

INSERT_ACTION = (
    "INSERT INTO actions (table_id, seq, seat, action, source, at, deadline, deadline_kind)"
    " VALUES (?,?,?,?,?,?,?,?)"
)
COMPUTER_MOVES_PER_COMMIT = 4
# One name per seat, so that three computers at a table can be told apart.
COMPUTER_NAMES = (("Salim", "سليم"), ("Nour", "نور"), ("Rami", "رامي"), ("Huda", "هدى"))
UPDATE_TABLE = (
    "UPDATE tables SET status = ?, seq = ?, updated_at = ?, last_human_at = ?, deadline = ?,"
    " deadline_kind = ? WHERE id = ?"
)
UPSERT_SEAT = (
    "INSERT OR REPLACE INTO seats (table_id, seat, kind, owner, name, language, away, timeouts)"
    " VALUES (?,?,?,?,?,?,?,?)"
)
DELETE_SEAT = "DELETE FROM seats WHERE table_id = ? AND seat = ?"
UPSERT_PLAYER = (
    "INSERT INTO players (platform, user_id, name, language, updated_at) VALUES (?,?,?,?,?)"
    " ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name,"
    " language = excluded.language, updated_at = excluded.updated_at"
)
SET_DM_OK = "UPDATE players SET dm_ok = ?, updated_at = ? WHERE platform = ? AND user_id = ?"
INSERT_RESULT = (
    "INSERT OR REPLACE INTO results (table_id, variant, status, finished_at, winners, draw,"
    " scores, players) VALUES (?,?,?,?,?,?,?,?)"
)


def encode_action(action: dict[str, Any]) -> str:
    """The action as JSON for the log; card plays (nearly every action) without json.dumps.
    Only called once the engine accepted the action, so a play's card is a valid code."""
    if len(action) == 2 and action.get("type") == "play":
        card = action["card"]
        if type(card) is str and card.isalnum():
            return '{"type":"play","card":"' + card + '"}'
    return json.dumps(action, separators=(",", ":"))


def _new_seed() -> int:
    return random.SystemRandom().getrandbits(62)


class TableManager:
    def __init__(
        self,
        db: Database,
        notifier: Notifier,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = _new_seed,
        computers: Computers | None = None,
    ) -> None:
        self.db = db
        self.notifier = notifier
        self.clock = clock
        self.seed_source = seed_source
        self.computers = computers or Computers()
        self._tables: dict[int, LiveTable] = {}
        self._by_place: dict[Place, int] = {}
        self._next_id = 1
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False

    # ---------------------------------------------------------------- lookup

    def table(self, table_id: int) -> LiveTable:
        table = self._tables.get(table_id)
        if table is None:
            raise Refusal("unknown_table")
        return table

    def table_at(self, place: Place) -> LiveTable | None:
        table_id = self._by_place.get(place)
        return None if table_id is None else self._tables.get(table_id)

    def live_tables(self) -> list[LiveTable]:
        return list(self._tables.values())

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
    ) -> LiveTable:
        """Open a lobby at ``place``; the creator takes seat 0 unless ``join`` is False.
        ``decks`` and ``seed`` replay a known match (tests, exported logs)."""
        if not isinstance(config, TableConfig):
            try:
                config = TableConfig.model_validate(config)
            except ValueError as error:
                raise Refusal("bad_option", detail=str(error)) from None
        if self.table_at(place) is not None:
            raise Refusal("place_taken")
        now = self.clock()
        table = LiveTable(
            id=self._next_id,
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
        self._next_id += 1
        if join:
            table.seats[0] = Seat("human", creator.user_id, creator.name, creator.language)
        table.deadline, table.deadline_kind = now + config.lobby_ttl_seconds, "lobby"
        statements: list[Statement] = [
            (
                "INSERT INTO tables (id, platform, chat, thread, variant, config, seed, decks,"
                " status, creator, created_at, updated_at, last_human_at, deadline, deadline_kind,"
                " seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)",
                (
                    table.id,
                    place.platform,
                    place.chat,
                    place.thread,
                    config.variant,
                    config.model_dump_json(),
                    table.seed,
                    None if decks is None else json.dumps(decks),
                    "lobby",
                    creator.user_id,
                    now,
                    now,
                    now,
                    table.deadline,
                    table.deadline_kind,
                ),
            ),
            (
                UPSERT_PLAYER,
                (place.platform, creator.user_id, creator.name, creator.language, now),
            ),
            *self._seat_statements(table, [0] if join else []),
        ]
        await self.db.write(*statements)
        self._tables[table.id] = table
        self._by_place[place] = table.id
        log.info("event=table_created table=%d variant=%s", table.id, config.variant)
        await self._publish(table, [{"type": "table_created", "table": table.id}])
        self._arm(table)
        return table

    async def join(self, table_id: int, player: PlayerRef, seat: int | None = None) -> int:
        table = self.table(table_id)
        async with table.lock:
            self._require_lobby(table)
            if table.seat_of(player.user_id) is not None:
                raise Refusal("already_seated")
            seat = self._pick_seat(table, seat)
            table.seats[seat] = Seat("human", player.user_id, player.name, player.language)
            await self._lobby_change(
                table,
                [seat],
                [{"type": "player_joined", "seat": seat, "name": player.name}],
                player=(table.place.platform, player),
            )
            return seat

    async def leave(self, table_id: int, user: str) -> None:
        """Leave a lobby, or hand a running seat to a computer until the owner reclaims it."""
        table = self.table(table_id)
        async with table.lock:
            seat = table.seat_of(user)
            if seat is None:
                raise Refusal("not_seated")
            if table.status == "lobby":
                table.seats[seat] = None
                await self._lobby_change(table, [seat], [{"type": "player_left", "seat": seat}])
                return
            self._require_running(table)
            occupant = table.seats[seat]
            assert occupant is not None
            occupant.away = True
            await self._commit(
                table,
                self._seat_statements(table, [seat]),
                [{"type": "seat_taken_over", "seat": seat, "reason": "left"}],
            )

    async def add_computer(self, table_id: int, user: str, seat: int | None = None) -> int:
        table = self.table(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_member(table, user)
            seat = self._pick_seat(table, seat)
            name = COMPUTER_NAMES[seat][table.config.language == "ar"]
            table.seats[seat] = Seat("computer", None, name, table.config.language)
            await self._lobby_change(table, [seat], [{"type": "computer_added", "seat": seat}])
            return seat

    async def remove_computer(self, table_id: int, user: str, seat: int) -> None:
        table = self.table(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_member(table, user)
            occupant = table.seats[seat] if 0 <= seat <= 3 else None
            if occupant is None or occupant.kind != "computer":
                raise Refusal("seat_empty")
            table.seats[seat] = None
            await self._lobby_change(table, [seat], [{"type": "computer_removed", "seat": seat}])

    async def begin(self, table_id: int, user: str | None) -> None:
        """Start the match once four seats are filled (any seated player may start)."""
        table = self.table(table_id)
        async with table.lock:
            self._require_lobby(table)
            if user is not None:
                self._require_member(table, user)
            if table.free_seats():
                raise Refusal("not_enough_players")
            table.match = engine.new_match(
                table.variant,
                seed=table.seed,
                options=table.config.engine_options(),
                decks=table.decks,
            )
            table.status = "running"
            events: list[Event] = [{"type": "table_started", "table": table.id}]
            await self._commit(table, [], events)

    async def stop(self, table_id: int, user: str, *, is_admin: bool = False) -> None:
        table = self.table(table_id)
        async with table.lock:
            if not table.live:
                raise Refusal("not_running")
            if user != table.creator and not is_admin:
                raise Refusal("not_allowed")
            await self._end(table, "stopped", [{"type": "table_stopped", "by": user}])

    async def reclaim(self, table_id: int, user: str) -> None:
        """The owner takes back a seat a computer played for them."""
        table = self.table(table_id)
        async with table.lock:
            self._require_running(table)
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
            await self._commit(
                table,
                self._seat_statements(table, [seat]),
                [{"type": "seat_reclaimed", "seat": seat}],
            )

    async def set_dm_ok(self, platform: str, user: str, ok: bool) -> None:
        """Remember whether the bot can reach a player privately."""
        await self.db.write((SET_DM_OK, (int(ok), self.clock(), platform, user)))

    # ---------------------------------------------------------------- play

    async def press(self, press: Press) -> list[Event]:
        """A human's move: refused with a ``Refusal`` (changing nothing) or committed."""
        table = self.table(press.table_id)
        async with table.lock:
            self._require_running(table)
            seat = table.seat_of(press.player.user_id)
            if seat is None:
                raise Refusal("not_seated")
            if not table.version_accepts(press.version):
                raise Refusal("stale")
            match = table.match
            assert match is not None
            occupant = table.seats[seat]
            assert occupant is not None
            if seat not in match.to_act:
                raise Refusal("not_your_turn")
            returning = occupant.away  # acting again is coming back
            occupant.away = False
            try:
                return await self._apply(table, seat, press.action, "human", returning)
            except Refusal:
                if table.status == "running" and table.seats[seat] is occupant:
                    occupant.away = returning
                raise

    async def _apply(
        self, table: LiveTable, seat: int, action: Any, source: str, seat_changed: bool = False
    ) -> list[Event]:
        """Apply, persist, publish one move; the caller holds the table's lock."""
        statements: list[Statement] = []
        events = self._stage(table, seat, action, source, statements, seat_changed)
        await self._commit(table, statements, events, row=table.status != "running")
        return events

    def _stage(
        self,
        table: LiveTable,
        seat: int,
        action: Any,
        source: str,
        statements: list[Statement],
        seat_changed: bool = False,
    ) -> list[Event]:
        """Apply one move in memory and add what must be written for it to ``statements``.
        Nothing is published until ``_commit`` has written them."""
        match = table.match
        assert match is not None
        was_doubling = match.phase == "doubling"
        try:
            events = match.apply(seat, action)
        except engine.IllegalAction as error:
            raise Refusal("illegal", error.message, detail=error.code) from None
        table.seq += 1
        now = self.clock()
        occupant = table.seats[seat]
        assert occupant is not None
        if log.isEnabledFor(logging.INFO):
            # The action's type only: a card or a secret doubling answer never reaches logs.
            kind = action.get("type") if isinstance(action, dict) else None
            log.info(
                "event=action table=%d variant=%s seq=%d seat=%d type=%s source=%s",
                table.id,
                table.variant,
                table.seq,
                seat,
                kind,
                source,
            )
            for event in events:
                if event["type"] in ("hand_scored", "deal_cancelled", "match_over"):
                    log.info(
                        "event=%s table=%d variant=%s deal=%d",
                        event["type"],
                        table.id,
                        table.variant,
                        match.deal_number,
                    )
        if source == "human":
            table.last_human_at = now
            if occupant.timeouts:
                occupant.timeouts = 0
                seat_changed = True
        elif source == "timeout":
            occupant.timeouts += 1
            seat_changed = True
            if occupant.timeouts >= table.config.timeouts_before_takeover and not occupant.away:
                occupant.away = True
                events.append({"type": "seat_taken_over", "seat": seat, "reason": "timeouts"})
        if match.phase == "doubling" and not was_doubling:
            table.window_seq = table.seq
        if match.result is not None:
            table.status = "finished"
            statements.append(self._result_statement(table, "finished", now))
        # The timer after this move is stored in the move's own row: one row per move.
        self._plan(table, now)
        statements.append(
            (
                INSERT_ACTION,
                (
                    table.id,
                    table.seq,
                    seat,
                    encode_action(action),
                    source,
                    now,
                    table.deadline,
                    table.deadline_kind,
                ),
            )
        )
        if seat_changed:
            statements.extend(self._seat_statements(table, [seat]))
        return events

    async def _commit(
        self,
        table: LiveTable,
        statements: list[Statement],
        events: list[Event],
        *,
        row: bool = True,
    ) -> None:
        """Write everything in one job, then publish and re-arm. ``row``: the table's own
        row changes too (status, seats' lobby, a timer not carried by a move)."""
        now = self.clock()
        table.updated_at = now
        if row:
            self._plan(table, now)
            statements.append(
                (
                    UPDATE_TABLE,
                    (
                        table.status,
                        table.seq,
                        now,
                        table.last_human_at,
                        table.deadline,
                        table.deadline_kind,
                        table.id,
                    ),
                )
            )
        try:
            await self.db.write(*statements)
        except Exception as error:
            log.exception("event=write_failed table=%d", table.id)
            await self._reload(table)
            raise Refusal("storage", detail=type(error).__name__) from error
        if not table.live:
            self._forget(table)
        await self._publish(table, events)
        self._arm(table)

    # ---------------------------------------------------------------- timers

    def _plan(self, table: LiveTable, now: float) -> None:
        """Set the table's next deadline from its state (stored with every commit)."""
        config = table.config
        deadline: float | None = None
        kind: DeadlineKind | None = None
        if table.status == "lobby":
            deadline, kind = now + config.lobby_ttl_seconds, "lobby"
        elif table.status == "running":
            match = table.match
            assert match is not None
            humans = [s for s in match.to_act if not self._computer_seat(table, s)]
            if humans:
                phase = match.phase
                if phase == "doubling" and table.window_seq < table.seq and table.deadline:
                    # TX.7: one deadline for the whole window; moving it when an answer
                    # comes in would tell the table that someone answered.
                    return
                if phase == "doubling":
                    seconds = float(config.doubling_seconds)
                elif phase == "playing":
                    seconds = float(config.turn_seconds)
                else:
                    seconds = float(config.bid_seconds)
                kind = "turn"
                if config.forced_autoplay and all(
                    match.forced_action(s) is not None for s in humans
                ):
                    seconds, kind = config.forced_delay_seconds, "forced"
                deadline = now + seconds
        table.deadline, table.deadline_kind = deadline, kind

    def _computer_seat(self, table: LiveTable, seat: int) -> bool:
        occupant = table.seats[seat]
        return occupant is None or occupant.computer_plays

    def _arm(self, table: LiveTable) -> None:
        """Schedule what happens next without a human: a computer's move or the deadline."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if self._closing or not table.live:
            return
        loop = asyncio.get_running_loop()
        match = table.match
        if (
            table.status == "running"
            and match is not None
            and any(self._computer_seat(table, s) for s in match.to_act)
        ):
            if table.runner is None:  # else the running loop plays this move too
                delay = table.config.computer_delay_seconds
                if delay <= 0:
                    self._start_runner(table)
                else:
                    table.timer = loop.call_later(delay, self._start_runner, table)
            return
        if table.deadline is not None:
            delay = max(0.0, table.deadline - self.clock())
            token = (table.seq, table.deadline)
            table.timer = loop.call_later(delay, self._spawn_fire, table, token)

    def _start_runner(self, table: LiveTable) -> None:
        if table.runner is None and not self._closing:
            table.runner = self._spawn(self._run_computers(table))

    def _spawn_fire(self, table: LiveTable, token: tuple[int, float]) -> None:
        self._spawn(self._fire(table, token))

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _run_computers(self, table: LiveTable) -> None:
        """Play the computer seats' moves one after another while it is their turn. One
        loop per table (not a task per move); the lock is taken afresh for every move, so
        a human's press waits at most one move."""
        try:
            while True:
                async with table.lock:
                    if table.status != "running" or self._closing:
                        return
                    if await self._abandon_if_idle(table):
                        return
                    match = table.match
                    assert match is not None
                    # Consecutive computer moves of one table share a commit (group commit
                    # per table); none is published before it.
                    statements: list[Statement] = []
                    events: list[Event] = []
                    for _ in range(COMPUTER_MOVES_PER_COMMIT):
                        seat = next(
                            (s for s in match.to_act if self._computer_seat(table, s)), None
                        )
                        if seat is None:
                            break
                        # Takeovers and empty seats play at the table's difficulty.
                        difficulty = table.config.difficulty
                        action = await self.computers.decide(
                            difficulty, match.seed * 4 + seat, match.view(seat)
                        )
                        try:
                            staged = self._stage(table, seat, action, "computer", statements)
                        except Refusal:
                            # A computer player's mistake must not stall the table (or
                            # drop moves staged before it); the refusal changed nothing,
                            # and the rules' timeout move is always legal.
                            log.error("event=computer_illegal table=%d seat=%d", table.id, seat)
                            fallback = match.auto_action(seat) or {}
                            staged = self._stage(table, seat, fallback, "computer", statements)
                        events += staged
                        if (
                            table.status != "running"
                            or table.config.computer_delay_seconds > 0
                            or self.computers.thinks_long(difficulty)
                        ):
                            break  # publish now rather than after the next slow decision
                    if not statements:
                        return
                    await self._commit(table, statements, events, row=table.status != "running")
                if table.config.computer_delay_seconds > 0:
                    break  # one move per delay: the next is scheduled below
        finally:
            table.runner = None
        self._arm(table)

    async def _fire(self, table: LiveTable, token: tuple[int, float]) -> None:
        async with table.lock:
            if (table.seq, table.deadline) != token or not table.live or self._closing:
                return
            if table.deadline_kind == "lobby":
                await self._end(table, "expired", [{"type": "lobby_expired"}])
                return
            if await self._abandon_if_idle(table):
                return
            match = table.match
            assert match is not None
            forced = table.deadline_kind == "forced"
            for seat in list(match.to_act):
                if table.status != "running" or seat not in match.to_act:
                    continue
                if self._computer_seat(table, seat):
                    continue
                if forced:
                    action = match.forced_action(seat)
                    if action is not None:
                        await self._apply(table, seat, action, "forced")  # TX.12
                        continue
                action = match.auto_action(seat)
                if action is not None:
                    await self._apply(table, seat, action, "timeout")

    async def run_due(self) -> None:
        """Fire every deadline that has passed. Timers do this by themselves; tests with a
        fake clock call it directly."""
        now = self.clock()
        for table in list(self._tables.values()):
            if table.deadline is not None and table.deadline <= now:
                await self._fire(table, (table.seq, table.deadline))

    async def settle(self) -> None:
        """Wait until no computer move or timer task is running (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _abandon_if_idle(self, table: LiveTable) -> bool:
        """End a running table that no human has touched for too long, recorded as such."""
        if not self._abandon_due(table):
            return False
        await self._end(table, "abandoned", [{"type": "table_abandoned"}])
        return True

    def _abandon_due(self, table: LiveTable) -> bool:
        if not any(s is not None and s.kind == "human" for s in table.seats):
            return False  # computers only: nobody to wait for
        return self.clock() - table.last_human_at > table.config.abandon_after_seconds

    # ---------------------------------------------------------------- endings

    async def _end(self, table: LiveTable, status: Status, events: list[Event]) -> None:
        table.status = status
        statements: list[Statement] = []
        if table.match is not None:
            statements.append(self._result_statement(table, status, self.clock()))
        await self._commit(table, statements, events)

    def _result_statement(self, table: LiveTable, status: str, now: float) -> Statement:
        match = table.match
        assert match is not None
        result = match.result or {"winners": [], "draw": False}
        owners = [None if s is None or s.kind == "computer" else s.owner for s in table.seats]
        return (
            INSERT_RESULT,
            (
                table.id,
                table.variant,
                status,
                now,
                json.dumps(result["winners"]),
                int(result["draw"]),
                json.dumps(match.scores),
                json.dumps(owners),
            ),
        )

    def _forget(self, table: LiveTable) -> None:
        if self._by_place.get(table.place) == table.id:
            del self._by_place[table.place]
        self._tables.pop(table.id, None)
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None

    # ---------------------------------------------------------------- helpers

    async def _lobby_change(
        self,
        table: LiveTable,
        seats: list[int],
        events: list[Event],
        player: tuple[str, PlayerRef] | None = None,
    ) -> None:
        statements = self._seat_statements(table, seats)
        if player is not None:
            platform, ref = player
            statements.append(
                (UPSERT_PLAYER, (platform, ref.user_id, ref.name, ref.language, self.clock()))
            )
        table.last_human_at = self.clock()
        await self._commit(table, statements, events)

    def _seat_statements(self, table: LiveTable, seats: list[int]) -> list[Statement]:
        statements: list[Statement] = []
        for index in seats:
            seat = table.seats[index]
            if seat is None:
                statements.append((DELETE_SEAT, (table.id, index)))
            else:
                statements.append(
                    (
                        UPSERT_SEAT,
                        (
                            table.id,
                            index,
                            seat.kind,
                            seat.owner,
                            seat.name,
                            seat.language,
                            int(seat.away),
                            seat.timeouts,
                        ),
                    )
                )
        return statements

    def _pick_seat(self, table: LiveTable, seat: int | None) -> int:
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

    @staticmethod
    def _require_lobby(table: LiveTable) -> None:
        if table.status != "lobby":
            raise Refusal("not_in_lobby" if table.status == "running" else "not_running")

    @staticmethod
    def _require_running(table: LiveTable) -> None:
        if table.status != "running":
            raise Refusal("not_running")

    @staticmethod
    def _require_member(table: LiveTable, user: str) -> None:
        if table.seat_of(user) is None and user != table.creator:
            raise Refusal("not_seated")

    async def _publish(self, table: LiveTable, events: list[Event]) -> None:
        if events:
            try:
                await self.notifier.publish(table, events)
            except Exception:  # a chat outage must never undo or stall a committed move
                log.exception("event=publish_failed table=%d", table.id)

    # ---------------------------------------------------------------- start-up and shutdown

    async def start(self) -> None:
        """Load every live table by replaying its log, and re-arm its timer (an expired
        deadline fires at once)."""
        rows = await self.db.fetchall("SELECT max(id) FROM tables")
        self._next_id = (rows[0][0] or 0) + 1
        async with self.db.reader() as conn:
            async with conn.execute(
                "SELECT * FROM tables WHERE status IN (?, ?) ORDER BY id", LIVE_STATUSES
            ) as cursor:
                table_rows = list(await cursor.fetchall())
            for row in table_rows:
                table = await self._load(conn, row)
                self._tables[table.id] = table
                self._by_place[table.place] = table.id
        for table in self._tables.values():
            self._arm(table)
        log.info("event=tables_loaded count=%d", len(self._tables))

    async def _load(self, conn: Any, row: Any) -> LiveTable:
        table = LiveTable(
            id=row["id"],
            place=Place(row["platform"], row["chat"], row["thread"]),
            config=TableConfig.model_validate_json(row["config"]),
            seed=row["seed"],
            creator=row["creator"],
            status=row["status"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            last_human_at=row["last_human_at"],
            decks=None if row["decks"] is None else json.loads(row["decks"]),
            deadline=row["deadline"],
            deadline_kind=row["deadline_kind"],
        )
        async with conn.execute("SELECT * FROM seats WHERE table_id = ?", (table.id,)) as cursor:
            for seat in await cursor.fetchall():
                table.seats[seat["seat"]] = Seat(
                    seat["kind"],
                    seat["owner"],
                    seat["name"],
                    seat["language"],
                    bool(seat["away"]),
                    seat["timeouts"],
                )
        if table.status == "running":
            async with conn.execute(
                "SELECT seq, seat, action, source, at, deadline, deadline_kind FROM actions"
                " WHERE table_id = ? ORDER BY seq",
                (table.id,),
            ) as cursor:
                actions = list(await cursor.fetchall())
            self._replay(table, [(a["seq"], a["seat"], json.loads(a["action"])) for a in actions])
            if actions and actions[-1]["seq"] > row["seq"]:
                # Moves carry the timer in their own row (the table row is not rewritten).
                last = actions[-1]
                table.deadline, table.deadline_kind = last["deadline"], last["deadline_kind"]
                table.updated_at = max(table.updated_at, last["at"])
            humans = [a["at"] for a in actions if a["source"] == "human"]
            table.last_human_at = max([table.last_human_at, *humans])
        return table

    def _replay(self, table: LiveTable, actions: list[tuple[int, int, Any]]) -> None:
        match = engine.new_match(
            table.variant,
            seed=table.seed,
            options=table.config.engine_options(),
            decks=table.decks,
        )
        table.seq = 0
        for seq, seat, action in actions:
            if seq != table.seq + 1:
                raise RuntimeError(f"table {table.id}: action log gap at {seq}")
            was_doubling = match.phase == "doubling"
            match.apply(seat, action)
            table.seq = seq
            if match.phase == "doubling" and not was_doubling:
                table.window_seq = seq
        table.match = match

    async def _reload(self, table: LiveTable) -> None:
        """Rebuild a table from the database after a failed write (memory ran ahead)."""
        rows = await self.db.fetchall("SELECT * FROM tables WHERE id = ?", (table.id,))
        if not rows:
            self._forget(table)
            return
        async with self.db.reader() as conn:
            fresh = await self._load(conn, rows[0])
        for name in (
            "status",
            "seats",
            "match",
            "seq",
            "window_seq",
            "deadline",
            "deadline_kind",
            "last_human_at",
            "updated_at",
        ):
            setattr(table, name, getattr(fresh, name))

    async def close(self) -> None:
        """Stop timers and computer turns; in-flight moves finish their commit first."""
        self._closing = True
        for table in self._tables.values():
            if table.timer is not None:
                table.timer.cancel()
                table.timer = None
        for table in list(self._tables.values()):
            async with table.lock:
                pass  # wait for an in-flight apply to commit and publish
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
