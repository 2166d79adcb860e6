"""Platform writes per deal when the players are on the web table, against the chats alone.

The real presenter and the real outbox (Telegram's budgets: a group write every 3.5 s, a
private one a second) over a real table manager and SQLite, in virtual time, with four
scripted humans pressing a legal move 1.5 s after their turn comes (the presenter tests'
``running_table``). Three ways: nobody on a page (today's chats), one seat on a page, all
four on pages. After a first deal (the lobby and the first hands are not a deal's bill),
``--deals`` deals are played; per deal it prints group writes, private writes, the deal's
length and how many such tables one bot token carries at Telegram's 30 writes a second.

Run ``python -m benchmarks.web_writes`` from the repository root (``make bench`` does);
``--json`` ends with one JSON line. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from tests.bot.present.support import GROUP, running_table
from tests.bot.present.test_presenter import scored

BOT_WRITES_PER_S = 30.0
GOAL_TABLES = 250  # issue 26's goal per bot token
WAYS = {"chats": frozenset[int](), "one page": frozenset({0}), "four pages": frozenset(range(4))}


async def measure(variant: str, pages: frozenset[int], deals: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        async with running_table(Path(folder), variant, humans=4) as run:
            run.presenter.pages_changed(run.table, pages)
            await run.play(scored(run, 1))
            before = list(run.recorder.writes)
            started = run.time()
            await run.play(scored(run, 1 + deals))
            seconds = (run.time() - started) / deals
            writes = run.recorder.writes[len(before) :]
    group = sum(1 for w in writes if w.chat == GROUP) / deals
    private = sum(1 for w in writes if w.chat != GROUP) / deals
    per_s = (group + private) / seconds if seconds else 0.0
    return {
        "variant": variant,
        "pages": len(pages),
        "group_writes": round(group, 1),
        "private_writes": round(private, 1),
        "writes": round(group + private, 1),
        "deal_seconds": round(seconds, 1),
        "tables_per_token": int(BOT_WRITES_PER_S / per_s) if per_s else 0,
        # The deal length at which GOAL_TABLES such tables fit one token: the tables a
        # token carries scale with the players' pace, the writes per deal do not.
        "goal_deal_seconds": round((group + private) * GOAL_TABLES / BOT_WRITES_PER_S, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--variants", nargs="*", default=["syrian41", "trix_complex"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    print("Platform writes per deal, four humans (virtual time, Telegram's budgets)")
    print(
        f"{'variant':<14} {'way':<11} {'group':>6} {'DM':>6} {'all':>6} {'deal s':>7}"
        f" {'tables':>6} {'250 at':>7}"
    )
    for variant in args.variants:
        for way, pages in WAYS.items():
            row = asyncio.run(measure(variant, pages, args.deals))
            rows.append({**row, "way": way})
            print(
                f"{variant:<14} {way:<11} {row['group_writes']:>6} {row['private_writes']:>6}"
                f" {row['writes']:>6} {row['deal_seconds']:>7} {row['tables_per_token']:>6}"
                f" {row['goal_deal_seconds']:>7}"
            )
    print(f"tables: busy tables one bot token carries at {BOT_WRITES_PER_S:.0f} writes a second")
    print(f"{GOAL_TABLES} at: the deal length (s) at which {GOAL_TABLES} such tables fit a token")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
