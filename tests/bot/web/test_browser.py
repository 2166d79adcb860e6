"""The web table in a real browser against the real bot process (``sahra run``) and a fake
Telegram: four players open the Mini App from the group's button and play by clicking.

What a page receives is recorded frame by frame and checked against the match log: no
frame to a seat ever names a card another seat still holds. A second device of one player
taps a card the table has moved past (its frames held back): refused, and the page shows
the table as it is. The bot is stopped and started again mid-deal: every page comes back
by itself and the deal goes on.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.test_failover import lobby_full
from tests.bot.web.pages import (
    Bot,
    caught_up,
    choice,
    connected,
    free_port,
    hidden_cards_seen,
    launch_url,
    open_page,
    play_until,
    players_context,
    tap,
    until,
)
from tests.browser import chromium

TOKEN = "123:TEST"
GROUP = -100555
PLAYERS = [301, 302, 303, 304]
RECONNECT_NOTE = re.compile(r"ERR_CONNECTION_REFUSED|WebSocket connection to '[^']*/ws' failed")


async def test_four_players_play_a_syrian_deal_in_the_browser_through_a_restart(
    tmp_path: Path,
) -> None:
    fake = FakeBotAPI()
    api = await fake.start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    database = tmp_path / "sahra.sqlite"
    env = {
        **os.environ,
        "SAHRA_TELEGRAM_TOKEN": TOKEN,
        "SAHRA_TELEGRAM_API_URL": api,
        "SAHRA_DATABASE": str(database),
        "SAHRA_WEB_URL": base,
        "SAHRA_WEB_PACE": "0",  # the moves at once: this test is not about pacing
        "SAHRA_WEB_PORT": str(port),
        "SAHRA_TELEGRAM_WEBAPP": "table",
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
        fake.command(GROUP, PLAYERS[0], "/lang en")
        fake.command(GROUP, PLAYERS[0], "/new syrian41")
        for user in PLAYERS[1:]:
            fake.command(GROUP, user, "/join")
        await until(lambda: lobby_full(fake, GROUP), "every seat taken")
        fake.command(GROUP, PLAYERS[0], "/begin")
        # The group's table message opens the Mini App by a direct link (a URL button: a
        # web_app button is refused in groups).
        link = "https://t.me/sahra_test_bot/table?startapp=t1"
        await until(
            lambda: any(
                button.get("url") == link
                for message in fake.in_chat(GROUP)
                for row in message.keyboard
                for button in row
            ),
            "the group's Open the table button",
        )
        async with chromium() as browser:
            context = await players_context(browser)
            players = [
                await open_page(context, launch_url(base, TOKEN, user, 1), seat)
                for seat, user in enumerate(PLAYERS)
            ]
            states = [await caught_up(player) for player in players]
            for player, state in zip(players, states, strict=True):
                assert state["you"] == player.seat

            # A second device of the player to act, its frames held back: the tap it
            # makes after the first device played is stale.
            acting, drawn = next(
                (p, state) for p, state in zip(players, states, strict=True) if choice(state)
            )
            version = drawn["version"]
            picked = choice(drawn)
            assert picked is not None
            held: list[Callable[[], None]] = []
            holding = True

            async def route(ws: Any) -> None:
                server = ws.connect_to_server()

                def to_page(message: str | bytes) -> None:
                    if holding:
                        held.append(lambda: ws.send(message))
                    else:
                        ws.send(message)

                server.on_message(to_page)
                ws.on_message(lambda message: server.send(message))

            second = await open_page(context, "about:blank", acting.seat)
            await second.page.route_web_socket(re.compile(r".*/ws$"), route)
            holding = False
            await second.page.goto(launch_url(base, TOKEN, PLAYERS[acting.seat], 1))
            # Drawn by the page, not only sent to it: a frame on its way through the route
            # when the holding starts would never reach the page.
            await until(lambda: second.shows(version), "the second device")
            assert second.drawn == version
            holding = True
            await tap(acting, *picked)
            await until(lambda: acting.shows(version + 1), "the first device's move")
            await tap(second, *picked)  # drawn at the old version, on the second device
            holding = False
            for send in held:
                send()
            await until(
                lambda: any(f.get("type") == "refused" for f in second.frames.received),
                "the stale tap refused",
            )
            refused = next(f for f in second.frames.received if f.get("type") == "refused")
            assert refused["code"] == "stale"
            await until(lambda: second.shows(acting.drawn), "the second recovers")
            assert second.drawn == acting.drawn
            # The toast is up for 4 s: that it was shown is what counts, not that it still is.
            await until(lambda: refused["message"] in second.toasts, "the refusal shown")
            await second.page.close()

            restarted = False

            async def restart_mid_deal() -> None:
                nonlocal restarted
                if restarted or players[0].drawn < 20:
                    return
                restarted = True
                await bot.stop()
                # Each page saw its socket end before the new process can welcome it back.
                await until(lambda: connected(players, False), "every page reconnecting")
                bot.start()
                await bot.started(2)
                await until(lambda: connected(players, True), "every page back", 30)

            def deal_over() -> bool:
                state = players[0].state()
                return bool(state.get("sheet")) or state.get("status") != "running"

            taps = await play_until(players, deal_over, restart_mid_deal)
            assert restarted and taps >= 40
            assert hidden_cards_seen(players, database, 1) == []
            for player in players:
                # The browser's own notes of reconnects that found the bot down or starting
                # (refused, reset, closed before the handshake) are the restart, not a fault.
                errors = [e for e in player.frames.errors if not RECONNECT_NOTE.search(e)]
                assert errors == []
    finally:
        await bot.stop()
        await fake.close()
        if bot.text() and "Traceback" in bot.text():
            print(bot.text()[-4000:])
