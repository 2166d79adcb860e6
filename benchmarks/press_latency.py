"""Press → answer latency of the real Telegram bot over a slow network.

The real PTB application polls the fake Bot API of the tests (``tests/bot/telegram``),
which holds every HTTP call for ``--latency`` seconds of round trip (100 ms by default).
Tables play at once, each in a group of its own: human seats press a legal button of their
private hand as soon as it is their turn and the hand shows it (computers fill the other
seats, or ``--humans 4``), after a think time drawn between 0 and ``--think`` seconds
(players who pressed the instant their screen changed would all press in step with the
bot's own polling, which no table does). For every press the time from the update
entering Telegram's queue to the ``answerCallbackQuery`` reaching Telegram is recorded,
and p50/p90/max are printed for 1 table and for ``--tables`` tables (8). The outbox keeps
its real budgets (a private chat gets a write a second), so a human presses about once a
second.

Run ``python -m benchmarks.press_latency`` from the repository root (``make bench`` does);
``--json`` ends with one JSON object. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.waiting import until
from bot.render.codes import decode
from bot.render.hand import DOUBLE_PICK
from bot.tables import LiveTable, Place
from bot.tables.computers import Computers
from bot.telegram.app import TelegramBot, build, start, stop
from engine.players import HeuristicPlayer
from storage.database import Database
from tests.bot.telegram.fake_api import FakeBotAPI, Message

VARIANTS = ("syrian41", "tarneeb_solo", "trix_complex", "tarneeb41_double")


@dataclass
class Figures:
    tables: int
    humans: int
    latencies: list[float] = field(default_factory=list)
    refused: int = 0  # presses answered with a notice (a stale screen, say)

    def summary(self) -> dict[str, float]:
        ordered = sorted(self.latencies)

        def at(fraction: float) -> float:
            if not ordered:
                return 0.0
            return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

        return {
            "presses": len(ordered),
            "refused": self.refused,
            "p50_s": round(at(0.5), 3),
            "p90_s": round(at(0.9), 3),
            "max_s": round(ordered[-1], 3) if ordered else 0.0,
        }


def playable(message: Message | None, version: int) -> list[str]:
    """The callback data a player may press now, drawn at the table's current version."""
    if message is None:
        return []
    found = []
    for row in message.keyboard:
        for item in row:
            data = item.get("callback_data")
            decoded = decode(data) if isinstance(data, str) else None
            if (
                isinstance(data, str)
                and decoded
                and decoded[1] == version
                and decoded[2]["type"] not in ("noop", DOUBLE_PICK)
            ):
                found.append(data)
    return found


async def open_table(
    fake: FakeBotAPI, bot: TelegramBot, number: int, humans: list[int]
) -> LiveTable:
    """/new, /join, /addbot, every human opens the private chat, /begin — as users would."""
    group = -1_000_100 - number
    place = Place("telegram", str(group))
    manager = bot.manager
    fake.command(group, humans[0], f"/new {VARIANTS[number % len(VARIANTS)]}")
    await until(lambda: manager.table_at(place) is not None, f"table {number} opened")
    table = manager.table_at(place)
    assert table is not None
    # One group's commands are handled in the order sent, so they need not be awaited
    # one by one.
    for user in humans[1:]:
        fake.command(group, user, "/join")
    for _ in range(4 - len(humans)):
        fake.command(group, humans[0], "/addbot")
    await until(lambda: not table.free_seats(), f"table {number} filled")
    for user in humans:
        fake.command(user, user, f"/start t{table.id}")

    def reachable() -> bool:
        return all(bot.contacts.dm_ok(str(user)) for user in humans)

    await until(reachable, "private chats opened")
    fake.command(group, humans[0], "/begin")
    await until(lambda: table.status == "running", f"table {number} started")
    return table


async def human(
    fake: FakeBotAPI,
    table: LiveTable,
    user: int,
    presses: int,
    figures: Figures,
    rng: random.Random,
    think: float,
    over: asyncio.Event,
) -> None:
    """Press legal buttons of ``user``'s private hand, each once it can be pressed and
    ``user`` has thought. ``over``: a player of this table has made all their presses (the
    others stop too rather than wait for that player's turn timer)."""
    seat = table.seat_of(str(user))
    assert seat is not None
    brain = HeuristicPlayer()
    made = 0
    while made < presses:
        choices: list[str] = []

        def ready() -> bool:
            nonlocal choices
            match = table.match
            if table.status != "running" or match is None or seat not in match.to_act:
                return False
            choices = playable(fake.latest_with_buttons(user), table.seq)
            return bool(choices)

        try:
            await until(
                lambda: ready() or table.status != "running" or over.is_set(), "my turn", 60
            )
        except TimeoutError:
            return
        if table.status != "running" or table.match is None or over.is_set():
            return
        await asyncio.sleep(rng.uniform(0, think))
        if not ready():  # a move of the others' may have come in meanwhile (TX.7)
            continue
        assert table.match is not None
        wanted = brain.decide(table.match.view(seat))
        chosen = [data for data in choices if decode(data)[2] == wanted]  # type: ignore[index]
        message = fake.latest_with_buttons(user)
        assert message is not None
        pressed = time.monotonic()
        query, _ = fake.press(user, message, chosen[0] if chosen else rng.choice(choices))
        await until(partial(dict.__contains__, fake.answered_at, query), "answered", 60)
        figures.latencies.append(fake.answered_at[query] - pressed)
        if fake.answers[query].get("text"):
            figures.refused += 1
        made += 1
    over.set()


async def measure(
    tables: int, humans: int, presses: int, latency: float, think: float = 0.0
) -> Figures:
    figures = Figures(tables, humans)
    fake = FakeBotAPI(latency=latency)
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        db = Database(Path(folder) / "bench.sqlite")
        await db.start()
        bot = build("123:BENCH", db, api_url=fake.url, computers=Computers(), poll_timeout=10)
        try:
            await start(bot, poll_timeout=10)
            seated = [
                [10_000 + 10 * number + k for k in range(humans)] for number in range(tables)
            ]
            opened = await asyncio.gather(
                *(open_table(fake, bot, number, users) for number, users in enumerate(seated))
            )
            rng = random.Random(13)
            overs = [asyncio.Event() for _ in opened]
            await asyncio.gather(
                *(
                    human(
                        fake,
                        table,
                        user,
                        presses,
                        figures,
                        random.Random(rng.random()),
                        think,
                        over,
                    )
                    for table, users, over in zip(opened, seated, overs, strict=True)
                    for user in users
                )
            )
        finally:
            await stop(bot)
            await db.close()
            await fake.close()
    return figures


def run(
    table_counts: tuple[int, ...], humans: int, presses: int, latency: float, think: float
) -> dict[str, Any]:
    results: dict[str, Any] = {"latency_s": latency, "humans_per_table": humans, "think_s": think}
    for count in table_counts:
        figures = asyncio.run(measure(count, humans, presses, latency, think))
        summary = figures.summary()
        results[f"tables_{count}"] = summary
        print(
            f"press → answer, {count} table(s) × {humans} human(s), {latency * 1000:.0f} ms"
            f" round trip: p50 {summary['p50_s']:.3f} s  p90 {summary['p90_s']:.3f} s"
            f"  max {summary['max_s']:.3f} s  ({summary['presses']} presses,"
            f" {summary['refused']} refused)",
            flush=True,
        )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Sahra press → answer latency (Telegram)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tables", type=int, default=8, help="the busy run (and 1 table)")
    parser.add_argument("--humans", type=int, default=1, choices=(1, 2, 3, 4))
    parser.add_argument("--presses", type=int, default=15, help="presses per human")
    parser.add_argument("--latency", type=float, default=0.1, help="round trip, seconds")
    parser.add_argument("--think", type=float, default=0.5, help="longest think, seconds")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # the bot's own INFO lines are not figures
    os.environ.setdefault("PTB_TIMEDELTA", "true")  # as deployed (deploy/ sets it)
    counts = (1, args.tables) if args.tables != 1 else (1,)
    results = run(counts, args.humans, args.presses, args.latency, args.think)
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
