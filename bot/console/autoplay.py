"""``make run`` until the console table exists: one seeded match, four computer players.

Every seat makes the move the rules prescribe on a timeout (``Match.auto_action``), so the
match is a replayable demonstration of dealing, bidding, play and scoring. Some variants
can drift forever under such timid play (in tarneeb41_double the forced last bid of 7
usually fails at −14), so the run stops after ``--max-deals`` deals and says so.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any, TextIO

import engine

SEATS = "seat 0", "seat 1", "seat 2", "seat 3"


def _row(values: list[Any]) -> str:
    return "  ".join(f"{'-' if v is None else v!s:>5}" for v in values)


def describe(event: dict[str, Any], match: engine.Match) -> Iterator[str]:
    """Public lines for one event; private events (``"to"``) are never printed."""
    kind = event["type"]
    if "to" in event:
        return
    if kind == "deal":
        line = f"Deal {event['deal_number']}"
        if event.get("kingdom") is not None:
            line += f" · kingdom {event['kingdom']} of seat {event['owner']}"
        if event.get("dealer") is not None:
            line += f" · dealer seat {event['dealer']}"
        if event.get("shown_card"):
            line += f" · shown {event['shown_card']} → trump {event['trump']}"
        yield line
    elif kind == "deal_cancelled":
        yield (
            f"  bids   {_row(event['bids'])}  total {event['total']} < {event['needed']}:"
            " cancelled, the deal passes on"
        )
    elif kind == "auction_won":
        yield f"  calls  {_row(match.view(None)['bids'])}"
        yield f"  auction won by seat {event['seat']} with {event['bid']}"
    elif kind == "contract":
        yield f"  contract {event['contract']}"
    elif kind == "doubles_revealed":
        doubled = ", ".join(f"{d['card']} by seat {d['seat']}" for d in event["doubled"])
        yield f"  doubled {doubled or 'nothing'}"
    elif kind in ("hand_emptied", "placed_fourth"):
        yield f"  seat {event['seat']} out in place {event['place']} (+{event['points']})"
    elif kind == "trump":
        yield f"  trump  {event['suit']} (named by seat {event['seat']})"
    elif kind == "hand_scored":
        if "bids" in event:
            yield f"  bids   {_row(event['bids'])}"
        if "tricks" in event:
            yield f"  tricks {_row(event['tricks'])}"
        yield f"  delta  {_row(event['deltas'])}"
        line = f"  scores {_row(event['scores'])}"
        if event.get("team_scores"):
            team_a, team_b = event["team_scores"]
            line += f"   teams 0+2: {team_a}  1+3: {team_b}"
        yield line
    elif kind == "match_over":
        result = event["result"]
        if result["draw"]:
            yield "Result: a draw."
        else:
            winners = ", ".join(str(seat) for seat in result["winners"])
            yield f"Result: seat(s) {winners} win after {match.deal_number} deals."


def play(variant: str, seed: int, max_deals: int, out: TextIO) -> engine.Match:
    info = engine.VARIANTS[variant]
    match = engine.new_match(variant, seed=seed)
    print(
        f"Sahra · {info.name_en} ({info.name_ar}) · seed {seed} · four computer players"
        " making the rules' timeout moves",
        file=out,
    )
    view = match.view(None)
    opening = {"type": "deal", "deal_number": 1, "dealer": view["dealer"]}
    if view["shown_card"]:
        opening.update(shown_card=view["shown_card"], trump=view["trump"])
    if view["owner"] is not None:
        opening.update(kingdom=view["kingdom"], owner=view["owner"])
    for line in describe(opening, match):
        print(line, file=out)
    while match.result is None:
        seat = match.to_act[0]
        action = match.auto_action(seat)
        assert action is not None
        events = match.apply(seat, action)
        for event in events:
            if event["type"] == "deal" and match.deal_number > max_deals:
                print(f"No result after {max_deals} deals; stopping here.", file=out)
                return match
            for line in describe(event, match):
                print(line, file=out)
    return match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="syrian41", choices=sorted(engine.VARIANTS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-deals", type=int, default=200)
    args = parser.parse_args(argv)
    play(args.variant, args.seed, args.max_deals, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
