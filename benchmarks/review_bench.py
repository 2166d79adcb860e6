"""A deal's double-dummy review (``engine.review``): how long it takes, per variant.

Deals are played by the heuristic players from fixed seeds and replayed from their logs as
the tables keep them (``engine.records``); each scored deal is reviewed once, on this
process's one thread (the goal of issue 35: at most 200 ms at the 95th percentile on one
core). Printed per variant: deals, p50, p95 and max in milliseconds, and the share of
cards the review marked with a cost. ``--json`` ends with one JSON line. Run
``python -m benchmarks.review_bench`` from the repository root (``make bench`` does).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import engine
from engine.players import doubledummy
from engine.players.heuristic import HeuristicPlayer
from engine.records import DealRecord, replay
from engine.review import review_deal

VARIANTS = ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")


def scored_deals(variant: str, wanted: int, first_seed: int = 1) -> list[DealRecord]:
    """``wanted`` scored deals of ``variant``, from matches the heuristic players played."""
    deals: list[DealRecord] = []
    seed = first_seed
    while len(deals) < wanted:
        match = engine.new_match(variant, seed=seed)
        player = HeuristicPlayer()
        moves: list[tuple[int, dict[str, Any]]] = []
        while match.result is None and match.deal_number <= 6:
            seat = match.to_act[0]
            action = player.decide(match.view(seat))
            match.apply(seat, action)
            moves.append((seat, action))
        deals += [deal for deal in replay(variant, {}, seed, None, moves).deals if deal.scored]
        seed += 1
    return deals[:wanted]


def measure(variant: str, deals: int) -> dict[str, Any]:
    times: list[float] = []
    marked = cards = 0
    for deal in scored_deals(variant, deals):
        started = time.perf_counter()
        review = review_deal(variant, deal)
        times.append(1000 * (time.perf_counter() - started))
        cards += len(review.cards)
        marked += sum(1 for card in review.cards if card.cost)
    ordered = sorted(times)
    return {
        "variant": variant,
        "deals": len(times),
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
        "max_ms": round(ordered[-1], 1),
        "marked_pct": round(100 * marked / cards, 1) if cards else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="scored deals per variant")
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not doubledummy.available():
        print("DDS (the endplay wheel's libdds) is not installed: nothing to measure")
        return 1
    rows = [measure(variant, args.deals) for variant in args.variants]
    print("A deal's double-dummy review, one thread (goal: p95 at most 200 ms)")
    print(f"{'variant':<18} {'deals':>5} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'marked':>7}")
    for row in rows:
        print(
            f"{row['variant']:<18} {row['deals']:>5} {row['p50_ms']:>7} {row['p95_ms']:>7}"
            f" {row['max_ms']:>7} {row['marked_pct']:>6}%"
        )
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
