"""How long a credential opens a page (issue 32, items 6 and 7): launch data for an hour
after Telegram signed it; a personal link once on every process of an installation (its
use kept in the database they share, on SQLite and on PostgreSQL); a session no longer
than ``ENDED_GRACE`` after its table ended."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.delivery.router import PlatformRouter
from bot.tables import TableManager
from bot.web.app import signing_secret
from bot.web.auth import LINK_SECONDS, Signer
from bot.web.frames import Hello
from bot.web.identity import ENDED_GRACE, LIVE_RECHECK, Denied, Gate
from bot.web.socket import Visitor
from storage.store import Store
from tests.backends import BackendFactory
from tests.bot.web.support import GROUP, Clock, Page, player, site

ALI = player(201, "Ali")


@contextlib.asynccontextmanager
async def gate_on(backend: BackendFactory, clock: Clock) -> AsyncIterator[Gate]:
    """A process's gate: its own connection to the installation's database."""
    db = backend.make()
    await db.start()
    try:
        store = Store(db)
        yield Gate(Signer(await signing_secret(store)), store, clock=clock)
    finally:
        await db.close()


def link_for(gate: Gate, user: str = "4242", table: int = 9) -> str:
    return gate.signer.issue(
        "link",
        platform="discord",
        user_id=user,
        table=table,
        name="Carla",
        language="en",
        expires=gate.clock() + LINK_SECONDS,
    )


async def test_a_link_exchanged_on_one_process_is_refused_on_another(
    backend: BackendFactory,
) -> None:
    """Measured before: exchanged on the first process, welcomed again on the second."""
    clock = Clock()
    async with gate_on(backend, clock) as first, gate_on(backend, clock) as second:
        link = link_for(first)
        visitor = await first.admit(Hello(type="hello", link=link))
        assert (visitor.platform, visitor.user_id, visitor.table) == ("discord", "4242", 9)
        for gate in (second, first):
            with pytest.raises(Denied) as denied:
                await gate.admit(Hello(type="hello", link=link))
            assert (denied.value.code, denied.value.reason) == ("bad_link", "used")
        # One link pressed into two processes at the same moment: one session, not two.
        other = link_for(first, user="4343")
        answers = await asyncio.gather(
            first.admit(Hello(type="hello", link=other)),
            second.admit(Hello(type="hello", link=other)),
            return_exceptions=True,
        )
        assert sorted(type(answer).__name__ for answer in answers) == ["Denied", "Visitor"]


async def test_a_session_ends_a_few_minutes_after_its_table(backend: BackendFactory) -> None:
    clock = Clock()
    db = backend.make()
    await db.start()
    manager = TableManager(db, PlatformRouter(), clock=clock)
    await manager.start()
    try:
        table = await manager.create(GROUP, ALI, {"variant": "syrian41"})
        gate = Gate(Signer(await signing_secret(manager.store)), manager.store, clock=clock)
        visitor = Visitor("telegram", ALI.user_id, ALI.name, "en", table.id)
        session = Hello(type="hello", session=gate.session(visitor, table.id))
        assert (await gate.admit(session)).table == table.id  # live: seen, and kept a while
        clock.now += 30
        await manager.stop(table.id, ALI.user_id)
        ended = clock.now
        assert await gate.admit(session)  # seen live 30 s ago: the grace covers it
        clock.now = ended + ENDED_GRACE - 1  # the result, and Rematch, for a while
        assert await gate.admit(session)
        clock.now = ended + ENDED_GRACE + 1
        with pytest.raises(Denied) as denied:
            await gate.admit(session)
        assert (denied.value.code, denied.value.reason) == ("bad_session", "table_over")
        # Another process (a fresh gate, nothing remembered) reads the same end.
        again = Gate(gate.signer, manager.store, clock=clock)
        with pytest.raises(Denied):
            await again.admit(session)
    finally:
        await manager.close()
        await db.close()


def test_a_live_table_is_read_again_well_within_the_grace() -> None:
    assert LIVE_RECHECK < ENDED_GRACE <= 15 * 60


async def refused(page: Page) -> dict[str, object]:
    """The refusal a page got; nothing else came before it, and the socket then closed."""
    frame = await page.frame()
    assert frame["type"] == "error" and frame["fatal"] is True, frame
    with pytest.raises(ConnectionError):
        await page.frame()
    return frame


async def test_launch_data_two_hours_old_is_refused_and_half_an_hour_old_welcomed(
    tmp_path: Path,
) -> None:
    """Measured before: two-hour-old initData welcomed into seat 1."""
    async with site(tmp_path) as run:
        table = await run.table([201, 202])
        page = await run.open({"init_data": run.launch(202, table.id, age=2 * 3600)})
        assert (await refused(page))["code"] == "bad_launch"
        page = await run.open({"init_data": run.launch(202, table.id, age=30 * 60)})
        assert (await page.until("welcome"))["seat"] == 1


async def test_a_page_resumes_after_its_table_ended_for_a_while_then_is_refused(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table([201])
        page = await run.open({"init_data": run.launch(201, table.id)})
        session = (await page.until("welcome"))["session"]
        await page.ws.close()
        await run.manager.stop(table.id, "201")
        run.clock.now += ENDED_GRACE - 60  # a reload to read the result: still welcome
        page = await run.open({"session": session})
        assert (await page.until("welcome"))["seat"] == 0
        assert (await page.state())["status"] == "stopped"
        await page.ws.close()
        run.clock.now += 120
        page = await run.open({"session": session})
        assert (await refused(page))["code"] == "bad_session"
