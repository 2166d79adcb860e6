"""The web table on two ``sahra run`` processes sharing one PostgreSQL database, behind
Caddy with the project's own Caddyfile (round robin, no sticky sessions): the four pages
of a Syrian 41 table land on both processes. Moves made on either process reach every
page; SIGKILL the process that owns the table: the standby takes it over, the pages that
were on the dead process come back through the balancer with the session they had (no
one logs in again), the pages on the standby keep their sockets, the next move is
accepted, and every move a page saw accepted is in the log once."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.backends import BackendFactory
from tests.balancer import caddy
from tests.bot.support import until
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.test_failover import (
    FAST_WRITES,
    TAKEOVER_LIMIT,
    lobby_full,
    show_logs,
    spawn,
    stop_all,
    stored_table,
    text,
)
from tests.bot.web.pages import free_port
from tests.bot.web.support import Page, forge_init_data

pytestmark = pytest.mark.backend_matters  # processes that share one PostgreSQL database

TOKEN = "123:TEST"
GROUP = -100999
PLAYERS = [601, 602, 603, 604]


class Seat:
    """One player's page: a socket to one process, and the session to come back with."""

    def __init__(self, seat: int, user: int) -> None:
        self.seat, self.user = seat, user
        self.page: Page | None = None
        self.session = ""
        self.state: dict[str, Any] = {}

    async def open(self, http: aiohttp.ClientSession, url: str, hello: dict[str, Any]) -> None:
        ws = await http.ws_connect(f"{url}/ws")
        await ws.send_json({"type": "hello", **hello})
        self.page = Page(ws)
        welcome = await self.page.until("welcome", TAKEOVER_LIMIT)
        assert welcome["seat"] == self.seat
        self.session = welcome["session"]
        self.state = await self.page.state(TAKEOVER_LIMIT)
        while self.state["status"] != "running":  # the table has not been dealt yet
            self.state = await self.page.state(TAKEOVER_LIMIT)

    async def at_least(self, version: int, timeout: float = 10.0) -> dict[str, Any]:
        assert self.page is not None
        while self.state.get("version", -1) < version:
            self.state = await self.page.state(timeout)
        return self.state

    async def lost(self) -> bool:
        """Whether the socket ended with its process. Asked once that process is dead: a
        ping is answered only on a socket whose process lives, and a socket of the dead
        one ends (Caddy closes it). States that come meanwhile are kept."""
        assert self.page is not None
        try:
            await self.page.ws.send_json({"type": "ping"})
        except ConnectionError:
            return True
        while True:
            message = await self.page.ws.receive(TAKEOVER_LIMIT + 15)
            if message.type != aiohttp.WSMsgType.TEXT:
                return True
            frame = json.loads(message.data)
            if frame["type"] == "pong":
                return False
            if frame["type"] == "state":
                self.state = frame["state"]


def launch(user: int) -> dict[str, Any]:
    who = {"id": user, "first_name": f"P{user}", "language_code": "en"}
    return {"init_data": forge_init_data(who, TOKEN, "t1", int(time.time()) - 5)}


def chosen(state: dict[str, Any]) -> dict[str, Any] | None:
    """A sensible move from the page's own state: a bid of 3, else the first legal card."""
    for decision in state["decisions"]:
        if decision["action"] == {"type": "bid", "value": 3}:
            return dict(decision["action"])
    legal = [card["action"] for card in state["hand"] if card["legal"]]
    if legal:
        return dict(legal[0])
    return dict(state["decisions"][0]["action"]) if state["decisions"] else None


async def move(seats: list[Seat], acked: list[tuple[int, dict[str, Any]]]) -> None:
    """The seat whose page offers a move makes it; every page then shows it."""
    version = max(seat.state["version"] for seat in seats)
    for seat in seats:
        await seat.at_least(version)
    mover = next(seat for seat in seats if chosen(seat.state) is not None)
    action = chosen(mover.state)
    assert mover.page is not None
    await mover.page.ws.send_json({"type": "move", "version": version, "action": action})
    for seat in seats:
        assert (await seat.at_least(version + 1, TAKEOVER_LIMIT + 15))["version"] == version + 1
    acked.append((version, action))  # type: ignore[arg-type]


async def test_pages_on_two_processes_survive_the_owner_s_sigkill(
    backend: BackendFactory, tmp_path: Path
) -> None:
    if backend.url is None:
        pytest.skip("processes share a PostgreSQL database")
    fake = FakeBotAPI()
    api = await fake.start()
    ports = [free_port(), free_port()]
    balancer = free_port()
    env = {
        **os.environ,
        "SAHRA_TELEGRAM_TOKEN": TOKEN,
        "SAHRA_TELEGRAM_API_URL": api,
        "SAHRA_DATABASE_URL": backend.url,
        "SAHRA_WEB_URL": f"http://127.0.0.1:{balancer}",  # as the pages see it
        "SAHRA_WEB_PACE": "0",  # the moves at once: this test is not about pacing
        "SAHRA_LOG_LEVEL": "INFO",
        "PTB_TIMEDELTA": "true",
        "PYTHONUNBUFFERED": "1",
        **FAST_WRITES,
    }
    env.pop("SAHRA_DISCORD_TOKEN", None)
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    processes = [spawn({**env, "SAHRA_WEB_PORT": str(ports[0])}, logs[0])]
    try:
        await until(lambda: "event=role_taken role=telegram" in text(logs[0]), "the first owns")
        processes.append(spawn({**env, "SAHRA_WEB_PORT": str(ports[1])}, logs[1]))
        await until(lambda: "event=web_started" in text(logs[1]), "the second serves pages")
        fake.command(GROUP, PLAYERS[0], "/new syrian41")
        for user in PLAYERS[1:]:
            fake.command(GROUP, user, "/join")
        await until(lambda: lobby_full(fake, GROUP), "every seat taken")  # seated, so…
        fake.command(GROUP, PLAYERS[0], "/begin")  # …a page opened now is the seat's
        seats = [Seat(seat, user) for seat, user in enumerate(PLAYERS)]
        acked: list[tuple[int, dict[str, Any]]] = []
        async with (
            caddy(balancer, ports, tmp_path / "caddy") as url,
            aiohttp.ClientSession() as http,
        ):
            for seat in seats:
                await seat.open(http, url, launch(seat.user))
            await until(  # round robin: pages on both processes
                lambda: all("event=page_opened" in text(log) for log in logs), "both serve"
            )
            for _ in range(8):
                await move(seats, acked)
            assert "event=forwarded target=telegram" in text(logs[1])
            assert "event=action" not in text(logs[1])  # the standby applied nothing itself

            processes[0].send_signal(signal.SIGKILL)  # the owner dies mid-deal
            processes[0].wait()
            killed = time.monotonic()
            await until(
                lambda: "event=role_taken role=telegram" in text(logs[1]),
                "the standby owns",
                TAKEOVER_LIMIT + 5,
            )
            print(f"takeover {time.monotonic() - killed:.2f} s after the SIGKILL")
            kept = 0
            for seat in seats:  # a socket of the dead process comes back, same session
                if await seat.lost():
                    await seat.open(http, url, {"session": seat.session})
                else:
                    kept += 1
            assert 0 < kept < 4
            for _ in range(4):
                await move(seats, acked)
        assert "Traceback" not in text(logs[1])
        stored = await stored_table(backend)
        humans = [a for a in stored.actions if a.source == "human"]
        assert len(humans) == len(acked) == 12  # none lost, none applied twice
        logged = {a.seq: a.action for a in stored.actions}
        for version, action in acked:
            assert logged[version + 1] == action
    finally:
        await stop_all(processes)
        await fake.close()
        show_logs(logs)
