"""Every frame a socket sends counts against its size and pace, binary frames and frames
before the hello included: a flooding socket is closed, and the other pages' moves go on.
The page's policy names its own socket origin for the browsers that need it."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.web import socket as pace
from bot.web.headers import content_policy
from tests.bot.web.support import Page, Site, site

HUMANS = [501, 502, 503, 504]
FLOOD = 200


async def flooded(run: Site, ws: aiohttp.ClientWebSocketResponse) -> tuple[int, str | None]:
    """Send ``FLOOD`` binary frames at once; the answers read until the socket ends, and
    the code that ended it."""
    for _ in range(FLOOD):
        await ws.send_bytes(b"\x00" * 64)
    answers, ended_by = 0, None
    page = Page(ws)
    while True:
        try:
            frame = await page.frame(timeout=10)
        except ConnectionError:
            return answers, ended_by
        if frame["type"] == "error" and frame["code"] == "too_many":
            ended_by = frame["code"]
        elif frame["type"] == "error":
            assert frame["code"] == "bad_frame" and frame["message"]
            answers += 1


async def test_binary_frames_before_the_hello_count_against_the_pace(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        ws = await run.http.ws_connect(run.url + "/ws")
        answers, ended_by = await flooded(run, ws)
        assert ended_by == "too_many"
        # The burst, and what the bucket refilled while the flood was read: never all.
        assert 0 < answers < FLOOD - pace.FLOODED
        assert ws.closed


async def test_a_page_flooding_binary_frames_is_closed_and_other_pages_play_on(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        match = table.match
        assert match is not None
        mover = HUMANS[match.to_act[0]]
        flooder = await run.open({"init_data": run.launch(HUMANS[0], table.id)})
        await flooder.until("state")
        page = await run.open({"init_data": run.launch(mover, table.id)})
        state = await page.state()
        answers, ended_by = await flooded(run, flooder.ws)
        assert ended_by == "too_many" and answers < FLOOD - pace.FLOODED
        action = state["decisions"][-1]["action"]
        await page.ws.send_json({"type": "move", "version": state["version"], "action": action})
        moved = await page.state()
        assert moved["version"] == state["version"] + 1


async def test_the_page_policy_names_its_own_socket_origin(tmp_path: Path) -> None:
    assert "connect-src 'self' wss://sahra.example:8443;" in content_policy(
        "https://sahra.example:8443"
    )
    async with site(tmp_path) as run:
        async with run.http.get(run.url + "/") as response:
            policy = response.headers["Content-Security-Policy"]
        # The site's public address (support.site: http://127.0.0.1:9) as a socket origin.
        assert "connect-src 'self' ws://127.0.0.1:9;" in policy
