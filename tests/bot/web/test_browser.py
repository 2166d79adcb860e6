"""The web table in a real browser against the real bot process (``sahra run``) and a fake
Telegram: four players open the Mini App from the group's button and play by clicking.

What a page receives is recorded frame by frame and checked against the match log: no
frame to a seat ever names a card another seat still holds. A second device of one player
taps a card the table has moved past (its frames held back): refused, and the page shows
the table as it is. The bot is stopped and started again mid-deal: every page comes back
by itself and the deal goes on.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from storage.logreader import LogReader
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.web.support import forge_init_data
from tests.browser import Frames, chromium

ROOT = Path(__file__).resolve().parents[3]
TOKEN = "123:TEST"
GROUP = -100555
PLAYERS = [301, 302, 303, 304]
CARD_CODE = re.compile(r'"((?:[2-9TJQKA])[CDHS])"')
CARD_LABEL = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
# A stand-in for telegram-web-app.js (no internet here): what the page uses of it.
FAKE_TELEGRAM_JS = """
window.Telegram = {WebApp: {
  initData: new URLSearchParams(location.hash.slice(1)).get("tgWebAppData") || "",
  themeParams: {}, colorScheme: "light", platform: "tdesktop", version: "8.0",
  ready() {}, expand() {}, onEvent() {}, offEvent() {},
  HapticFeedback: {impactOccurred() {}, notificationOccurred() {}, selectionChanged() {}},
}};
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def until(condition: Callable[[], Any], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        await asyncio.sleep(0.02)


@dataclass
class Bot:
    """``sahra run`` as an operator starts it, against the fake Bot API."""

    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", "run"],
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=output,
            )

    async def stop(self) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        while process.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if process.poll() is None:
            process.kill()
            process.wait()

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    async def started(self, times: int) -> None:
        await until(lambda: self.text().count("event=web_started") >= times, "the web table")
        await until(lambda: self.text().count("event=bots_started") >= times, "the bots")


@dataclass
class Player:
    seat: int
    page: Any
    frames: Frames = field(default_factory=Frames)

    def state(self) -> dict[str, Any]:
        states = self.frames.states()
        return states[-1] if states else {}

    def version(self) -> int:
        return int(self.state().get("version", -1))


def launch_url(base: str, user: int, table: int) -> str:
    who = {"id": user, "first_name": f"Player{user}", "language_code": "en"}
    init_data = forge_init_data(who, TOKEN, f"t{table}", int(time.time()) - 5)
    fragment = urllib.parse.urlencode(
        {"tgWebAppData": init_data, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "tdesktop"}
    )
    return f"{base}/?tgWebAppStartParam=t{table}#{fragment}"


async def open_page(browser: Any, url: str, seat: int) -> Player:
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    await context.route(
        "https://telegram.org/js/telegram-web-app.js*",
        lambda route: route.fulfill(body=FAKE_TELEGRAM_JS, content_type="text/javascript"),
    )
    page = await context.new_page()
    player = Player(seat, page)
    player.frames.attach(page)
    await page.goto(url)
    return player


def choice(state: dict[str, Any]) -> tuple[str, str] | None:
    """What a sensible player taps now: (kind, accessible name) — a bid of 3 (four of 2
    would never reach T41.6's total), else the first decision; the first legal card;
    no double in TX.7's window."""
    decisions = state.get("decisions") or []
    if decisions:
        three = [d for d in decisions if d["action"] == {"type": "bid", "value": 3}]
        return "decision", (three or decisions)[0]["label"]
    doubling = state.get("doubling")
    if doubling:
        return "decision", doubling["none_label"]
    legal = [card for card in state.get("hand") or [] if card["legal"]]
    return ("card", legal[0]["label"]) if legal else None


async def tap(player: Player, kind: str, name: str) -> None:
    button = player.page.get_by_role("button", name=name, exact=True)
    await button.first.click(timeout=10_000)


async def play_until(
    players: list[Player], done: Callable[[], bool], on_move: Callable[[], Awaitable[None]]
) -> int:
    """Every page taps what its state offers until ``done``; returns the taps made."""
    taps = 0
    deadline = time.monotonic() + 120
    while not done():
        assert time.monotonic() < deadline, "the deal did not finish"
        moved = False
        for player in players:
            state = player.state()
            picked = choice(state) if state else None
            if picked is None:
                continue
            version = player.version()
            await tap(player, *picked)
            await until(lambda p=player, v=version: p.version() > v, "the tap applied", 10)
            taps += 1
            moved = True
            await on_move()
            if done():
                break
        if not moved:
            await asyncio.sleep(0.05)
    return taps


def hidden_cards_seen(players: list[Player], database: Path, table: int) -> list[str]:
    """Every card a page was sent while another seat held it (the match log replayed)."""
    reader = LogReader(database)
    try:
        setup = reader.setup(table)
        moves = reader.moves_after(table, 0)
    finally:
        reader.close()
    match = engine.new_match(setup.variant, seed=setup.seed, decks=setup.decks)
    held: dict[int, list[set[str]]] = {0: [set(match.hand(s)) for s in range(4)]}
    for move in moves:
        match.apply(move.seat, move.action)
        if match.result is None:
            held[move.seq] = [set(match.hand(s)) for s in range(4)]
    leaks = []
    for player in players:
        for frame in player.frames.received:
            if frame.get("type") != "state":
                continue
            state = frame["state"]
            hands = held.get(state["version"])
            if hands is None:
                continue
            text = json.dumps(state, ensure_ascii=False)
            named = set(CARD_CODE.findall(text))
            for rank, suit in CARD_LABEL.findall(text):
                named.add(("T" if rank == "10" else rank) + SUITS[suit])
            others = set().union(*(hands[s] for s in range(4) if s != player.seat))
            leaks += [f"seat {player.seat} v{state['version']}: {c}" for c in named & others]
    return leaks


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
        await asyncio.sleep(0.5)
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
            players = [
                await open_page(browser, launch_url(base, user, 1), seat)
                for seat, user in enumerate(PLAYERS)
            ]
            await until(lambda: all(p.state() for p in players), "every page's table")
            for player in players:
                assert player.state()["you"] == player.seat

            # A second device of the player to act, its frames held back: the tap it
            # makes after the first device played is stale.
            acting = next(p for p in players if choice(p.state()))
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

            second = await open_page(browser, "about:blank", acting.seat)
            await second.page.route_web_socket(re.compile(r".*/ws$"), route)
            holding = False
            await second.page.goto(launch_url(base, PLAYERS[acting.seat], 1))
            await until(lambda: second.version() == acting.version(), "the second device")
            holding = True
            picked = choice(acting.state())
            assert picked is not None
            version = acting.version()
            await tap(acting, *picked)
            await until(lambda: acting.version() > version, "the first device's move")
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
            await until(lambda: second.version() == acting.version(), "the second recovers")
            await second.page.get_by_text(refused["message"]).first.wait_for(timeout=5000)
            await second.page.context.close()

            restarted = False

            async def restart_mid_deal() -> None:
                nonlocal restarted
                if restarted or players[0].version() < 20:
                    return
                restarted = True
                welcomes = [
                    sum(f.get("type") == "welcome" for f in p.frames.received) for p in players
                ]
                await bot.stop()
                bot.start()
                await bot.started(2)
                await until(
                    lambda: all(
                        sum(f.get("type") == "welcome" for f in p.frames.received) > before
                        for p, before in zip(players, welcomes, strict=True)
                    ),
                    "every page back after the restart",
                    30,
                )

            def deal_over() -> bool:
                state = players[0].state()
                return bool(state.get("sheet")) or state.get("status") != "running"

            taps = await play_until(players, deal_over, restart_mid_deal)
            assert restarted and taps >= 40
            assert hidden_cards_seen(players, database, 1) == []
            for player in players:
                assert player.frames.errors == []
    finally:
        await bot.stop()
        await fake.close()
        if bot.text() and "Traceback" in bot.text():
            print(bot.text()[-4000:])
