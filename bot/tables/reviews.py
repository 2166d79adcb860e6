"""Each finished deal's analysis, made off the event loop and kept with the match.

A deal's analysis (the double-dummy marks of issue 35) is a solver's work: tens of
milliseconds or more of CPU. It never runs on the event loop that applies moves. Right
after a deal is scored (``hand_scored``: this is one of the router's listeners) it is
scheduled in a worker thread, at most ``at_once`` at a time so a busy process keeps its
cores for the tables, and stored (``deal_reviews``); a replay asked for
before that is done joins the same computation (one per deal, however many ask), or makes
it on demand for a deal that ended before this process ran.

The analysis itself is injected (``analyse``): the runner passes the engine's, and None
leaves every deal without one (``{"status": "none"}``). A failure is logged in one line
that names no card, and that deal says ``none`` too; the table never notices.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from bot.logs import where
from bot.tables.config import TableConfig
from bot.tables.live import LiveTable
from engine.records import DealRecord, MatchRecord, replay
from engine.review import VERSION as REVIEW_VERSION
from engine.review import review_deal
from storage.errors import StorageError
from storage.records import StoredReview
from storage.store import Store

log = logging.getLogger("sahra.reviews")

# (variant, the deal as dealt and played) → the analysis, JSON-ready.
Analyse = Callable[[str, DealRecord], dict[str, Any]]
# The analysis's own version, stored with it: one made by an older analysis is made again.
ANALYSIS_VERSION = REVIEW_VERSION
AT_ONCE = 1  # analyses running at once: a solver's thread per core would starve the tables
FAILED_KEPT = 1000  # deals whose analysis failed, not tried again (the oldest are forgotten)
PENDING: dict[str, Any] = {"status": "pending"}
NONE: dict[str, Any] = {"status": "none"}


def deal_analysis(variant: str, deal: DealRecord) -> dict[str, Any]:
    """The engine's review of a finished deal (``engine/review.py``), JSON-ready: the
    analysis the runner gives every web table."""
    return review_deal(variant, deal).to_dict()


class Reviews:
    def __init__(
        self,
        store: Store,
        analyse: Analyse | None = None,
        *,
        at_once: int = AT_ONCE,
        version: int = ANALYSIS_VERSION,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.analyse = analyse
        self.version = version
        self.clock = clock
        self._slots = asyncio.Semaphore(at_once)
        self._running: dict[tuple[int, int], asyncio.Task[dict[str, Any]]] = {}
        self._failed: dict[tuple[int, int], None] = {}  # insertion-ordered: oldest first

    # ---------------------------------------------------------------- the router's listener

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        """A committed change: a deal that just ended has its analysis scheduled (never
        awaited here: the router goes on to the next listener at once)."""
        if self.analyse is None:
            return
        for event in events:
            # A deal cancelled and redealt (T41.6) had no play: nothing to analyse.
            if event["type"] == "hand_scored" and "to" not in event:
                number = int(event.get("deal_number") or 0)
                if number > 0:
                    self._start(table.id, number, None)

    # ---------------------------------------------------------------- for a replay

    async def record(self, table_id: int) -> MatchRecord | None:
        """The table's match as its log says now (replayed in a worker thread)."""
        stored = await self.store.load_table(table_id)
        if stored is None or stored.table.status == "lobby" or not stored.actions:
            return None
        row = stored.table
        options = TableConfig.model_validate_json(row.config).engine_options()
        moves = [(action.seat, action.action) for action in stored.actions]
        return await asyncio.to_thread(replay, row.variant, options, row.seed, row.decks, moves)

    async def ended_deal(self, table_id: int, number: int) -> tuple[str, DealRecord] | None:
        """The variant and the record of deal ``number`` if it has ended (scored, or
        cancelled and redealt); None for the deal being played, one still to come, or
        one that never was."""
        record = await self.record(table_id)
        if record is None:
            return None
        for deal in record.deals:
            if deal.number == number and deal.finished:
                return record.variant, deal
        return None

    async def analysis(
        self, table_id: int, variant: str, deal: DealRecord, wait: float
    ) -> dict[str, Any]:
        """The deal's analysis: stored, or made now (joining one already running); after
        ``wait`` seconds ``pending`` (it goes on, and is stored for the next ask)."""
        if self.analyse is None or not deal.scored:
            return NONE
        task = self._start(table_id, deal.number, (variant, deal))
        try:
            return await asyncio.wait_for(asyncio.shield(task), wait)
        except TimeoutError:
            return PENDING

    async def settle(self) -> None:
        """Wait until every analysis scheduled so far is done (tests)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop waiting for analyses (a thread already solving finishes on its own)."""
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---------------------------------------------------------------- the work

    def _start(
        self, table_id: int, number: int, found: tuple[str, DealRecord] | None
    ) -> asyncio.Task[dict[str, Any]]:
        key = (table_id, number)
        task = self._running.get(key)
        if task is None:
            task = asyncio.create_task(self._made(table_id, number, found))
            self._running[key] = task
            task.add_done_callback(lambda _: self._running.pop(key, None))
        return task

    async def _made(
        self, table_id: int, number: int, found: tuple[str, DealRecord] | None
    ) -> dict[str, Any]:
        """Supervised: whatever goes wrong is logged and the deal has no analysis."""
        key = (table_id, number)
        if key in self._failed:
            return NONE
        try:
            stored = await self.store.review(table_id, number)
            if stored is not None and stored.version >= self.version:
                return stored.analysis
            async with self._slots:
                if found is None:
                    found = await self.ended_deal(table_id, number)
                if found is None or not found[1].scored or self.analyse is None:
                    return NONE
                analysis = await asyncio.to_thread(self.analyse, *found)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            # One line, no card: the error's kind and where, never its message.
            log.error(
                "event=review_failed table=%d deal=%d error=%s where=%s",
                table_id,
                number,
                type(error).__name__,
                where(error),
            )
            self._failed[key] = None
            if len(self._failed) > FAILED_KEPT:
                self._failed.pop(next(iter(self._failed)))
            return NONE
        review = StoredReview(table_id, number, self.version, analysis, self.clock())
        try:
            await self.store.save_review(review)
        except StorageError as error:  # made all the same: shown now, made again later
            log.warning(
                "event=review_not_stored table=%d deal=%d error=%s",
                table_id,
                number,
                type(error.__cause__ or error).__name__,
            )
        return analysis
