"""What several processes share through PostgreSQL: the inbox that carries an update to
the process owning its table, the table ids no two processes repeat, and the leases."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from storage.errors import StorageError
from storage.lease import PostgresLease
from storage.postgres import PostgresDatabase
from storage.store import INBOX_CHANNEL, Store
from tests.backends import BackendFactory


@pytest.fixture
async def shared(backend: BackendFactory) -> AsyncIterator[tuple[Store, Store, str]]:
    """Two stores on one PostgreSQL database, as two processes would have."""
    if backend.url is None:
        pytest.skip("several processes share a PostgreSQL database")
    first, second = PostgresDatabase(backend.url), PostgresDatabase(backend.url)
    await first.start()
    await second.start()
    try:
        yield Store(first), Store(second), backend.url
    finally:
        await first.close()
        await second.close()


async def test_every_forwarded_update_is_claimed_exactly_once_in_the_order_left(
    shared: tuple[Store, Store, str],
) -> None:
    one, two, _ = shared
    left = [await one.forward("discord:1", f"update {n}", 1.0) for n in range(300)]
    await one.forward("discord:0", "not for them", 1.0)
    claims = await asyncio.gather(
        *(store.claim(["discord:1"], limit=25) for store in (one, two, one, two) for _ in range(5))
    )
    while batch := await two.claim(["discord:1"], limit=25):
        claims.append(batch)
    taken = [row.id for batch in claims for row in batch]
    assert sorted(taken) == left  # each exactly once: none lost, none twice
    for batch in claims:  # a claim hands its rows over in the order they were left
        assert [row.id for row in batch] == sorted(row.id for row in batch)
    rest = await two.claim(["discord:0", "discord:1"])
    assert [row.payload for row in rest] == ["not for them"]


async def test_a_withdrawn_update_is_never_claimed_and_a_claimed_one_cannot_be_withdrawn(
    shared: tuple[Store, Store, str],
) -> None:
    one, two, _ = shared
    early = await one.forward("telegram", "pressed while nobody owned it", 1.0)
    late = await one.forward("telegram", "claimed first", 1.0)
    assert await one.withdraw(early) is True
    assert [row.id for row in await two.claim(["telegram"])] == [late]
    assert await one.withdraw(late) is False  # the owner has it: never answered twice


async def test_leaving_an_update_wakes_the_process_listening(
    shared: tuple[Store, Store, str],
) -> None:
    one, two, _ = shared
    woken: asyncio.Queue[str] = asyncio.Queue()
    assert isinstance(two.db, PostgresDatabase)
    stop = await two.db.listen(INBOX_CHANNEL, woken.put_nowait)
    try:
        await one.forward("discord:3", "{}", 1.0)
        assert await asyncio.wait_for(woken.get(), 5) == "discord:3"
    finally:
        await stop()


async def test_table_ids_are_never_handed_out_twice_across_processes(
    shared: tuple[Store, Store, str],
) -> None:
    one, two, _ = shared
    ids = await asyncio.gather(*(store.new_table_id() for store in (one, two) for _ in range(50)))
    assert len(set(ids)) == 100 and None not in ids


async def test_the_sqlite_file_counts_table_ids_itself_and_forwards_nothing(
    backend: BackendFactory,
) -> None:
    if backend.url is not None:
        pytest.skip("the SQLite file's behaviour")
    db = backend.make()
    await db.start()
    try:
        store = Store(db)
        assert await store.new_table_id() is None  # one process: the manager counts
        with pytest.raises(StorageError, match="PostgreSQL"):
            await store.forward("telegram", "{}", 1.0)
    finally:
        await db.close()


async def test_leases_are_taken_all_or_none_and_freed_when_their_holder_goes(
    shared: tuple[Store, Store, str],
) -> None:
    _, _, url = shared
    first, second, third = PostgresLease(url), PostgresLease(url), PostgresLease(url)
    try:
        assert await first.take(["discord:0/2"])
        assert not await second.take(["discord:1/2", "discord:0/2"])  # one is held
        assert await third.take(["discord:1/2"])  # so the other was not kept by the try
        assert await first.held() and await third.held()
        await first.release()  # as a dead process's session ends
        assert await second.take(["discord:0/2"])
        stopping = asyncio.Event()
        stopping.set()
        assert not await first.acquire(stopping, ["discord:0/2"])  # stops while waiting
    finally:
        for lease in (first, second, third):
            await lease.release()
