"""Pages on a process that does not own their table (several processes on one PostgreSQL
database, no sticky sessions): two processes' worth of manager, inbox and web table in one
test, sharing a database. The pages of one table, split across both, see every move at
once and only their own cards; a move from the process that does not own the table is
carried out by its owner through the one apply path, and a refusal comes back to the page
that made it."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.cluster.inbox import Inbox
from bot.cluster.partitions import Ownership
from bot.delivery.router import PlatformRouter
from bot.tables import TableManager
from bot.tables.live import LiveTable, Place
from bot.web import presence, remote
from bot.web.app import web_table
from bot.web.remote import RemotePages
from bot.web.server import WebTable
from bot.web.socket import Visitor
from storage.postgres import PostgresDatabase
from tests.backends import BackendFactory
from tests.bot.web.pages import until
from tests.bot.web.support import (
    CARD,
    GROUP,
    TOKEN,
    Members,
    Page,
    forge_init_data,
    player,
)

HUMANS = [501, 502, 503, 504]


@dataclass
class Process:
    manager: TableManager
    router: PlatformRouter
    web: WebTable
    remote: RemotePages

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web.port}"


@asynccontextmanager
async def process(url: str, owns: set[str], stack: AsyncExitStack) -> AsyncIterator[Process]:
    db = PostgresDatabase(url)
    await db.start()
    stack.push_async_callback(db.close)
    router = PlatformRouter()
    manager = TableManager(db, router)
    stack.push_async_callback(manager.close)
    ownership = Ownership(held=set(owns))
    inbox = Inbox(manager.store, ownership)
    await inbox.start()
    stack.push_async_callback(inbox.close)
    web = await web_table(manager, router, public_url="http://127.0.0.1:9", telegram_token=TOKEN)
    web.gate.members["telegram"] = Members()  # as the runner wires Telegram's own
    pages = web.remote = RemotePages(manager, web.hub, inbox, ownership)
    await pages.start()
    stack.push_async_callback(pages.close)
    await web.start("127.0.0.1", 0)
    stack.push_async_callback(web.stop)
    yield Process(manager, router, web, pages)


async def opened(http: aiohttp.ClientSession, where: Process, user: int, table: int) -> Page:
    who = {"id": user, "first_name": f"P{user}", "language_code": "en"}
    launch = forge_init_data(who, TOKEN, f"t{table}", int(time.time()) - 5)
    ws = await http.ws_connect(where.url + "/ws")
    await ws.send_json({"type": "hello", "init_data": launch})
    page = Page(ws)
    await page.until("welcome")
    return page


async def state_at(page: Page, version: int) -> dict[str, Any]:
    while True:
        state = await page.state()
        if state["version"] >= version:
            return state


@asynccontextmanager
async def two_processes(
    url: str, owns: str = "telegram"
) -> AsyncIterator[tuple[Process, Process, aiohttp.ClientSession]]:
    """The owner of ``owns``'s tables and a process that owns nothing, on one database."""
    async with (
        AsyncExitStack() as stack,
        process(url, {owns}, stack) as owner,
        process(url, set(), stack) as other,
        aiohttp.ClientSession() as http,
    ):
        yield owner, other, http


@pytest.fixture
async def postgres(backend: BackendFactory) -> str:
    if backend.url is None:
        pytest.skip("processes share a database on PostgreSQL")
    return backend.url


async def running_table(owner: Process) -> LiveTable:
    first, *others = HUMANS
    table = await owner.manager.create(GROUP, player(first, f"P{first}"), {"variant": "syrian41"})
    for user in others:
        await owner.manager.join(table.id, player(user, f"P{user}"))
    await owner.manager.begin(table.id, str(first))
    return table


async def test_pages_on_both_processes_see_every_move_and_only_their_own_cards(
    postgres: str,
) -> None:
    async with two_processes(postgres) as (owner, other, http):
        table = await running_table(owner)
        match = table.match
        assert match is not None
        # Seats 0 and 1 reach the owner, seats 2 and 3 the other process.
        pages = [
            await opened(http, owner if seat < 2 else other, user, table.id)
            for seat, user in enumerate(HUMANS)
        ]
        for seat, page in enumerate(pages):
            state = await page.state()
            assert state["you"] == seat and state["version"] == table.seq
            assert sorted(card["card"] for card in state["hand"]) == sorted(match.hand(seat))
        assert table.id in other.remote.tables and table.id not in other.manager.registry
        for _ in range(8):  # bids and cards, from whichever process the seat is on
            seat = match.to_act[0]
            version = table.seq
            action = match.legal_actions(seat)[0]
            if action["type"] == "bid":
                action = {"type": "bid", "value": 3}  # four of 3 reach T41.6's total
            await pages[seat].ws.send_json({"type": "move", "version": version, "action": action})
            for other_seat, page in enumerate(pages):
                state = await state_at(page, version + 1)
                assert state["version"] == version + 1 == table.seq
                held = {c for s in range(4) if s != other_seat for c in match.hand(s)}
                assert not held & set(CARD.findall(str(state).replace("'", '"')))
        # Seats 2 and 3 moved through the other process: their moves went to the owner.
        assert other.remote.inbox.forwarded >= 2 and owner.remote.inbox.handled >= 2


async def test_a_refused_move_from_the_other_process_comes_back_to_its_page(
    postgres: str,
) -> None:
    async with two_processes(postgres) as (owner, other, http):
        table = await running_table(owner)
        match = table.match
        assert match is not None
        seat = match.to_act[0]
        page = await opened(http, other, HUMANS[seat], table.id)
        await page.state()
        version = table.seq
        action = match.legal_actions(seat)[0]
        await page.ws.send_json({"type": "move", "version": version + 5, "action": action})
        refused = await page.until("refused")
        assert refused["code"] == "stale" and refused["message"]
        assert table.seq == version
        waiting = (seat + 1) % 4  # not their turn: refused by the owner's turn check
        second = await opened(http, other, HUMANS[waiting], table.id)
        await second.state()
        await second.ws.send_json({"type": "move", "version": version, "action": action})
        assert (await second.until("refused"))["code"] == "not_your_turn"
        assert table.seq == version
        await page.ws.send_json({"type": "move", "version": version, "action": action})
        assert (await state_at(page, version + 1))["version"] == version + 1 == table.seq


async def test_a_watcher_on_the_other_process_sees_the_public_table(postgres: str) -> None:
    async with two_processes(postgres) as (owner, other, http):
        table = await running_table(owner)
        page = await opened(http, other, 999, table.id)
        state = await page.state()
        assert state["you"] is None and state["hand"] == [] and state["decisions"] == []
        assert [seat["name"] for seat in state["seats"]] == [f"P{u}" for u in HUMANS]


async def test_a_discord_page_s_move_reaches_the_process_running_every_shard(
    postgres: str,
) -> None:
    """A process that runs all of Discord's shards owns ``discord:*``: a page's move left
    for that partition is claimed there too."""
    async with two_processes(postgres, "discord:*") as (owner, other, http):
        place = Place("discord", "5550", "", "7770")
        players = [player(user, f"P{user}") for user in HUMANS]
        table = await owner.manager.create(place, players[0], {"variant": "syrian41"})
        for each in players[1:]:
            await owner.manager.join(table.id, each)
        await owner.manager.begin(table.id, players[0].user_id)
        match = table.match
        assert match is not None
        seat = match.to_act[0]
        visitor = Visitor("discord", str(HUMANS[seat]), f"P{HUMANS[seat]}", "en", table.id)
        ws = await http.ws_connect(other.url + "/ws")
        await ws.send_json({"type": "hello", "session": other.web.gate.session(visitor, table.id)})
        page = Page(ws)
        assert (await page.until("welcome"))["seat"] == seat
        version = table.seq
        await ws.send_json(
            {"type": "move", "version": version, "action": {"type": "bid", "value": 3}}
        )
        assert (await state_at(page, version + 1))["version"] == version + 1 == table.seq


class PagesSeen:
    """The owner's platform as the router sees it: what it is told of pages."""

    def __init__(self) -> None:
        self.seats: dict[int, frozenset[int]] = {}

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        return None

    def pages_changed(self, table: LiveTable, seats: frozenset[int]) -> None:
        self.seats[table.id] = seats


async def test_the_owner_spares_the_hand_of_a_seat_whose_page_is_on_another_process(
    postgres: str,
) -> None:
    async with two_processes(postgres) as (owner, other, http):
        seen = PagesSeen()
        owner.router.add("telegram", seen)
        table = await running_table(owner)
        here = await opened(http, owner, HUMANS[0], table.id)
        there = await opened(http, other, HUMANS[2], table.id)
        await until(lambda: seen.seats.get(table.id) == frozenset({0, 2}), "both pages known")
        await there.ws.close()  # the page on the other process closes: its hand is due
        await until(lambda: seen.seats.get(table.id) == frozenset({0}), "the page gone")
        await here.ws.close()


async def test_the_pages_of_a_process_that_stops_saying_them_are_forgotten(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that died says nothing more: the owner forgets its pages after
    PRESENCE_EXPIRES, and the seat's private hand is due again."""
    monkeypatch.setattr(remote, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(presence, "PRESENCE_SECONDS", 0.1)
    monkeypatch.setattr(presence, "PRESENCE_EXPIRES", 0.5)
    async with two_processes(postgres) as (owner, other, http):
        seen = PagesSeen()
        owner.router.add("telegram", seen)
        table = await running_table(owner)
        there = await opened(http, other, HUMANS[2], table.id)
        await until(lambda: seen.seats.get(table.id) == frozenset({2}), "the page known")
        heard = owner.remote.presence.last_heard
        first = heard(table.id, other.remote.process)
        assert first is not None
        # Said again and again, for longer than an unsaid page is kept: still known.
        await until(
            lambda: (heard(table.id, other.remote.process) or 0) > first + 0.5,
            "said again past the expiry",
        )
        assert seen.seats[table.id] == frozenset({2})
        await other.remote.close()  # the other process falls silent, its page still open
        await until(lambda: seen.seats.get(table.id) == frozenset(), "the page forgotten")
        await there.ws.close()
