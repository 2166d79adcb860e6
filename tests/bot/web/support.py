"""What the web table's tests share: launch data signed exactly as Telegram signs it, and a
real web table (server, hub, gate) around a real table manager on a SQLite file."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import urllib.parse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

import engine
from bot.delivery.router import PlatformRouter
from bot.tables import PlayerRef, TableManager
from bot.tables.live import LiveTable, Place
from bot.tables.pace import Pace
from bot.tables.reviews import Analyse
from bot.web.activity import DiscordActivity
from bot.web.app import web_table
from bot.web.server import WebTable
from storage.database import Database
from storage.logreader import LoggedMove, LogReader

TOKEN = "123456:TEST-token-for-the-web-table"
GROUP = Place("telegram", "-1001", "")
CARD = re.compile(r'"([2-9TJQKA][CDHS])"')


def forge_init_data(user: dict[str, Any], token: str, start_param: str, auth_date: int) -> str:
    """initData as Telegram signs it (core.telegram.org/bots/webapps)."""
    fields = {
        "auth_date": str(auth_date),
        "chat_instance": "-8428209589180549439",
        "chat_type": "supergroup",
        "start_param": start_param,
        "user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
    }
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urllib.parse.urlencode(fields)


def logged(database: Path, table_id: int) -> tuple[engine.Match, list[LoggedMove]]:
    """A fresh match dealt as the table was, and every move its log holds: the log
    replayed is what a test checks the pages against."""
    reader = LogReader(database)
    try:
        setup = reader.setup(table_id)
        moves = reader.moves_after(table_id, 0)
    finally:
        reader.close()
    return engine.new_match(setup.variant, seed=setup.seed, decks=setup.decks), moves


def player(user: int, name: str) -> PlayerRef:
    return PlayerRef(user_id=str(user), name=name, language="en")


@dataclass
class Members:
    """The Telegram group's members as a test sets them (everyone but ``strangers``), in
    place of getChatMember (``tests/bot/web/test_watchers.py`` asks the fake Bot API), and
    who was asked about."""

    strangers: set[str] = field(default_factory=set)
    asked: list[str] = field(default_factory=list)

    async def is_member(self, place: Place, user_id: str) -> bool:
        self.asked.append(user_id)
        return user_id not in self.strangers


@dataclass
class Site:
    manager: TableManager
    web: WebTable
    http: aiohttp.ClientSession
    clock: Any
    router: PlatformRouter
    members: Members = field(default_factory=Members)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web.port}"

    def launch(self, user: int, table: int, *, token: str = TOKEN, age: float = 5) -> str:
        who = {"id": user, "first_name": f"P{user}", "language_code": "en"}
        return forge_init_data(who, token, f"t{table}", int(self.clock() - age))

    async def open(self, hello: dict[str, Any], **headers: str) -> Page:
        ws = await self.http.ws_connect(self.url + "/ws", headers=headers or None)
        await ws.send_json({"type": "hello", **hello})
        return Page(ws)

    async def table(
        self, humans: list[int], variant: str = "syrian41", names: dict[int, str] | None = None
    ) -> LiveTable:
        """A running table of ``humans`` (their Telegram ids, named ``P<id>`` unless
        ``names`` says otherwise) and computers."""
        named = {user: (names or {}).get(user, f"P{user}") for user in humans}
        first, *others = humans
        table = await self.manager.create(GROUP, player(first, named[first]), {"variant": variant})
        for user in others:
            await self.manager.join(table.id, player(user, named[user]))
        for _ in range(4 - len(humans)):
            await self.manager.add_computer(table.id, str(first))
        await self.manager.begin(table.id, str(first))
        return table


@dataclass
class Page:
    ws: aiohttp.ClientWebSocketResponse

    async def frame(self, timeout: float = 5.0) -> dict[str, Any]:
        message = await self.ws.receive(timeout)
        if message.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"socket ended: {message.type}")
        data: dict[str, Any] = json.loads(message.data)
        return data

    async def until(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            frame = await self.frame(timeout)
            if frame["type"] == kind:
                return frame

    async def state(self, timeout: float = 5.0) -> dict[str, Any]:
        state: dict[str, Any] = (await self.until("state", timeout))["state"]
        return state


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def site(
    tmp_path: Path,
    pace: Pace | None = None,
    activity: DiscordActivity | None = None,
    analyse: Analyse | None = None,
) -> AsyncIterator[Site]:
    """A web table on a clock of the test's: its pages show moves at once (``pace``
    otherwise), since a clock that stands still never lets a paced turn begin; serving as
    a Discord Activity too with ``activity``; deals analysed by ``analyse``."""
    clock = Clock()
    db = Database(tmp_path / "web.sqlite")
    await db.start()
    router = PlatformRouter()
    manager = TableManager(db, router, clock=clock)
    await manager.start()
    web = await web_table(
        manager,
        router,
        public_url="http://127.0.0.1:9",
        pace=pace if pace is not None else Pace(scale=0),
        telegram_token=TOKEN,
        analyse=analyse,
        clock=clock,
    )
    members = Members()
    web.gate.members["telegram"] = members  # as the runner wires Telegram's own
    if activity is not None:
        web.enable_activity(activity)
    await web.start("127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            yield Site(manager, web, http, clock, router, members)
    finally:
        await web.stop()
        await manager.close()
        await db.close()
