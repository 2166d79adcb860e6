"""Platform writes per deal when the players are on the web table, against the chats alone.

The real presenter and the real outbox over a real table manager and SQLite, in virtual
time, with four scripted humans pressing a legal move 1.5 s after their turn comes (the
presenter tests' ``running_table``). The outbox takes the options its platform's ``build``
gives it — Telegram's budgets (a group write every 3.5 s, a private one a second, 30 a
second for the bot) or Discord's channel pacing (``bot/discord/app.py``: a channel write
every 1.25 s, at most 4 in 5 s, no bot-wide budget of ours) — because the pace decides how
many moves coalesce into one write. Three ways: nobody on a page (today's chats), one seat
on a page, all four on pages (on Discord: the players in the Activity). Private chats are
every player's (a Telegram private chat, a Discord DM): the most the platform could be
asked to write; Discord's ephemeral hands are answers to a press, never pushed.

After a first deal (the lobby and the first hands are not a deal's bill), ``--deals``
deals are played; each deal's bill is its moves, its result and the next deal's table.
Per deal it prints group (channel) writes — the most in one deal too — private writes,
all of them, the deal's length and how many such tables one bot token carries at the
platform's request rate (Telegram's 30 writes a second, Discord's global 50 requests a
second).

Run ``python -m benchmarks.web_writes`` from the repository root (``make bench`` does);
``--platform discord`` for Discord alone; ``--json`` ends with one JSON line. Figures are
printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.variants import VARIANTS
from tests.bot.present.support import GROUP, PACES, running_table
from tests.bot.present.test_presenter import scored

GOAL_TABLES = 250  # issue 26's goal per bot token
WAYS = {"chats": frozenset[int](), "one page": frozenset({0}), "four pages": frozenset(range(4))}


@dataclass(frozen=True)
class Platform:
    group: str  # what the platform calls the table's shared chat
    requests_per_s: float  # what one bot token may send in a second, every chat together
    outbox: dict[str, Any] = field(default_factory=dict)  # as the platform's build passes


PLATFORMS = {
    "telegram": Platform("group", 30.0, PACES["telegram"]),
    "discord": Platform("channel", 50.0, PACES["discord"]),  # Discord's global limit
}


async def measure(
    platform: Platform, variant: str, pages: frozenset[int], deals: int
) -> dict[str, Any]:
    bills: list[tuple[int, int]] = []  # per deal: (group writes, private writes)
    with tempfile.TemporaryDirectory() as folder:
        async with running_table(
            Path(folder), variant, humans=4, outbox_options=platform.outbox
        ) as run:
            run.presenter.pages_changed(run.table, pages)
            await run.play(scored(run, 1))
            started = run.time()
            for deal in range(deals):
                before = len(run.recorder.writes)
                await run.play(scored(run, 2 + deal))
                writes = run.recorder.writes[before:]
                shared = sum(1 for w in writes if w.chat == GROUP)
                bills.append((shared, len(writes) - shared))
            seconds = (run.time() - started) / deals
    group = sum(g for g, _ in bills) / deals
    private = sum(p for _, p in bills) / deals
    per_s = (group + private) / seconds if seconds else 0.0
    return {
        "variant": variant,
        "pages": len(pages),
        "group_writes": round(group, 1),
        "group_most": max(g for g, _ in bills),
        "private_writes": round(private, 1),
        "writes": round(group + private, 1),
        "deal_seconds": round(seconds, 1),
        "tables_per_token": int(platform.requests_per_s / per_s) if per_s else 0,
        # The deal length at which GOAL_TABLES such tables fit one token: the tables a
        # token carries scale with the players' pace, the writes per deal do not.
        "goal_deal_seconds": round((group + private) * GOAL_TABLES / platform.requests_per_s, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--platform", choices=[*PLATFORMS, "all"], default="all")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = list(PLATFORMS) if args.platform == "all" else [args.platform]
    rows = []
    for name in names:
        platform = PLATFORMS[name]
        print(f"Platform writes per deal, four humans, {args.deals} deals ({name}, virtual time)")
        print(
            f"{'variant':<17} {'way':<11} {platform.group:>7} {'most':>5} {'private':>7}"
            f" {'all':>6} {'deal s':>7} {'tables':>6} {'250 at':>7}"
        )
        for variant in args.variants:
            for way, pages in WAYS.items():
                row = asyncio.run(measure(platform, variant, pages, args.deals))
                rows.append({**row, "platform": name, "way": way})
                print(
                    f"{variant:<17} {way:<11} {row['group_writes']:>7} {row['group_most']:>5}"
                    f" {row['private_writes']:>7} {row['writes']:>6} {row['deal_seconds']:>7}"
                    f" {row['tables_per_token']:>6} {row['goal_deal_seconds']:>7}"
                )
        print(f"most: the most {platform.group} writes in one deal")
        print(
            f"tables: busy tables one bot token carries at {platform.requests_per_s:.0f}"
            " requests a second"
        )
        print(
            f"{GOAL_TABLES} at: the deal length (s) at which {GOAL_TABLES} such tables fit a token"
        )
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
