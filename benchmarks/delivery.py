"""What a group and its players receive while whole deals are played, under Telegram's limits.

The real PTB application polls the fake Bot API of the tests (``tests/bot/telegram``) with
its flood limits on (20 writes a minute per group, 30 a second for the bot). Scripted
humans play from the outside only, as users do: the group gets ``/lang en``, ``/new``,
``/join``, ``/addbot`` and ``/begin``, each human opens the private chat by the deep link
and then presses a legal button of the latest private message that has buttons, about
``--think`` seconds (1.5) after it showed their turn — the first enabled card, Pass, the
first contract, "no double" in the Trix window, and a bid of 3 in team Tarneeb (four bids
of 2 would never reach the 11 a deal needs). Every variant is played with one human and
three computers and with four humans, ``--deals`` played deals each (1; a Trix deal is one
kingdom contract).

Real time is slow (a deal of humans lasts minutes), so every duration is multiplied by
``--scale`` (0.1): the humans' think time, the fake's limit windows and ``retry_after``
values, the network round trip, the outbox's budgets (set on the built bot's outbox) and
the TX.12 forced-move delay (an operator table default). Turn timers stay long: the humans
always press in time. Every figure is reported at the unscaled time base.

Per deal: group writes (``sendMessage``/``editMessageText`` accepted in the group chat),
private writes, 429 answers, the longest group silence while the deal was played (the
largest gap between the deal's start, its group writes and its end), the share of its
played cards the group was shown ("<player> <card>" in some group text written from the
deal's start until the next deal ended — a trick line, a last-trick line, the result — or,
in a Trix rows contract, the card in its row), Bot API calls (without ``getUpdates``) and
``answerCallbackQuery`` apart, and how many such tables one bot token could carry at 30
writes a second. The true plays and deal boundaries are read from the bot's SQLite file
(the action log, replayed through the engine): a measurement, not a way into the bot.
A deal's window is from the end of the one before (or ``/begin``) to its own last move.

Run ``python -m benchmarks.delivery`` from the repository root (``make bench`` does);
``--json PATH`` writes the figures (``--json`` alone prints them as one JSON line at the
end). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import math
import os
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import engine
from benchmarks.waiting import SETUP_TIMEOUT, until
from bot.tables.computers import Computers
from bot.telegram.app import TelegramBot, build, start, stop
from storage.database import Database
from storage.logreader import LogReader
from tests.bot.telegram.fake_api import WRITES, Call, FakeBotAPI, Message

VARIANTS = ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")
CONFIGS = {"1h+3c": 1, "4h": 4}  # configuration name -> humans at the table
GROUP = -100_555_000
USERS = (70_001, 70_002, 70_003, 70_004)
NAMES = ("Ali", "Badr", "Carla", "Dana")
THINK = 1.5  # seconds from "your turn" to the press (unscaled)
LATENCY = 0.1  # the network round trip (unscaled)
FORCED_DELAY = 1.5  # TX.12: the bot plays a lone legal move after this (its default)
TEAM_BID = "3"  # 4 × 3 ≥ 11, the total a team Tarneeb deal needs (T41.6, T41D.3)
BOT_WRITES_PER_S = 30
# The outbox's durations (present or still to come): each is multiplied by the scale.
# Counts (group_limit, bot_limit) and points in time are left alone.
OUTBOX_DURATIONS = (
    "window",
    "bot_window",
    "private_interval",
    "group_interval",
    "backoff",
    "max_backoff",
    "ramp_up",
    "ramp_seconds",
    "ramp_window",
)
BIDI = str.maketrans("", "", "\u2068\u2069\u200e")  # isolates and marks around names
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DIGITS = re.compile(r"\d+")


def label(code: str) -> str:
    """``"QH"`` → ``"Q♥"``, ``"TS"`` → ``"10♠"``: a card as the English tables show it."""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


# ---------------------------------------------------------------- the true plays


@dataclass
class Play:
    seat: int
    card: str
    at: float  # monotonic


@dataclass
class Deal:
    number: int
    start: float  # monotonic: the end of the deal before, or /begin
    end: float | None = None
    contract: str | None = None  # Trix: "complex" or "trix"
    plays: list[Play] = field(default_factory=list)


class Ledger:
    """The table's action log in the bot's SQLite file, replayed through the engine as it
    grows: which deal every move belonged to, and when each deal ended."""

    def __init__(self, path: Path, chat: int) -> None:
        self.log = LogReader(path)
        self.chat = chat
        self.table_id: int | None = None
        self.match: Any = None
        self.seq = 0
        self.deals: list[Deal] = []
        self.over = False
        # Wall time (the log's) → monotonic (the fake's).
        self.offset = time.time() - time.monotonic()

    def close(self) -> None:
        self.log.close()

    def table(self) -> int | None:
        if self.table_id is None:
            self.table_id = self.log.latest_table("telegram", str(self.chat))
        return self.table_id

    def seated(self) -> int:
        table = self.table()
        return 0 if table is None else len(self.log.seats(table))

    def names(self) -> dict[int, tuple[str, bool]]:
        """seat -> (name, is a computer)."""
        table = self.table()
        return {} if table is None else self.log.seats(table)

    def status(self) -> str | None:
        table = self.table()
        return None if table is None else self.log.status(table)

    def begin(self, at: float) -> None:
        table = self.table()
        assert table is not None
        setup = self.log.setup(table)
        options = {"target": setup.config["target"]} if setup.variant == "tarneeb_solo" else {}
        self.match = engine.new_match(
            setup.variant, seed=setup.seed, options=options, decks=setup.decks
        )
        self.deals = [Deal(self.match.deal_number, at)]

    def poll(self) -> None:
        """Replay the moves logged since the last poll."""
        table = self.table()
        if self.match is None or self.over or table is None:
            return
        for move in self.log.moves_after(table, self.seq):
            seat, action = move.seat, move.action
            at = move.at - self.offset
            deal = self.deals[-1]
            self.match.apply(seat, action)
            self.seq = move.seq
            if action.get("type") == "play":
                deal.plays.append(Play(seat, str(action["card"]), at))
            contract = self.match.view(None).get("contract")
            if contract and deal.contract is None:
                deal.contract = str(contract)
            if self.match.result is not None:
                deal.end = at
                self.over = True
                return
            if self.match.deal_number != deal.number:
                deal.end = at
                self.deals.append(Deal(self.match.deal_number, at))

    def played(self) -> int:
        """Deals over that had cards played (a cancelled deal has none)."""
        return sum(1 for d in self.deals if d.end is not None and d.plays)


# ---------------------------------------------------------------- the humans


def enabled_buttons(message: Message | None) -> list[dict[str, Any]]:
    """The buttons a player may press: Telegram has no disabled buttons, so the bot draws
    an unplayable card in parentheses; the ☐/☑ toggles of the Trix window only mark."""
    if message is None:
        return []
    found = []
    for row in message.keyboard:
        for button in row:
            text = str(button.get("text", ""))
            if "callback_data" in button and not text.startswith(("(", "☐", "☑")):
                found.append(button)
    return found


def choose(message: Message | None) -> str | None:
    """The callback data a scripted human presses: the first enabled button, except in a
    team Tarneeb auction (numbers only, no Pass), where they bid 3."""
    buttons = enabled_buttons(message)
    if not buttons:
        return None
    texts = [str(b.get("text", "")) for b in buttons]
    if all(DIGITS.fullmatch(t) for t in texts) and TEAM_BID in texts:
        return str(buttons[texts.index(TEAM_BID)]["callback_data"])
    return str(buttons[0]["callback_data"])


@dataclass
class Human:
    user: int
    name: str
    presses: list[float] = field(default_factory=list)  # monotonic
    refused: list[float] = field(default_factory=list)  # answered with a notice


async def play(fake: FakeBotAPI, human: Human, think: float, done: asyncio.Event) -> None:
    """Press a legal button of the latest private message that has buttons, ``think``
    seconds after it showed the turn; a screen already pressed (or refused) is not
    pressed again until it changes."""
    pressed: tuple[int, int, int] | None = None

    def state(message: Message) -> tuple[int, int, int]:
        return message.message_id, message.edits, len(message.versions)

    while not done.is_set():
        message = fake.latest_with_buttons(human.user)
        if message is None or state(message) == pressed or choose(message) is None:
            await asyncio.sleep(0.005)
            continue
        seen = state(message)
        await asyncio.sleep(think)
        latest = fake.latest_with_buttons(human.user)
        if done.is_set() or latest is None or state(latest) != seen:
            continue  # the screen changed while they thought: think again
        data = choose(latest)
        if data is None:
            continue
        query, _ = fake.press(human.user, latest, data, name=human.name)
        human.presses.append(time.monotonic())
        pressed = seen
        try:
            answer = await fake.answered(query, timeout=SETUP_TIMEOUT)
        except TimeoutError:
            continue
        if answer.get("text"):
            human.refused.append(time.monotonic())


# ---------------------------------------------------------------- one table


@dataclass
class DealFigures:
    variant: str
    config: str
    deal: int
    seconds: float
    cancelled: bool
    contract: str | None
    plays: int
    plays_shown: int
    share_shown: float | None
    group_writes: int
    dm_writes: int
    too_many: int
    max_group_silence_s: float
    api_calls: int
    answer_callback: int
    presses: int
    refused_presses: int
    writes_per_s: float
    tables_per_token: float | None


def scale_bot(bot: TelegramBot, scale: float) -> None:
    """The bot's own budgets and timers on the benchmark's time base, from outside: the
    outbox's durations, and the operator's forced-move delay for new tables."""
    outbox = bot.outbox
    for name in OUTBOX_DURATIONS:
        value = getattr(outbox, name, None)
        if isinstance(value, int | float) and not isinstance(value, bool):
            setattr(outbox, name, value * scale)
    frontend = bot.frontend
    defaults = dict(getattr(frontend, "table_defaults", {}) or {})
    frontend.table_defaults = {**defaults, "forced_delay_seconds": FORCED_DELAY * scale}


async def open_table(fake: FakeBotAPI, ledger: Ledger, variant: str, humans: list[Human]) -> float:
    """/lang en, /new, /join, /addbot, every human's /start t<table>, /begin — as users
    would. Returns when /begin was sent (monotonic)."""
    creator = humans[0]
    fake.command(GROUP, creator.user, "/lang en", name=creator.name)
    fake.command(GROUP, creator.user, f"/new {variant}", name=creator.name)
    # One chat's commands are handled in the order sent.
    for human in humans[1:]:
        fake.command(GROUP, human.user, "/join", name=human.name)
    for _ in range(4 - len(humans)):
        fake.command(GROUP, creator.user, "/addbot", name=creator.name)
    await until(lambda: ledger.seated() == 4, "the table filled")
    table = ledger.table()
    for human in humans:
        fake.command(human.user, human.user, f"/start t{table}", name=human.name)
    await until(lambda: all(fake.in_chat(h.user) for h in humans), "private chats opened")
    began = time.monotonic()
    fake.command(GROUP, creator.user, "/begin", name=creator.name)
    await until(lambda: ledger.status() == "running", "the table started")
    ledger.begin(began)
    return began


async def measure(
    variant: str, config: str, deals: int, scale: float, latency: float, think: float
) -> tuple[list[DealFigures], list[Call], Ledger]:
    humans = [Human(user, name) for user, name in zip(USERS, NAMES, strict=True)]
    humans = humans[: CONFIGS[config]]
    fake = FakeBotAPI(limits=True, scale=scale, latency=latency * scale)
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite"
        db = Database(path)
        await db.start()
        bot = build("123:BENCH", db, api_url=fake.url, computers=Computers(), poll_timeout=10)
        scale_bot(bot, scale)
        ledger = Ledger(path, GROUP)
        done = asyncio.Event()
        try:
            await start(bot, poll_timeout=10)
            await open_table(fake, ledger, variant, humans)
            players = [
                asyncio.create_task(play(fake, human, think * scale, done)) for human in humans
            ]
            # A played deal of four humans is about 60 presses of ``think`` each.
            deadline = time.monotonic() + SETUP_TIMEOUT + deals * 400 * scale
            while ledger.played() < deals and not ledger.over:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{variant} {config}: {ledger.played()} deal(s) played")
                await asyncio.sleep(0.02)
                ledger.poll()
            done.set()
            await asyncio.gather(*players)
            # Let the outbox deliver what the last deal left (its last trick, its sheet).
            flush = getattr(bot.outbox, "flush", None)
            if flush is not None:
                window = float(getattr(bot.outbox, "window", 60.0 * scale))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(flush(), timeout=2 * window + 2)
            ledger.poll()
            ended = time.monotonic()
        finally:
            done.set()
            await stop(bot)
            await db.close()
            await fake.close()
        names = ledger.names()
        ledger.close()
    figures = deal_figures(variant, config, fake.calls, ledger, names, humans, scale, ended)
    return figures, fake.calls, ledger


def shown(play: Play, names: dict[int, tuple[str, bool]], texts: list[str], rows: bool) -> bool:
    """Whether the group saw ``play``: "<name> <card>" (a computer's mark may sit between
    them), or, in a Trix rows contract, the card laid in its row."""
    name, _ = names.get(play.seat, (f"#{play.seat + 1}", False))
    pattern = re.compile(re.escape(name) + r"(?:\s+[^\s\w]+)*\s+" + re.escape(label(play.card)))
    if any(pattern.search(text) for text in texts):
        return True
    if rows:
        symbol, rank = SUITS[play.card[1]], label(play.card)[:-1]
        slot = RANKS.index(rank)
        for text in texts:
            for line in text.splitlines():
                parts = line.split()
                if len(parts) == 14 and parts[0] == symbol and parts[1 + slot] == rank:
                    return True
    return False


def deal_figures(
    variant: str,
    config: str,
    calls: list[Call],
    ledger: Ledger,
    names: dict[int, tuple[str, bool]],
    humans: list[Human],
    scale: float,
    ended: float,
) -> list[DealFigures]:
    finished = [d for d in ledger.deals if d.end is not None]
    # Only the deals up to the last one played (the next may have begun meanwhile).
    while finished and not finished[-1].plays:
        finished.pop()
    group_texts = [
        (c.at, str(c.params["text"]).translate(BIDI))
        for c in calls
        if c.method in WRITES and c.code == 200 and int(c.params["chat_id"]) == GROUP
    ]
    presses = sorted(at for h in humans for at in h.presses)
    refused = sorted(at for h in humans for at in h.refused)
    results = []
    for index, deal in enumerate(finished):
        assert deal.end is not None
        start, end = deal.start, deal.end

        def inside(at: float, start: float = start, end: float = end) -> bool:
            return start < at <= end

        window = [c for c in calls if inside(c.at) and c.method != "getUpdates"]
        writes = [c for c in window if c.method in WRITES and c.code == 200]
        group = [c for c in writes if int(c.params["chat_id"]) == GROUP]
        private = [c for c in writes if int(c.params["chat_id"]) > 0]
        marks = [start, *(c.at for c in group), end]
        silence = max(b - a for a, b in itertools.pairwise(marks))
        # What the group could read about this deal: from its start until the next deal
        # ended (its last trick and its result come after its last move).
        after = finished[index + 1].end if index + 1 < len(finished) else None
        until_at = ended if after is None else after
        texts = [text for at, text in group_texts if start < at <= until_at]
        rows = deal.contract == "trix"
        seen = sum(shown(p, names, texts, rows) for p in deal.plays)
        seconds = (end - start) / scale
        per_s = len(writes) / seconds if seconds > 0 else 0.0
        results.append(
            DealFigures(
                variant=variant,
                config=config,
                deal=deal.number,
                seconds=round(seconds, 1),
                cancelled=not deal.plays,
                contract=deal.contract,
                plays=len(deal.plays),
                plays_shown=seen,
                share_shown=round(seen / len(deal.plays), 3) if deal.plays else None,
                group_writes=len(group),
                dm_writes=len(private),
                too_many=sum(1 for c in window if c.code == 429),
                max_group_silence_s=round(silence / scale, 1),
                api_calls=len(window),
                answer_callback=sum(1 for c in window if c.method == "answerCallbackQuery"),
                presses=sum(1 for at in presses if inside(at)),
                refused_presses=sum(1 for at in refused if inside(at)),
                writes_per_s=round(per_s, 2),
                tables_per_token=round(BOT_WRITES_PER_S / per_s, 1) if per_s else None,
            )
        )
    return results


# ---------------------------------------------------------------- the report

COLUMNS = (
    ("variant", "variant", 16),
    ("config", "config", 6),
    ("deal", "deal", 4),
    ("seconds", "secs", 6),
    ("plays", "plays", 5),
    ("share_shown", "shown", 6),
    ("group_writes", "grp W", 5),
    ("dm_writes", "DM W", 5),
    ("too_many", "429s", 4),
    ("max_group_silence_s", "silence", 7),
    ("api_calls", "calls", 5),
    ("answer_callback", "ansCB", 5),
    ("presses", "press", 5),
    ("refused_presses", "refus", 5),
    ("writes_per_s", "W/s", 5),
    ("tables_per_token", "tables", 6),
)


def row(figures: DealFigures) -> str:
    cells = []
    for key, _, width in COLUMNS:
        value = getattr(figures, key)
        if key == "share_shown":
            value = "—" if value is None else f"{100 * value:.0f}%"
        elif key == "contract":
            value = value or ""
        elif value is None:
            value = "—"
        if key == "deal" and figures.contract:
            value = f"{value}{figures.contract[0]}"  # Trix: c(omplex) or t(rix)
        if key == "deal" and figures.cancelled:
            value = f"{value}x"
        text = str(value)
        cells.append(text.ljust(width) if key in ("variant", "config") else text.rjust(width))
    return " ".join(cells)


def header() -> str:
    return " ".join(
        title.ljust(width) if key in ("variant", "config") else title.rjust(width)
        for key, title, width in COLUMNS
    )


def run(
    variants: tuple[str, ...] = VARIANTS,
    configs: tuple[str, ...] = tuple(CONFIGS),
    deals: int = 1,
    scale: float = 0.1,
    latency: float = LATENCY,
    think: float = THINK,
    quiet: bool = False,
) -> dict[str, Any]:
    """Every variant × configuration; returns the figures (and prints them, unless quiet)."""
    say: Callable[[str], None] = (lambda _: None) if quiet else (lambda s: print(s, flush=True))
    say(
        f"Telegram delivery: {deals} deal(s) per variant and configuration, think"
        f" {think:g} s, round trip {latency * 1000:.0f} ms, time scale {scale:g}"
        " (figures unscaled)"
    )
    say(header())
    results: dict[str, Any] = {
        "scale": scale,
        "think_s": think,
        "latency_s": latency,
        "deals_per_run": deals,
        "runs": [],
    }
    for variant in variants:
        for config in configs:
            began = time.monotonic()
            figures, _, _ = asyncio.run(measure(variant, config, deals, scale, latency, think))
            for deal in figures:
                say(row(deal))
            results["runs"].append(
                {
                    "variant": variant,
                    "config": config,
                    "real_seconds": round(time.monotonic() - began, 1),
                    "deals": [asdict(deal) for deal in figures],
                }
            )
    say(
        "secs: the deal's length · shown: its played cards seen in the group · grp W / DM W:"
        " accepted writes · silence: the longest group gap in play (s) · calls: Bot API calls"
        " but getUpdates · ansCB: answerCallbackQuery · press/refus: human presses / answered"
        " with a notice · W/s: all writes per second · tables: tables per token at"
        f" {BOT_WRITES_PER_S} writes/s · deal suffix c/t: Trix contract, x: cancelled"
    )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Sahra Telegram delivery under flood limits")
    parser.add_argument("--deals", type=int, default=1, help="played deals per table")
    parser.add_argument("--scale", type=float, default=0.1, help="multiplies every duration")
    parser.add_argument("--think", type=float, default=THINK, help="seconds to a press")
    parser.add_argument("--latency", type=float, default=LATENCY, help="round trip, seconds")
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--configs", nargs="+", choices=tuple(CONFIGS), default=list(CONFIGS))
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="PATH",
        help="write the figures to PATH (alone: print them as one JSON line at the end)",
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or not math.isfinite(args.scale) or args.scale <= 0:
        parser.error("--deals must be at least 1 and --scale positive")
    logging.basicConfig(level=logging.ERROR)  # the bot's own INFO lines are not figures
    os.environ.setdefault("PTB_TIMEDELTA", "true")  # as deployed (deploy/ sets it)
    results = run(
        tuple(args.variants),
        tuple(args.configs),
        args.deals,
        args.scale,
        args.latency,
        args.think,
    )
    if args.json == "-":
        print(json.dumps(results))
    elif args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
