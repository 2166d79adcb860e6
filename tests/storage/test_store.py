"""The typed store: changes in, records out, and the writer keeps every job's order."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.backend import Backend
from storage.database import Database
from storage.errors import Conflict
from storage.league import Counted, LeagueStore, Rating
from storage.records import (
    ActionAppended,
    ActionRecord,
    ResultRecord,
    ResultRecorded,
    SeatRecord,
    SeatSet,
    StoredReview,
    TableCreated,
    TableRecord,
    TableUpdated,
)
from storage.store import SPENT_MARGIN, SPENT_PURGE_SECONDS, Store
from tests.backends import BackendFactory


def table(table_id: int, chat: str, status: str = "lobby") -> TableRecord:
    return TableRecord(
        id=table_id,
        platform="test",
        chat=chat,
        thread="",
        variant="syrian41",
        config='{"variant":"syrian41"}',
        seed=7,
        decks=None,
        status=status,
        creator="u1",
        created_at=1.0,
        updated_at=1.0,
        last_human_at=1.0,
        deadline=61.0,
        deadline_kind="lobby",
    )


def seat(index: int, owner: str) -> SeatRecord:
    return SeatRecord(index, "human", owner, f"Player {owner}", "en")


@contextlib.asynccontextmanager
async def opened(backend: BackendFactory) -> AsyncIterator[Backend]:
    db = backend.make("FULL")
    await db.start()
    try:
        yield db
    finally:
        await db.close()


async def test_a_table_round_trips_with_its_seats_and_log(backend: BackendFactory) -> None:
    async with opened(backend) as db:
        store = Store(db)
        await store.commit([TableCreated(table(1, "c")), SeatSet(1, 0, seat(0, "u1"))])
        moves = [
            ActionRecord(seq, 0, {"type": "bid", "value": 2 + seq}, "human", 2.0) for seq in (1, 2)
        ]
        await store.commit(
            [
                TableUpdated(1, "running", 0, 2.0, 2.0, 62.0, "turn"),
                *(ActionAppended(1, move) for move in moves),
            ]
        )
        stored = await store.load_table(1)
        assert stored is not None
        assert stored.table.status == "running" and stored.table.deadline == 62.0
        assert stored.seats == [seat(0, "u1")]
        assert stored.actions == moves
        assert [s.table.id for s in await store.live_tables()] == [1]
        assert await store.max_table_id() == 1


async def test_a_second_live_table_at_one_place_is_a_conflict(backend: BackendFactory) -> None:
    async with opened(backend) as db:
        store = Store(db)
        await store.commit([TableCreated(table(1, "c"))])
        with pytest.raises(Conflict):
            await store.commit([TableCreated(table(2, "c"))])
        assert await store.load_table(2) is None
        with pytest.raises(Conflict):  # a move number already in the log
            move = ActionRecord(1, 0, {"type": "bid", "value": 2}, "human", 2.0)
            await store.commit([ActionAppended(1, move), ActionAppended(1, move)])
        assert (await store.load_table(1)).actions == []  # type: ignore[union-attr]


async def test_a_whole_result_and_its_league_rows_round_trip(backend: BackendFactory) -> None:
    """Floats keep double precision (PostgreSQL's REAL would not), JSON lists survive,
    and writing a result again asks the league to count it again."""
    async with opened(backend) as db:
        store = Store(db)
        league = LeagueStore(db)
        await store.commit([TableCreated(table(1, "c", "running"))])
        result = ResultRecord(1, "syrian41", "finished", 1_796_000_000.123456, [0, 2], False,
                              [41, 3, 12, -5], ["u1", None, "u3", None], [2])  # fmt: skip
        await store.commit([ResultRecorded(result)])
        assert await store.result(1) == result
        assert [w.table_id for w in await league.waiting()] == [1]
        rating = Rating("u1", 27.123456789, 7.5, 1, 1)
        done = await league.record(1, "test", "tarneeb", [], [(None, rating)], 5.0)
        assert done is Counted.DONE
        assert await league.waiting() == []
        assert (await league.ratings("test", "tarneeb", ["u1"]))["u1"].mu == 27.123456789
        await store.commit([ResultRecorded(result)])
        assert [w.table_id for w in await league.waiting()] == [1]


async def test_a_match_is_claimed_once_and_a_rating_written_only_over_the_one_read(
    backend: BackendFactory,
) -> None:
    """Two processes' stores on one database: the second count of a match writes nothing,
    and a count computed from a rating another count has since moved writes nothing
    either (the caller computes it again), so neither update is lost."""
    async with opened(backend) as db, opened(backend) as other:
        store, first, second = Store(db), LeagueStore(db), LeagueStore(other)
        for table_id in (1, 2):
            await store.commit([TableCreated(table(table_id, f"c{table_id}", "running"))])
            result = ResultRecord(table_id, "syrian41", "finished", float(table_id), [0, 2],
                                  False, [41, 3, 12, -5], ["u1", None, None, None])  # fmt: skip
            await store.commit([ResultRecorded(result)])
        one = Rating("u1", 26.0, 8.0, 1, 1)
        assert await first.record(1, "test", "tarneeb", [], [(None, one)], 5.0) is Counted.DONE
        # The same match, counted from the same (empty) ratings by the other process.
        assert await second.record(1, "test", "tarneeb", [], [(None, one)], 5.0) is Counted.TAKEN
        # Match 2 computed from no rating (read before match 1 was written): refused.
        two = Rating("u1", 27.0, 7.0, 1, 1)
        assert await second.record(2, "test", "tarneeb", [], [(None, two)], 6.0) is Counted.STALE
        assert [w.table_id for w in await second.waiting()] == [2]
        two = Rating("u1", 27.0, 7.0, 2, 2)
        assert await second.record(2, "test", "tarneeb", [], [(one, two)], 6.0) is Counted.DONE
        assert await first.all_ratings() == [("test", "tarneeb", two)]
        assert await first.waiting() == []


async def test_the_writer_keeps_each_job_s_statements_in_order(tmp_path: Path) -> None:
    """A batch of jobs whose statements would fail if grouped by SQL text across jobs (a
    seat of table 2 before table 2's row) commits as one batch, in order."""
    async with Database.open(tmp_path / "s.sqlite") as db:
        store = Store(db)
        await store.commit([TableCreated(table(1, "a"))])
        before = db.stats.batches
        await asyncio.gather(
            store.commit([SeatSet(1, 0, seat(0, "u1"))]),
            store.commit([TableCreated(table(2, "b")), SeatSet(2, 0, seat(0, "u2"))]),
            store.commit([SeatSet(1, 1, seat(1, "u3"))]),
        )
        assert db.stats.batches == before + 1  # one commit; no rollback and retry per job
        assert db.stats.largest_batch == 3
        stored = await store.load_table(2)
        assert stored is not None and stored.seats == [seat(0, "u2")]


async def test_a_refused_conditional_write_in_a_batch_undoes_only_itself(tmp_path: Path) -> None:
    """Jobs queued together with a ``write_if`` whose guard changes no row all commit; of
    the conditional write nothing is kept, not even the guards before the failing one."""
    async with Database.open(tmp_path / "s.sqlite") as db:
        store = Store(db)
        await store.commit([TableCreated(table(1, "a"))])
        rename = "UPDATE tables SET chat = ? WHERE id = ?"
        results = await asyncio.gather(
            store.commit([SeatSet(1, 0, seat(0, "u1"))]),
            db.write_if([(rename, ("renamed", 1)), (rename, ("x", 99))], (rename, ("y", 1))),
            store.commit([SeatSet(1, 1, seat(1, "u2"))]),
            db.write_if([(rename, ("kept", 1))]),
        )
        assert results[1] is False and results[3] is True
        stored = await store.load_table(1)
        assert stored is not None and stored.table.chat == "kept"
        assert stored.seats == [seat(0, "u1"), seat(1, "u2")]


async def test_a_link_is_spent_once_for_every_process_and_dropped_after_it_expires(
    backend: BackendFactory,
) -> None:
    """Issue 32, item 7: two processes (two connections to one database) exchange one link
    at once: exactly one of them spends it, and neither can again. Rows of links long
    expired are dropped with a later claim."""
    async with opened(backend) as first, opened(backend) as second:
        here, there = Store(first), Store(second)
        claims = await asyncio.gather(
            here.spend_link("n1", 1600.0, now=1000.0),
            there.spend_link("n1", 1600.0, now=1000.0),
        )
        assert sorted(claims) == [False, True]
        assert not await here.spend_link("n1", 1600.0, now=1001.0)
        assert not await there.spend_link("n1", 1600.0, now=1001.0)
        assert await there.spend_link("n2", 1600.0, now=1001.0)  # each link its own nonce
        # Far past their expiry (and the margin kept for clocks that differ): dropped.
        later = 1600.0 + SPENT_MARGIN + SPENT_PURGE_SECONDS + 1
        assert await here.spend_link("n3", later + 600, now=later)
        rows = await first.fetchall("SELECT nonce FROM spent_links ORDER BY nonce")
        assert [row["nonce"] for row in rows] == ["n3"]


async def test_a_deal_review_round_trips_and_a_newer_version_replaces_it(
    backend: BackendFactory,
) -> None:
    """Issue 35, item 6: a finished deal's analysis is kept with its match, one row per
    (table, deal); made again by a newer analysis it replaces the old one."""
    async with opened(backend) as db:
        store = Store(db)
        await store.commit([TableCreated(table(1, "c", "running"))])
        assert await store.review(1, 2) is None
        first = StoredReview(1, 2, 1, {"status": "done", "lost": [0, 1, 0, 2]}, 10.5)
        await store.save_review(first)
        await store.save_review(StoredReview(1, 3, 1, {"status": "done"}, 11.0))
        assert await store.review(1, 2) == first
        newer = StoredReview(1, 2, 2, {"status": "done", "lost": [0, 0, 0, 0]}, 12.0)
        await store.save_review(newer)
        assert await store.review(1, 2) == newer
        assert await store.review(1, 4) is None
        assert await store.review(2, 2) is None
