"""Browser players of the web table's tests: a page per seat opened as Telegram opens a Mini
App (launch data signed with the test token, Telegram's script stood in for), the frames it
receives recorded, taps made by accessible name from what its state offers, and the check
that no frame ever named a card another seat held (the match log replayed).

A test waits on what a page has drawn, never on the frames on the wire, which run ahead of
it (and, on a page whose socket a test routes, include frames the page was never handed):
the page sets ``document.body.dataset.version`` to the version of the state it drew (the
page itself reports it, see ``PAGE_WATCH``) and disables its buttons between a tap and the
table's answer, so a move is chosen from the state the page has drawn and tapped once its
button is enabled."""

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
from functools import partial
from pathlib import Path
from typing import Any

from bot.render.i18n import card_words
from tests.bot.support import until
from tests.bot.web.support import forge_init_data, logged
from tests.browser import Frames

ROOT = Path(__file__).resolve().parents[3]
CARD_CODE = re.compile(r'"((?:[2-9TJQKA])[CDHS])"')
CARD_LABEL = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
# Every card's name in words, in both languages ("Queen of hearts", "بنت كبة").
CARD_WORDS = {
    card_words(language, rank + suit): rank + suit
    for language in ("ar", "en")
    for rank in "23456789TJQKA"
    for suit in "CDHS"
}
# Telegram's script (no internet here) stood in for by a faithful double: it reads the
# launch data from the fragment when it runs, and refuses what the launch's version lacks.
TELEGRAM_DOUBLE = Path(__file__).with_name("telegram_double.js")
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js*"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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


# What the page has drawn, told by the page itself: a MutationObserver (it runs in a tab
# in the background too, where nothing paints) reports the body's data-version and
# data-status and the toast on screen, each time one of them changed.
PAGE_WATCH = """
(() => {
  let told = "";
  new MutationObserver(() => {
    const body = document.body;
    const toast = document.getElementById("toast");
    if (!body || !document.getElementById("felt")) return; // not the table (a harness)
    const now = {
      version: Number(body.dataset.version ?? -1),
      status: body.dataset.status || "",
      toast: toast && !toast.hidden ? toast.textContent : "",
    };
    const said = JSON.stringify(now);
    if (said !== told) {
      told = said;
      window.sahraDrew(now);
    }
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""


@dataclass
class Player:
    """One page: the frames it was sent (``frames``) and what it has drawn of them
    (``drawn``, ``status``, ``toasts``, as the page tells it)."""

    seat: int
    page: Any
    frames: Frames = field(default_factory=Frames)
    drawn: int = -1  # the version of the state the page has drawn (its data-version)
    status: str = ""  # its connection as it shows it: connecting, connected, reconnecting…
    toasts: list[str] = field(default_factory=list)  # every toast it has shown

    def state(self) -> dict[str, Any]:
        """The newest state the page was sent (it may not have drawn it yet)."""
        states = self.frames.states()
        return states[-1] if states else {}

    def version(self) -> int:
        return int(self.state().get("version", -1))

    def shows(self, version: int) -> bool:
        """Whether the page has drawn ``version`` or a later one."""
        return self.drawn >= version

    def _drew(self, now: dict[str, Any]) -> None:
        self.drawn, self.status = int(now["version"]), str(now["status"])
        if now["toast"]:
            self.toasts.append(str(now["toast"]))

    async def watch(self) -> None:
        """Be told what the page draws, from its next load on."""
        await self.page.expose_function("sahraDrew", self._drew)
        await self.page.add_init_script(PAGE_WATCH)

    async def state_drawn(self, version: int) -> dict[str, Any]:
        """The state the page drew at ``version``, as it was sent (its frame may be
        recorded a moment after the page drew it)."""
        await until(lambda: version in {s["version"] for s in self.frames.states()}, "recorded")
        return next(s for s in reversed(self.frames.states()) if s["version"] == version)


async def caught_up(player: Player) -> dict[str, Any]:
    """The state the page has drawn, once it has drawn every state it was sent so far (a
    change told only to some seats, TX.7's secret doubling answer, is sent to no other
    page: a page is only ever behind what it was sent)."""
    sent = max(player.version(), 0)
    await until(lambda: player.shows(sent), f"seat {player.seat} drew v{sent}")
    return await player.state_drawn(player.drawn)


def connected(players: list[Player], want: bool) -> bool:
    """Whether every page shows itself connected (``want``), or none does."""
    return all((player.status == "connected") == want for player in players)


def launch_url(
    base: str,
    token: str,
    user: int,
    table: int,
    version: str = "8.0",
    platform: str = "tdesktop",
    theme: dict[str, str] | None = None,
) -> str:
    """The address Telegram opens for ``user`` tapping the table's Mini App button (a
    Telegram of ``version`` on ``platform``, its colours ``theme``)."""
    who = {"id": user, "first_name": f"Player{user}", "language_code": "en"}
    init_data = forge_init_data(who, token, f"t{table}", int(time.time()) - 5)
    launch = {"tgWebAppData": init_data, "tgWebAppVersion": version, "tgWebAppPlatform": platform}
    if theme is not None:
        launch["tgWebAppThemeParams"] = json.dumps(theme, separators=(",", ":"))
    return f"{base}/?tgWebAppStartParam=t{table}#{urllib.parse.urlencode(launch)}"


async def players_context(browser: Any) -> Any:
    """One browser window for the players of a test (each page is a tab of its own, with
    its own session storage), with Telegram's script stood in for by its double."""
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    script = TELEGRAM_DOUBLE.read_text()
    await context.route(
        TELEGRAM_SCRIPT,
        lambda route: route.fulfill(body=script, content_type="text/javascript"),
    )
    return context


async def open_page(context: Any, url: str, seat: int) -> Player:
    page = await context.new_page()
    player = Player(seat, page)
    player.frames.attach(page)
    await player.watch()
    if url != "about:blank":
        await page.goto(url)
    return player


def choice(state: dict[str, Any]) -> tuple[str, str] | None:
    """What a sensible player taps now: (kind, accessible name) — a bid of 3 (four of 2
    would never reach T41.6's total), else the first decision; the first legal card (named
    in words: "Queen of hearts"); no double in TX.7's window."""
    decisions = state.get("decisions") or []
    if decisions:
        three = [d for d in decisions if d["action"] == {"type": "bid", "value": 3}]
        return "decision", (three or decisions)[0]["name"]
    doubling = state.get("doubling")
    if doubling:
        return "decision", doubling["none_label"]
    legal = [card for card in state.get("hand") or [] if card["legal"]]
    return ("card", legal[0]["name"]) if legal else None


async def tap(player: Player, kind: str, name: str) -> None:
    """Tap the button named ``name`` that the page has drawn, once the page takes taps (it
    takes none between sending one and the table's answer: the button is disabled)."""
    await player.page.bring_to_front()  # a background tab does not paint: no click lands
    button = player.page.get_by_role("button", name=name, exact=True)
    # A hand's card shows its left strip (its index) from under the next one: a person
    # taps it there, as does this.
    where = {"x": 6, "y": 12} if kind == "card" else None
    await button.first.click(timeout=20_000, position=where)


async def play_until(
    players: list[Player], done: Callable[[], bool], on_move: Callable[[], Awaitable[None]]
) -> int:
    """The pages tap what the states they have drawn offer until ``done``; returns the taps
    made. Before each tap every page has drawn what it was sent; after it, the page that
    tapped has drawn the table's answer. Turns come one at a time (TX.7's window aside,
    where an answer drawn when it opened stays valid), so a page that offers a move is the
    page to make it, even if another page has yet to draw the last one."""
    taps = 0
    deadline = time.monotonic() + 120
    while not done():
        assert time.monotonic() < deadline, "the deal did not finish"
        states = [await caught_up(player) for player in players]
        offered = [(p, choice(s), s["version"]) for p, s in zip(players, states, strict=True)]
        movers = [(player, picked, version) for player, picked, version in offered if picked]
        if not movers:  # the move is on its way to the page that makes the next one
            before = [state["version"] for state in states]

            def drew_next(before: list[int] = before) -> bool:
                return done() or [p.drawn for p in players] != before

            await until(drew_next, "a page drew the next move")
            continue
        player, picked, version = movers[0]
        assert picked is not None
        await tap(player, *picked)
        await until(partial(player.shows, version + 1), "the tap answered")
        taps += 1
        await on_move()
    return taps


def hidden_cards_seen(players: list[Player], database: Path, table: int) -> list[str]:
    """Every card a page was sent while another seat held it (the match log replayed)."""
    match, moves = logged(database, table)

    # At each version, the cards each seat holds that the public view does not show (the
    # shown card of T41.4 is in a hand and public).
    def hidden() -> list[set[str]]:
        public = cards_named(json.dumps(match.view(None)))
        return [set(match.hand(s)) - public for s in range(4)]

    held: dict[int, list[set[str]]] = {0: hidden()}
    played: dict[int, str] = {}  # seq → the card played face up by that move
    deal_of: dict[int, int] = {0: match.deal_number}  # seq → the deal it was made in
    for move in moves:
        deal_of[move.seq] = match.deal_number
        match.apply(move.seat, move.action)
        if move.action.get("type") == "play":
            played[move.seq] = move.action["card"]
        if match.result is None:
            held[move.seq] = hidden()
    leaks = []
    for player in players:
        before = 0  # the version of the page's previous state
        for frame in player.frames.received:
            if frame.get("type") != "state":
                continue
            state = frame["state"]
            version = state["version"]
            hands = held.get(version)
            if hands is not None:
                others = set().union(*(hands[s] for s in range(4) if s != player.seat))
                for key, value in state.items():
                    named = cards_named(json.dumps(value, ensure_ascii=False))
                    leaks += [
                        f"seat {player.seat} v{version} {key}: {card}"
                        for card in sorted(named & others)
                    ]
                # Its moves name only cards played face up in the deals they span (a trick
                # names its earlier cards too; one of them may be in a new deal's hand by
                # now: that is no leak).
                deals = range(deal_of.get(before, 0), deal_of.get(version, 0) + 1)
                shown = {
                    c for seq, c in played.items() if seq <= version and deal_of[seq] in deals
                }
                named = cards_named(json.dumps(frame.get("moves") or [], ensure_ascii=False))
                leaks += [
                    f"seat {player.seat} v{version} moves: {card}"
                    for card in sorted((named - shown) & others)
                ]
            before = version
    return leaks


def cards_named(text: str) -> set[str]:
    """Every card a text names, by code ("TS"), by label ("10♠") or in words."""
    named = set(CARD_CODE.findall(text))
    named |= {code for words, code in CARD_WORDS.items() if words in text}
    for rank, suit in CARD_LABEL.findall(text):
        named.add(("T" if rank == "10" else rank) + SUITS[suit])
    return named
