"""The apply path: a move applied in memory, its changes committed, then published.

One move, end to end (architecture.md): the caller holds the table's lock and has checked
the seat, the turn and the version → ``stage`` applies it to the match and lists what must
be written → ``commit`` writes everything as one job and awaits its durability → only then
are the events published and the table re-armed. A restart replays the log, so an
accepted move is never lost; a failed write rolls the table back to its log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import engine
from bot.logs import where
from bot.tables import deadlines, rows
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Status
from bot.tables.notifier import Event, Notifier
from bot.tables.pace import Pace
from bot.tables.recovery import refresh
from bot.tables.registry import Registry
from storage.errors import Conflict, StorageError
from storage.records import ActionAppended, ActionRecord, Change
from storage.store import Store

log = logging.getLogger("sahra.tables")

# Events worth a log line of their own (a deal's end, a match's end).
LOGGED_EVENTS = ("hand_scored", "deal_cancelled", "match_over")


class Committer:
    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        registry: Registry,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.notifier = notifier
        self.registry = registry
        self.clock = clock
        # Set by the scheduler: what to do once a change is committed (arm the next
        # timer or computer move).
        self.arm: Callable[[LiveTable], None] = lambda table: None
        # Set by the web table: how long its pages take to show a move (none: no pages).
        self.pace: Pace | None = None
        # Set by the manager: what to do once a table has ended (the league counts it).
        self.ended: Callable[[LiveTable], None] = lambda table: None

    def stage(
        self,
        table: LiveTable,
        seat: int,
        action: Any,
        source: str,
        changes: list[Change],
        seat_changed: bool = False,
    ) -> list[Event]:
        """Apply one move in memory and add what must be written for it to ``changes``.
        Nothing is published until ``commit`` has written them."""
        match = table.match
        assert match is not None
        was_doubling = match.phase == "doubling"
        try:
            events = match.apply(seat, action)
        except engine.IllegalAction as error:
            raise Refusal("illegal", error.message, detail=error.code) from None
        table.seq += 1
        table.remember(events)
        now = self.clock()
        if self.pace is not None:  # the pages show the moves one after another
            table.shown_until = max(table.shown_until, now) + self.pace.seconds(events)
        occupant = table.seats[seat]
        assert occupant is not None
        if log.isEnabledFor(logging.INFO):
            # The action's type only: a card or a secret doubling answer never reaches logs.
            log.info(
                "event=action table=%d variant=%s seq=%d seat=%d type=%s source=%s",
                table.id,
                table.variant,
                table.seq,
                seat,
                action.get("type") if isinstance(action, dict) else None,
                source,
            )
            for event in events:
                if event["type"] in LOGGED_EVENTS:
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
            changes.append(rows.result_recorded(table, "finished", now))
        # The timer after this move is stored in the move's own row: one row per move.
        table.deadline, table.deadline_kind = deadlines.next_deadline(table, now)
        changes.append(
            ActionAppended(
                table.id,
                ActionRecord(
                    table.seq, seat, action, source, now, table.deadline, table.deadline_kind
                ),
            )
        )
        if seat_changed:
            changes.extend(rows.seat_changes(table, [seat]))
        return events

    async def apply(
        self, table: LiveTable, seat: int, action: Any, source: str, seat_changed: bool = False
    ) -> list[Event]:
        """Apply, persist, publish one move; the caller holds the table's lock."""
        changes: list[Change] = []
        events = self.stage(table, seat, action, source, changes, seat_changed)
        await self.commit(table, changes, events, row=table.status != "running")
        return events

    async def commit(
        self,
        table: LiveTable,
        changes: list[Change],
        events: list[Event],
        *,
        row: bool = True,
    ) -> None:
        """Write everything in one job, then publish and re-arm. ``row``: the table's own
        row changes too (status, seats' lobby, a timer not carried by a move)."""
        now = self.clock()
        table.updated_at = now
        if row and table.status == "lobby":
            table.lobby_version += 1  # every change of a lobby moves its version
        if row:
            table.deadline, table.deadline_kind = deadlines.next_deadline(table, now)
            changes.append(rows.table_updated(table))
        try:
            await self.store.commit(changes)
        except Conflict as error:
            if not any(isinstance(change, ActionAppended) for change in changes):
                raise await self._failed(table, error) from error
            # The log already has this move number: another process applied a move to
            # this table (it owned it a moment ago, or still thinks it does). The log is
            # the truth; catch up with it and refuse this press as drawn on an old screen.
            log.warning("event=move_fenced table=%d seq=%d", table.id, table.seq)
            await self.reload(table)
            self.arm(table)
            raise Refusal("stale") from error
        except StorageError as error:
            raise await self._failed(table, error) from error
        table.failures = 0
        if not table.live:
            self.forget(table)
            self.ended(table)
        await self.publish(table, events)
        self.arm(table)

    async def _failed(self, table: LiveTable, error: StorageError) -> Refusal:
        """A write that did not happen: roll the table back to its log, re-arm it, and
        the refusal for whoever asked."""
        table.failures += 1
        log.error(
            "event=write_failed table=%d failures=%d error=%s",
            table.id,
            table.failures,
            type(error.__cause__ or error).__name__,
        )
        await self.reload(table)
        self.arm(table)
        return Refusal("storage", detail=type(error).__name__)

    async def end(self, table: LiveTable, status: Status, events: list[Event]) -> None:
        table.status = status
        changes: list[Change] = []
        if table.match is not None:
            changes.append(rows.result_recorded(table, status, self.clock()))
        await self.commit(table, changes, events)

    async def reload(self, table: LiveTable) -> bool:
        """Roll the table back to what its log says (memory ran ahead of a failed write).
        If the store cannot be read either, the table is marked and every command on it
        refused until a later reload succeeds (the scheduler retries with backoff)."""
        try:
            stored = await self.store.load_table(table.id)
            if stored is not None:
                refresh(table, stored)  # builds the table afresh first: all or nothing
        except Exception as error:  # unreadable, or a log that no longer replays
            table.needs_reload = True
            log.error(
                "event=reload_failed table=%d failures=%d error=%s",
                table.id,
                table.failures,
                type(error).__name__,
            )
            return False
        table.needs_reload = False
        if stored is None or not table.live:
            self.forget(table)
        return True

    async def publish(self, table: LiveTable, events: list[Event]) -> None:
        if events:
            try:
                await self.notifier.publish(table, events)
            except Exception as error:  # a chat outage must never undo or stall a committed move
                # Type and place only: a screen's text or a refusal could name a card.
                log.error(
                    "event=publish_failed table=%d error=%s where=%s",
                    table.id,
                    type(error).__name__,
                    where(error),
                )

    def forget(self, table: LiveTable) -> None:
        self.registry.forget(table)
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
