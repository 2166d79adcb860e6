"""A page's move that the owner dies holding does not freeze the page. Two ``sahra run``
processes on one PostgreSQL database; the page plays on the standby, which forwards its
move to the owner; the owner claims it and, while its commit waits on the database, is
SIGKILLed. The standby takes the table over: at once it settles the request it was waiting
on (``moving``: the page sends the move again), the page's socket never stopped answering
meanwhile, and the move is in the log once."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from tests.backends import BackendFactory
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.test_failover import FAST_WRITES, show_logs, spawn, stop_all, stored_table, text
from tests.bot.web.pages import free_port, until
from tests.bot.web.test_processes import chosen
from tests.bot.web.test_restart import Knocking, launch, move

pytestmark = pytest.mark.backend_matters  # processes that share one PostgreSQL database

TOKEN = "123:TEST"
GROUP = -100777
PLAYERS = [801, 802, 803, 804]
RESUMED_WITHIN = 5.0  # seconds after the takeover: the page takes taps again


async def test_the_page_whose_move_the_dead_owner_held_resumes_at_the_takeover(
    backend: BackendFactory, tmp_path: Path
) -> None:
    if backend.url is None:
        pytest.skip("processes share a PostgreSQL database")
    fake = FakeBotAPI()
    api = await fake.start()
    ports = [free_port(), free_port()]
    env = {
        **os.environ,
        "SAHRA_TELEGRAM_TOKEN": TOKEN,
        "SAHRA_TELEGRAM_API_URL": api,
        "SAHRA_DATABASE_URL": backend.url,
        "SAHRA_WEB_URL": f"http://127.0.0.1:{ports[1]}",
        "SAHRA_WEB_PACE": "0",  # the moves at once: this test is not about pacing
        "SAHRA_LOG_LEVEL": "INFO",
        "PTB_TIMEDELTA": "true",
        "PYTHONUNBUFFERED": "1",
        **FAST_WRITES,
    }
    env.pop("SAHRA_DISCORD_TOKEN", None)
    logs = [tmp_path / "owner.log", tmp_path / "standby.log"]
    processes = [spawn({**env, "SAHRA_WEB_PORT": str(ports[0])}, logs[0])]
    url = f"http://127.0.0.1:{ports[1]}"  # every page plays on the standby
    try:
        await until(lambda: "event=role_taken role=telegram" in text(logs[0]), "the owner")
        processes.append(spawn({**env, "SAHRA_WEB_PORT": str(ports[1])}, logs[1]))
        await until(lambda: "event=web_started" in text(logs[1]), "the standby serves pages")
        async with aiohttp.ClientSession() as http:
            fake.command(GROUP, PLAYERS[0], "/new syrian41")
            await until(lambda: any(m.keyboard for m in fake.in_chat(GROUP)), "the lobby")
            for user in PLAYERS[1:]:
                fake.command(GROUP, user, "/join")
            await until(lambda: text(logs[0]).count("event=forwarded") == 0, "no forwarding")
            pages = [Knocking(http, url, launch(user)) for user in PLAYERS]
            await pages[0].open()
            while not all(seat["name"] for seat in pages[0].state["seats"]):
                pages[0].state = await pages[0].page.state()  # type: ignore[union-attr]
            fake.command(GROUP, PLAYERS[0], "/begin")
            while pages[0].state["status"] != "running":
                pages[0].state = await pages[0].page.state()  # type: ignore[union-attr]
            for page in pages[1:]:
                await page.open()
            for _ in range(2):
                await move(pages)

            version = max(page.state["version"] for page in pages)
            for page in pages:
                await page.at_least(version)
            mover = next(page for page in pages if chosen(page.state) is not None)
            assert mover.page is not None
            action = chosen(mover.state)
            # The owner's commits wait on the database from now on.
            blocker = await asyncpg.connect(backend.url)
            holding = blocker.transaction()
            await holding.start()
            await blocker.execute("LOCK TABLE actions IN EXCLUSIVE MODE")
            claimed = text(logs[0]).count("event=forward_claimed")
            await mover.page.ws.send_json({"type": "move", "version": version, "action": action})
            await until(
                lambda: text(logs[0]).count("event=forward_claimed") > claimed,
                "the owner claims the move",
            )
            # The socket's reader is not held by the forwarded request.
            await mover.page.ws.send_json({"type": "ping"})
            assert (await mover.page.until("pong", timeout=5))["type"] == "pong"

            processes[0].send_signal(signal.SIGKILL)  # the owner dies holding the move
            processes[0].wait()
            await holding.rollback()
            await blocker.close()
            await until(
                lambda: "event=role_taken role=telegram" in text(logs[1]),
                "the standby owns",
                15,
            )
            taken = time.monotonic()
            answer = await answered(mover, version, RESUMED_WITHIN)
            print(f"the page answered {time.monotonic() - taken:.2f} s after the takeover")
            if answer["type"] == "refused":  # as app.js: the same move, sent again once
                assert answer["code"] == "moving"
                await mover.page.ws.send_json(
                    {"type": "move", "version": version, "action": action}
                )
            for page in pages:
                assert (await page.at_least(version + 1))["version"] == version + 1
            await move(pages)  # and the table goes on
        assert "Traceback" not in text(logs[1])
        stored = await stored_table(backend)
        assert [a.action for a in stored.actions if a.seq == version + 1] == [action]
    finally:
        await stop_all(processes)
        await fake.close()
        show_logs(logs)


async def answered(page: Knocking, version: int, within: float) -> dict[str, Any]:
    """The first answer to the page's move: its refusal, or a state that moved past it."""
    assert page.page is not None
    deadline = asyncio.get_running_loop().time() + within
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, "the page is still waiting for its move"
        frame = await page.page.frame(timeout=left)
        if frame["type"] == "refused":
            return frame
        if frame["type"] == "state":
            page.state = frame["state"]
            if page.state["version"] > version:
                return frame
