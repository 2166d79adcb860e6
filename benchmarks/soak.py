"""Soak: open and finish many short tables; what the process holds must come back down.

The real manager, SQLite file, notifiers and outboxes of both platforms run with an
in-process sender (no HTTP) and virtual time for the outboxes and timers. Each table is
a group of its own with new players: a third are stopped in the lobby, a third expire
there, a third start with two humans and two computers, play a few moves (the humans by
timeout, with their hands sent privately) and are stopped. Printed: every per-table,
per-chat and per-user structure before and after (they must return to their baseline: the contacts
caches also forget who has not been seen for an hour), and the RSS before and after.

``--tables N`` (default 10,000); ``--json`` ends with one JSON object. Nothing is
asserted on time.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.delivery import Outbox
from bot.delivery.contacts import TTL, Contacts
from bot.delivery.router import PlatformRouter
from bot.discord.notifier import DiscordNotifier
from bot.render.model import Screen
from bot.tables import Place, PlayerRef, TableManager
from bot.telegram.notifier import TelegramNotifier
from storage.database import Database

WAVE = 50  # tables in flight at once


class VirtualClock:
    """Time that jumps when something waits, so budgets and timers cost no real time."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


class NullSender:
    """Accepts every write, as a platform that is always up would."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)
        self.writes = 0

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        self.writes += 1
        return str(next(self.ids))

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self.writes += 1


def rss_mib() -> float:
    """The resident set now (Linux: /proc), in MiB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


class Soak:
    def __init__(self, db: Database, clock: VirtualClock) -> None:
        self.clock = clock
        self.router = PlatformRouter()
        self.manager = TableManager(db, self.router, clock=clock)
        self.senders = {"telegram": NullSender(), "discord": NullSender()}
        self.outboxes = {
            name: Outbox(sender, clock=clock, sleep=clock.sleep)
            for name, sender in self.senders.items()
        }
        self.contacts = Contacts(db, "telegram", clock=clock)
        self.telegram = TelegramNotifier(
            self.outboxes["telegram"], self.contacts, lambda: "sahra_bot", clock=clock
        )
        self.discord = DiscordNotifier(self.outboxes["discord"], clock=clock)
        self.router.add("telegram", self.telegram)
        self.router.add("discord", self.discord)

    def sizes(self) -> dict[str, int]:
        figures: dict[str, int] = {}
        figures.update({f"manager_{k}": v for k, v in self.manager.registry.sizes().items()})
        for name, outbox in self.outboxes.items():
            figures[f"{name}_outbox_chats"] = outbox.tracked_chats()
        figures["telegram_tables"] = len(self.telegram._tables)
        figures["telegram_where"] = len(self.telegram._where)
        figures["telegram_presenter"] = self.telegram.presenter.tracked()
        figures["discord_dm_users"] = len(self.discord.dm_users)
        figures["discord_presenter"] = self.discord.presenter.tracked()
        figures.update({f"contacts_{k}": v for k, v in self.contacts.sizes().items()})
        figures["tasks"] = len(asyncio.all_tasks())
        return figures

    async def one_table(self, number: int) -> None:
        platform = "telegram" if number % 2 == 0 else "discord"
        place = Place(platform, f"group-{number}")
        humans = [
            PlayerRef(user_id=f"u{number}-{i}", name=f"Player {number}.{i}", language="en")
            for i in range(2)
        ]
        if platform == "telegram":
            for human in humans:
                await self.contacts.prefetch(place.chat, [human.user_id])
                await self.contacts.set_dm_ok(human.user_id, True, human.name, "en")
        manager = self.manager
        kind = number % 3
        variant = ("syrian41", "tarneeb_solo", "trix_complex")[number // 3 % 3]
        # Other tables move the shared clock: only the lobbies meant to expire may.
        ttl = 10 if kind == 1 else 7 * 24 * 3600
        table = await manager.create(
            place,
            humans[0],
            # No takeover: the match stays short (stopped after a few moves) rather than
            # played to its end by computers.
            {"variant": variant, "lobby_ttl_seconds": ttl, "timeouts_before_takeover": 20},
        )
        if kind == 0:  # stopped in the lobby
            await manager.join(table.id, humans[1])
            await manager.stop(table.id, humans[0].user_id)
            return
        if kind == 1:  # nobody came: the lobby expires (at the latest when the wave ends)
            return
        await manager.join(table.id, humans[1])
        if platform == "discord":
            self.discord.want_dm(table.id, humans[1].user_id)
        await manager.add_computer(table.id, humans[0].user_id)
        await manager.add_computer(table.id, humans[0].user_id)
        await manager.begin(table.id, humans[0].user_id)
        for _ in range(6):  # a few timeouts and computer moves
            await manager.settle()
            if table.status != "running":
                break
            self.clock.now = max(self.clock.now, table.deadline or self.clock.now)
            await manager.run_due()
        if table.live:
            await manager.stop(table.id, humans[0].user_id)

    async def wave(self, start: int, count: int) -> None:
        await asyncio.gather(*(self.one_table(n) for n in range(start, start + count)))
        self.clock.now += 11.0
        await self.manager.run_due()
        await self.manager.settle()

    async def drain(self) -> None:
        """Let every write go out, every budget window pass and every cached contact go
        unused for longer than the contacts keep one."""
        for outbox in self.outboxes.values():
            await outbox.flush()
        self.clock.now += max(61.0, TTL + 1.0)


async def soak(path: Path, tables: int) -> dict[str, Any]:
    clock = VirtualClock()
    async with Database.open(path, synchronous="NORMAL") as db:
        run = Soak(db, clock)
        await run.manager.start()
        await run.wave(0, WAVE)  # warm-up: imports, caches, first allocations
        await run.drain()
        baseline = run.sizes()
        rss_before = rss_mib()
        begin = time.perf_counter()
        for start in range(WAVE, tables, WAVE):
            await run.wave(start, min(WAVE, tables - start))
        await run.drain()
        elapsed = time.perf_counter() - begin
        after = run.sizes()
        rss_after = rss_mib()
        writes = sum(sender.writes for sender in run.senders.values())
        await run.manager.close()
        for outbox in run.outboxes.values():
            await outbox.close()
    return {
        "tables": tables,
        "seconds": round(elapsed, 1),
        "writes": writes,
        "baseline": baseline,
        "after": after,
        "rss_before_mib": round(rss_before, 1),
        "rss_after_mib": round(rss_after, 1),
    }


def run(tables: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(soak(Path(folder) / "soak.sqlite", tables))
    print(
        f"soak: {result['tables']:,} tables opened and finished in {result['seconds']} s"
        f" ({result['writes']:,} platform writes)"
    )
    for name, before in result["baseline"].items():
        after = result["after"][name]
        print(f"  {name:<24} {before:>7,} → {after:>7,}")
    print(f"  RSS {result['rss_before_mib']} MiB → {result['rss_after_mib']} MiB")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Sahra soak: many short tables")
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.tables)
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
