"""The web table from Discord: the table message carries **Open the table**; a press
answers only the presser with a link button to a signed, short-lived URL of their own,
which the page exchanges once for a session seated by who pressed (a person not seated
watches). The real discord.py client against the fake Discord, the real web table."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.delivery.router import PlatformRouter
from bot.web.app import web_table
from bot.web.server import WebTable
from tests.bot.discord.conftest import Guild
from tests.bot.discord.test_e2e import ALI, BADR, open_table

CARLA = 303  # in the channel, not at the table
LINK = re.compile(r"^https://table\.example\.org/#link=([\w.-]+)$")


@pytest.fixture
async def served(guild: Guild) -> AsyncIterator[WebTable]:
    """The web table beside the bot, offered the way ``sahra run`` offers it."""
    bot = guild.bot
    assert bot is not None and isinstance(bot.manager.notifier, PlatformRouter)
    web = await web_table(
        bot.manager, bot.manager.notifier, public_url="https://table.example.org"
    )
    await web.start("127.0.0.1", 0)
    bot.notifier.web = True
    bot.frontend.web_link = lambda table, player: web.personal_link("discord", table, player)
    try:
        yield web
    finally:
        await web.stop()


def link_buttons(reply: dict[str, Any]) -> list[dict[str, Any]]:
    """The link buttons (style 5) of an interaction's answer."""
    rows = reply.get("data", {}).get("components", [])
    return [b for row in rows for b in row["components"] if b.get("style") == 5]


async def hello(web: WebTable, token: str) -> list[dict[str, Any]]:
    """The frames a page gets for ``{"type": "hello", "link": token}``, up to its state
    or its refusal."""
    frames: list[dict[str, Any]] = []
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(f"http://127.0.0.1:{web.port}/ws") as ws,
    ):
        await ws.send_json({"type": "hello", "link": token})
        while not frames or frames[-1]["type"] not in ("state", "error"):
            frames.append(await ws.receive_json(timeout=5))
    return frames


async def test_open_the_table_answers_the_presser_a_link_that_seats_them_once(
    guild: Guild, served: WebTable
) -> None:
    await open_table(guild, "syrian41", [ALI, BADR])
    table = guild.table()
    public = guild.public()
    reply = await guild.click(ALI, public, guild.button(public, "web"))
    assert reply["data"]["flags"] & 64  # ephemeral: only Ali sees his link
    (button,) = link_buttons(reply)
    found = LINK.match(button["url"])
    assert found, button["url"]
    frames = await hello(served, found.group(1))
    welcome, state = frames[0], frames[-1]
    assert welcome["type"] == "welcome" and welcome["seat"] == table.seat_of(str(ALI))
    assert state["state"]["you"] == welcome["seat"] and len(state["state"]["hand"]) == 13
    # Good once: the same link again (a forwarded copy, say) is refused, politely.
    (refused,) = await hello(served, found.group(1))
    assert refused["type"] == "error" and refused["code"] == "bad_link" and refused["message"]
    # Badr's link is his own, not Ali's.
    reply = await guild.click(BADR, public, guild.button(public, "web"))
    (button,) = link_buttons(reply)
    found = LINK.match(button["url"])
    assert found
    assert (await hello(served, found.group(1)))[0]["seat"] == table.seat_of(str(BADR))


async def test_a_person_not_seated_gets_a_link_to_watch(guild: Guild, served: WebTable) -> None:
    await open_table(guild, "syrian41", [ALI])
    public = guild.public()
    reply = await guild.click(CARLA, public, guild.button(public, "web"))
    (button,) = link_buttons(reply)
    found = LINK.match(button["url"])
    assert found
    frames = await hello(served, found.group(1))
    assert frames[0]["seat"] is None
    state = frames[-1]["state"]
    assert state["you"] is None and state["hand"] == [] and state["decisions"] == []
