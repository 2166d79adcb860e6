"""``sahra play --web``: the terminal prints a link to the web table on 127.0.0.1, with no
bot token; the page it opens plays the console's seat, and the match is saved as ever."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import aiohttp

from bot.console.play import play
from tests.bot.support import until


async def test_the_terminal_serves_its_table_to_a_browser_with_no_token(tmp_path: Path) -> None:
    out = io.StringIO()
    database = tmp_path / "web.sqlite"
    task = asyncio.create_task(
        play("syrian41", "en", 0, database, io.StringIO(), out, name="Ali", web_port=0)
    )
    try:
        printed = re.compile(r"http://127\.0\.0\.1:\d+/#session=[\w.-]+")
        await until(lambda: printed.search(out.getvalue()), "the link printed")
        found = printed.search(out.getvalue())
        assert found is not None
        link = found.group(0)
        base, session = link.split("/#session=")
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/") as page:
                assert page.status == 200
                assert "script-src 'self'" in page.headers["Content-Security-Policy"]
            async with http.ws_connect(base + "/ws", headers={"Origin": base}) as ws:
                await ws.send_json({"type": "hello", "session": session})
                welcome = await ws.receive_json(timeout=5)
                assert welcome["type"] == "welcome" and welcome["seat"] == 0
                state = (await ws.receive_json(timeout=5))["state"]
                assert state["seats"][0]["name"] == "Ali" and len(state["hand"]) == 13
                while not (state["decisions"] or any(c["legal"] for c in state["hand"])):
                    state = (await ws.receive_json(timeout=10))["state"]
                choice = state["decisions"][0] if state["decisions"] else state["hand"][0]
                action = choice["action"]
                await ws.send_json({"type": "move", "version": state["version"], "action": action})
                moved = (await ws.receive_json(timeout=5))["state"]
                assert moved["version"] > state["version"]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert "#session=" in out.getvalue()
