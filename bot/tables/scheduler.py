"""What happens at a table without a human: the computers' moves and the deadlines.

Every running table always has either a timer (``table.timer``: a turn deadline, a
computer's delay, or a retry after a failure) or a runner (``table.runner``: the one
supervised task acting for it now). A runner that fails is logged once, its table rolled
back to its log and re-armed after a backoff, so one bad decision or one failed write
never leaves a table waiting for a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.logs import where
from bot.tables import deadlines
from bot.tables.commits import Committer
from bot.tables.computers import Computers
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable
from bot.tables.notifier import Event
from bot.tables.registry import Registry
from storage.records import Change

log = logging.getLogger("sahra.tables")

COMPUTER_MOVES_PER_COMMIT = 4


async def _nothing(table: LiveTable) -> None:
    return None


class Scheduler:
    def __init__(
        self,
        committer: Committer,
        computers: Computers,
        registry: Registry,
        clock: Callable[[], float],
    ) -> None:
        self.committer = committer
        self.computers = computers
        self.registry = registry
        self.clock = clock
        self.closing = False
        self._tasks: set[asyncio.Task[None]] = set()
        committer.arm = self.arm
        # Set by the manager: a rematch's wait for confirmations is over (lock held).
        self.rematch_due: Callable[[LiveTable], Awaitable[None]] = _nothing

    # ---------------------------------------------------------------- arming

    def arm(self, table: LiveTable) -> None:
        """Schedule what happens next without a human: a computer's move, the deadline,
        or (after a failure) a retry."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if self.closing or not table.live or table.runner is not None:
            return  # a runner re-arms the table when it ends
        loop = asyncio.get_running_loop()
        retry = deadlines.retry_after(table.failures) if table.failures else 0.0
        if table.needs_reload:
            table.timer = loop.call_later(retry, self._start, table, self._recover, "reload")
            return
        match = table.match
        if (
            table.status == "running"
            and match is not None
            and any(deadlines.computer_plays(table, s) for s in match.to_act)
        ):
            delay = max(retry, table.config.computer_delay_seconds)
            if delay <= 0:
                self._start(table, self._computers_turn, "computers")
            else:
                table.timer = loop.call_later(
                    delay, self._start, table, self._computers_turn, "computers"
                )
            return
        if table.deadline is not None:
            delay = max(retry, table.deadline - self.clock(), 0.0)
            token = (table.seq, table.deadline)
            table.timer = loop.call_later(
                delay, self._start, table, lambda t: self._deadline(t, token), "deadline"
            )

    def unarmed(self) -> list[int]:
        """Live tables with neither a timer nor a runner: always empty (tests check it)."""
        return [
            table.id
            for table in self.registry
            if table.live and table.timer is None and table.runner is None
        ]

    # ---------------------------------------------------------------- supervision

    def _start(
        self, table: LiveTable, work: Callable[[LiveTable], Awaitable[None]], what: str
    ) -> None:
        table.timer = None  # this timer has fired
        if self.closing or table.runner is not None:
            return  # the runner in place re-arms the table when it ends
        task = asyncio.create_task(self._supervise(table, work, what))
        table.runner = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _supervise(
        self, table: LiveTable, work: Callable[[LiveTable], Awaitable[None]], what: str
    ) -> None:
        try:
            await work(table)
        except asyncio.CancelledError:
            raise
        except Refusal as refusal:  # a failed write: already logged and rolled back
            if refusal.code != "storage":
                log.error(
                    "event=runner_refused table=%d task=%s code=%s", table.id, what, refusal.code
                )
                table.failures += 1
        except Exception as error:
            table.failures += 1
            # The error's type and where it was raised, not its message or a traceback:
            # either could quote a card of a hand.
            log.error(
                "event=runner_failed table=%d task=%s failures=%d error=%s where=%s",
                table.id,
                what,
                table.failures,
                type(error).__name__,
                where(error),
            )
            async with table.lock:
                await self.committer.reload(table)
        finally:
            if table.runner is asyncio.current_task():
                table.runner = None
        self.arm(table)

    async def _recover(self, table: LiveTable) -> None:
        async with table.lock:
            if table.needs_reload:
                await self.committer.reload(table)

    # ---------------------------------------------------------------- the work

    async def _computers_turn(self, table: LiveTable) -> None:
        """Play the computer seats' moves one after another while it is their turn. One
        loop per table (not a task per move); the lock is taken afresh for every commit,
        so a human's press waits at most one commit."""
        while True:
            async with table.lock:
                if table.status != "running" or self.closing or table.needs_reload:
                    return
                if await self._abandon_if_idle(table):
                    return
                match = table.match
                assert match is not None
                # Consecutive computer moves of one table share a commit (group commit
                # per table); none is published before it.
                changes: list[Change] = []
                events: list[Event] = []
                for _ in range(COMPUTER_MOVES_PER_COMMIT):
                    seat = next(
                        (s for s in match.to_act if deadlines.computer_plays(table, s)), None
                    )
                    if seat is None:
                        break
                    events += await self._computer_move(table, seat, changes)
                    table.last_forced = None  # only the last applied move is replayable
                    if (
                        table.status != "running"
                        or table.config.computer_delay_seconds > 0
                        or self.computers.thinks_long(table.config.difficulty)
                    ):
                        break  # publish now rather than after the next slow decision
                if not changes:
                    return
                await self.committer.commit(table, changes, events, row=table.status != "running")
            if table.config.computer_delay_seconds > 0:
                return  # one move per delay: the runner's end schedules the next

    async def _computer_move(
        self, table: LiveTable, seat: int, changes: list[Change]
    ) -> list[Event]:
        match = table.match
        assert match is not None
        view = match.view(seat)
        try:
            # Takeovers and empty seats play at the table's difficulty.
            action: Any = await self.computers.decide(
                table.config.difficulty, match.seed * 4 + seat, view
            )
        except Exception as error:
            # A player that fails must not stall the table: the rules' timeout move is
            # always legal.
            log.error(
                "event=computer_failed table=%d seat=%d error=%s",
                table.id,
                seat,
                type(error).__name__,
            )
            action = match.auto_action(seat) or {}
        try:
            return self.committer.stage(table, seat, action, "computer", changes)
        except Refusal:
            # A computer player's mistake changes nothing (and drops no move staged
            # before it); the rules' timeout move is always legal.
            log.error("event=computer_illegal table=%d seat=%d", table.id, seat)
            fallback = match.auto_action(seat) or {}
            return self.committer.stage(table, seat, fallback, "computer", changes)

    async def _deadline(self, table: LiveTable, token: tuple[int, float]) -> None:
        async with table.lock:
            if (table.seq, table.deadline) != token or not table.live or self.closing:
                return
            if table.needs_reload:
                return
            if table.deadline_kind == "lobby":
                await self.committer.end(table, "expired", [{"type": "lobby_expired"}])
                return
            if table.deadline_kind == "rematch":
                await self.rematch_due(table)  # computers for who did not confirm, then play
                return
            if await self._abandon_if_idle(table):
                return
            match = table.match
            assert match is not None
            forced = table.deadline_kind == "forced"
            for seat in list(match.to_act):
                if table.status != "running" or seat not in match.to_act:
                    continue
                if deadlines.computer_plays(table, seat):
                    continue
                if forced:
                    action = match.forced_action(seat)
                    if action is not None:
                        before = table.seq
                        await self.committer.apply(table, seat, action, "forced")  # TX.12
                        # A press of this move drawn before it is the player's own.
                        table.last_forced = (before, seat, action)
                        continue
                action = match.auto_action(seat)
                if action is not None:
                    await self.committer.apply(table, seat, action, "timeout")
                    table.last_forced = None

    async def _abandon_if_idle(self, table: LiveTable) -> bool:
        """End a running table that no human has touched for too long, recorded as such."""
        if not deadlines.abandon_due(table, self.clock()):
            return False
        await self.committer.end(table, "abandoned", [{"type": "table_abandoned"}])
        return True

    # ---------------------------------------------------------------- tests and shutdown

    async def run_due(self) -> None:
        """Fire every deadline that has passed. Timers do this by themselves; tests with a
        fake clock call it directly."""
        now = self.clock()
        for table in self.registry:
            if table.deadline is not None and table.deadline <= now:
                await self._supervise(
                    table, lambda t: self._deadline(t, (t.seq, t.deadline or 0.0)), "deadline"
                )

    async def settle(self) -> None:
        """Wait until no runner is working (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop timers and runners; a move in flight finishes its commit first."""
        self.closing = True
        for table in self.registry:
            if table.timer is not None:
                table.timer.cancel()
                table.timer = None
        for table in self.registry:
            async with table.lock:
                pass  # wait for an in-flight apply to commit and publish
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
