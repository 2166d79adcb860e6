"""A restart never logs a page out. The process listens before its tables are loaded: a page
that comes back in that moment is told ``starting`` (it may pass: the page keeps its session
and comes again), never that its table is gone. Proven on the real process (``sahra run``
on its SQLite file, the fake Bot API): pages mid-trick, SIGKILL, start again while the pages
knock as fast as they can; every page resumes by itself, and the next move is accepted.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.web.pages import Bot, free_port, until
from tests.bot.web.support import Page, forge_init_data, site
from tests.bot.web.test_processes import chosen

TOKEN = "123:TEST"
GROUP = -100777
PLAYERS = [801, 802, 803, 804]


def launch(user: int) -> dict[str, Any]:
    who = {"id": user, "first_name": f"P{user}", "language_code": "en"}
    return {"init_data": forge_init_data(who, TOKEN, "t1", int(time.time()) - 5)}


class Knocking:
    """A page as ``app.js`` behaves: it says hello with what it holds; a refusal that may
    pass (or a refused connection) makes it come again, a fatal one makes it give up."""

    def __init__(self, http: aiohttp.ClientSession, url: str, hello: dict[str, Any]) -> None:
        self.http, self.url, self.hello = http, url, hello
        self.page: Page | None = None
        self.seat: int | None = None
        self.state: dict[str, Any] = {}
        self.fatal: list[str] = []  # the codes that would have stopped the page
        self.passed: list[str] = []  # the codes it came again after

    async def open(self) -> None:
        while True:
            try:
                ws = await self.http.ws_connect(f"{self.url}/ws")
            except aiohttp.ClientError:  # not listening yet
                await asyncio.sleep(0.005)
                continue
            await ws.send_json({"type": "hello", **self.hello})
            page = Page(ws)
            try:
                first = await page.frame()
            except ConnectionError:
                continue
            if first["type"] == "welcome":
                self.page, self.seat = page, first["seat"]
                self.hello = {"session": first["session"]}
                self.state = await page.state()
                return
            assert first["type"] == "error", first
            if first["fatal"]:
                self.fatal.append(first["code"])
                return
            self.passed.append(first["code"])

    async def at_least(self, version: int) -> dict[str, Any]:
        assert self.page is not None
        while self.state.get("version", -1) < version:
            self.state = await self.page.state()
        return self.state


async def move(pages: list[Knocking]) -> None:
    """The page that offers a move makes it; every page shows it."""
    version = max(page.state["version"] for page in pages)
    for page in pages:
        await page.at_least(version)
    mover = next(page for page in pages if chosen(page.state) is not None)
    assert mover.page is not None
    action = chosen(mover.state)
    await mover.page.ws.send_json({"type": "move", "version": version, "action": action})
    for page in pages:
        assert (await page.at_least(version + 1))["version"] == version + 1


async def test_pages_mid_trick_resume_by_themselves_after_a_sigkill_and_a_start(
    tmp_path: Path,
) -> None:
    fake = FakeBotAPI()
    api = await fake.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "SAHRA_TELEGRAM_TOKEN": TOKEN,
        "SAHRA_TELEGRAM_API_URL": api,
        "SAHRA_DATABASE": str(tmp_path / "sahra.sqlite"),
        "SAHRA_WEB_URL": url,
        "SAHRA_WEB_PACE": "0",  # the moves at once: this test is not about pacing
        "SAHRA_WEB_PORT": str(port),
        "SAHRA_LOG_LEVEL": "INFO",
        "SAHRA_TELEGRAM_GROUP_INTERVAL": "0.2",
        "SAHRA_TELEGRAM_PRIVATE_INTERVAL": "0.05",
        "PTB_TIMEDELTA": "true",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("SAHRA_DATABASE_URL", None)
    bot = Bot(env, tmp_path / "bot.log")
    bot.start()
    try:
        await bot.started(1)
        async with aiohttp.ClientSession() as http:
            fake.command(GROUP, PLAYERS[0], "/new syrian41")
            await until(lambda: any(m.keyboard for m in fake.in_chat(GROUP)), "the lobby")
            creator = Knocking(http, url, launch(PLAYERS[0]))
            await creator.open()
            assert creator.fatal == []
            for user in PLAYERS[1:]:
                fake.command(GROUP, user, "/join")
            await creator.at_least(0)
            while not all(seat["name"] for seat in creator.state["seats"]):
                assert creator.page is not None
                creator.state = await creator.page.state()
            fake.command(GROUP, PLAYERS[0], "/begin")
            while creator.state["status"] != "running":
                assert creator.page is not None
                creator.state = await creator.page.state()
            pages = [creator] + [Knocking(http, url, launch(user)) for user in PLAYERS[1:]]
            for page in pages[1:]:
                await page.open()
            assert [page.seat for page in pages] == [0, 1, 2, 3]
            while not (pages[0].state["phase"] == "playing" and pages[0].state["trick"]):
                await move(pages)  # the bids, then a card: the trick is on the table

            assert bot.process is not None
            bot.process.send_signal(signal.SIGKILL)
            bot.process.wait()
            for page in pages:
                assert page.page is not None
                await page.page.ws.close()
            bot.start()
            await asyncio.gather(*(page.open() for page in pages))
            assert [page.fatal for page in pages] == [[], [], [], []]
            assert [page.seat for page in pages] == [0, 1, 2, 3]
            assert {"unknown_table"}.isdisjoint(code for p in pages for code in p.passed)
            await move(pages)  # the next card is accepted
            await until(lambda: bot.text().count("event=bots_started") == 2, "the new start")
        assert "Traceback" not in bot.text()
    finally:
        await bot.stop()
        await fake.close()


async def test_a_page_of_a_table_that_ended_shows_its_end_and_one_never_played_is_refused(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table(PLAYERS[:1])
        page = await run.open({"init_data": run.launch(PLAYERS[0], table.id)})
        session = (await page.until("welcome"))["session"]
        await run.manager.stop(table.id, str(PLAYERS[0]))
        while (await page.state())["status"] != "stopped":
            pass
        again = await run.open({"session": session})  # a reload after the end
        assert (await again.until("welcome"))["seat"] == 0
        assert (await again.state())["status"] == "stopped"
        never = await run.open({"init_data": run.launch(PLAYERS[0], table.id + 1)})
        error = await never.until("error")
        assert error["code"] == "unknown_table" and error["fatal"]
