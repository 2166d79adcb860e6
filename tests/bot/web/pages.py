"""Browser players of the web table's tests: a page per seat opened as Telegram opens a Mini
App (launch data signed with the test token, Telegram's script stood in for), the frames it
receives recorded, taps made by accessible name from what its state offers, and the check
that no frame ever named a card another seat held (the match log replayed)."""

from __future__ import annotations

import asyncio
import json
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
from tests.bot.web.support import forge_init_data
from tests.browser import Frames

ROOT = Path(__file__).resolve().parents[3]
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
    started = time.monotonic()
    deadline = started + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        await asyncio.sleep(0.02)
    if time.monotonic() - started > 0.3:
        print(f"{time.monotonic() - started:6.2f} s  {what}")


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


def launch_url(base: str, token: str, user: int, table: int) -> str:
    """The address Telegram opens for ``user`` tapping the table's Mini App button."""
    who = {"id": user, "first_name": f"Player{user}", "language_code": "en"}
    init_data = forge_init_data(who, token, f"t{table}", int(time.time()) - 5)
    fragment = urllib.parse.urlencode(
        {"tgWebAppData": init_data, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "tdesktop"}
    )
    return f"{base}/?tgWebAppStartParam=t{table}#{fragment}"


async def players_context(browser: Any) -> Any:
    """One browser window for the players of a test (each page is a tab of its own, with
    its own session storage), with Telegram's script stood in for."""
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    await context.route(
        "https://telegram.org/js/telegram-web-app.js*",
        lambda route: route.fulfill(body=FAKE_TELEGRAM_JS, content_type="text/javascript"),
    )
    return context


async def open_page(context: Any, url: str, seat: int) -> Player:
    page = await context.new_page()
    player = Player(seat, page)
    player.frames.attach(page)
    if url != "about:blank":
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
    await player.page.bring_to_front()  # a background tab does not paint: no click lands
    button = player.page.get_by_role("button", name=name, exact=True)
    await button.first.click(timeout=10_000)


async def tap_when_live(player: Player, kind: str, name: str) -> bool:
    """Tap once the page takes taps (a page accepts none between sending one and the
    table's answer); False if it did not within 3 s."""
    await player.page.bring_to_front()
    button = player.page.get_by_role("button", name=name, exact=True).first
    try:
        await button.click(timeout=3_000)
    except Exception as error:  # Playwright's TimeoutError: the button stayed disabled
        if "Timeout" not in type(error).__name__:
            raise
        return False
    return True


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
            if not await tap_when_live(player, *picked):
                continue  # the page is between two states (not live): look again
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

    # At each version, the cards each seat holds that the public view does not show (the
    # shown card of T41.4 is in a hand and public).
    def hidden() -> list[set[str]]:
        public = cards_named(json.dumps(match.view(None)))
        return [set(match.hand(s)) - public for s in range(4)]

    held: dict[int, list[set[str]]] = {0: hidden()}
    for move in moves:
        match.apply(move.seat, move.action)
        if match.result is None:
            held[move.seq] = hidden()
    leaks = []
    for player in players:
        for frame in player.frames.received:
            if frame.get("type") != "state":
                continue
            state = frame["state"]
            hands = held.get(state["version"])
            if hands is None:
                continue
            others = set().union(*(hands[s] for s in range(4) if s != player.seat))
            for key, value in state.items():
                named = cards_named(json.dumps(value, ensure_ascii=False))
                leaks += [
                    f"seat {player.seat} v{state['version']} {key}: {card}"
                    for card in sorted(named & others)
                ]
    return leaks


def cards_named(text: str) -> set[str]:
    """Every card a text names, by code ("TS") or by label ("10♠")."""
    named = set(CARD_CODE.findall(text))
    for rank, suit in CARD_LABEL.findall(text):
        named.add(("T" if rank == "10" else rank) + SUITS[suit])
    return named
