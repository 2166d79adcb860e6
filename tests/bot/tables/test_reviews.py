"""Deal reviews off the hot path (issue 35, item 6): a scored deal's analysis is made in a
worker thread right after the deal and stored; asks at the same time share one analysis;
a failing analysis is logged in one line naming no card, and the deal has none."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.delivery.router import PlatformRouter
from bot.tables import TableManager
from bot.tables.commands import Press
from bot.tables.live import LiveTable, Place
from bot.tables.reviews import NONE, PENDING, Reviews
from engine.players import HeuristicPlayer
from engine.records import DealRecord
from storage.database import Database
from tests.bot.support import configured_logs, until
from tests.bot.tables.conftest import PLAYERS
from tests.bot.web.pages import cards_named


def tricks_taken(variant: str, deal: DealRecord) -> dict[str, Any]:
    """A small real analysis: the tricks each seat took."""
    taken = [0, 0, 0, 0]
    for trick in deal.tricks:
        taken[trick.winner] += 1
    return {"status": "done", "tricks": taken}


class Counted:
    """``tricks_taken`` in the worker thread, counting its calls; it waits for ``go``."""

    def __init__(self) -> None:
        self.calls = 0
        self.threads: set[int] = set()
        self.go = threading.Event()

    def __call__(self, variant: str, deal: DealRecord) -> dict[str, Any]:
        self.calls += 1
        self.threads.add(threading.get_ident())
        assert self.go.wait(30), "the test never let the analysis go on"
        return tricks_taken(variant, deal)


@pytest.fixture
async def played(tmp_path: Path) -> AsyncIterator[tuple[TableManager, LiveTable, Reviews]]:
    """A table whose first deals were played to a scored one, its analysis scheduled
    by the router's listener as it was scored."""
    db = Database(tmp_path / "reviews.sqlite")
    await db.start()
    router = PlatformRouter()
    manager = TableManager(db, router)
    reviews = Reviews(manager.store, tricks_taken)
    router.listen(reviews)
    await manager.start()
    table = await manager.create(Place("test", "c"), PLAYERS[0], {"variant": "syrian41"})
    for _ in range(3):
        await manager.add_computer(table.id, PLAYERS[0].user_id)
    await manager.begin(table.id, PLAYERS[0].user_id)
    scored: list[int] = []
    while not scored:
        match = table.match
        assert match is not None
        if 0 in match.to_act:
            action = HeuristicPlayer().decide(match.view(0))
            press = Press(table_id=table.id, version=table.seq, action=action, player=PLAYERS[0])
            await manager.press(press)
        await manager.settle()
        scored = [e["deal_number"] for e in match.view(None)["history"] if "tricks" in e]
    try:
        yield manager, table, reviews
    finally:
        await reviews.close()
        await manager.close()
        await db.close()


async def scored_deal(reviews: Reviews, table: LiveTable) -> tuple[str, DealRecord]:
    record = await reviews.record(table.id)
    assert record is not None
    deal = next(deal for deal in record.deals if deal.scored)
    return record.variant, deal


async def test_a_scored_deal_is_analysed_right_after_it_and_stored(
    played: tuple[TableManager, LiveTable, Reviews],
) -> None:
    manager, table, reviews = played
    variant, deal = await scored_deal(reviews, table)
    await reviews.settle()
    stored = await manager.store.review(table.id, deal.number)
    assert stored is not None and stored.analysis == tricks_taken(variant, deal)
    assert sum(stored.analysis["tricks"]) == 13
    # Asked for again, it is read, not made again (an analysis that fails would say so).
    again = Reviews(manager.store, lambda v, d: 1 / 0)  # type: ignore[arg-type, return-value]
    assert await again.analysis(table.id, variant, deal, 30) == stored.analysis


async def test_asks_at_the_same_time_share_one_analysis_in_a_worker_thread(
    played: tuple[TableManager, LiveTable, Reviews],
) -> None:
    manager, table, _ = played
    counted = Counted()
    # Version 2: the stored analysis is older, so it is made again, on demand.
    reviews = Reviews(manager.store, counted, version=2)
    variant, deal = await scored_deal(reviews, table)
    asks = [asyncio.create_task(reviews.analysis(table.id, variant, deal, 30)) for _ in range(3)]
    await until(lambda: counted.calls == 1, "the analysis started")
    assert await reviews.analysis(table.id, variant, deal, 0) == PENDING  # not done yet
    counted.go.set()
    results = await asyncio.gather(*asks)
    assert results == [tricks_taken(variant, deal)] * 3
    assert counted.calls == 1 and threading.get_ident() not in counted.threads
    stored = await manager.store.review(table.id, deal.number)
    assert stored is not None and stored.version == 2
    await reviews.close()


async def test_a_failing_analysis_is_logged_without_a_card_and_the_deal_has_none(
    played: tuple[TableManager, LiveTable, Reviews],
) -> None:
    manager, table, _ = played

    def broken(variant: str, deal: DealRecord) -> dict[str, Any]:
        raise ValueError(f"cannot solve {deal.hands[0]}")  # its message names cards

    reviews = Reviews(manager.store, broken, version=3)
    variant, deal = await scored_deal(reviews, table)
    with configured_logs() as logs:
        assert await reviews.analysis(table.id, variant, deal, 30) == NONE
        assert await reviews.analysis(table.id, variant, deal, 30) == NONE  # not tried again
    lines = [line for line in logs.getvalue().splitlines() if "review_failed" in line]
    assert len(lines) == 1 and "error=ValueError" in lines[0]
    assert cards_named(logs.getvalue()) == set()
    without = Reviews(manager.store, None)
    assert await without.analysis(table.id, variant, deal, 30) == NONE
