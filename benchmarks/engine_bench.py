"""Engine speed: random legal play through the public API and through the fast path.

Prints, per Tarneeb variant, full deals per second and actions per second through
``legal_actions`` + ``apply`` (every bid and card of a deal, events included), and full
deals per second through ``engine.fast`` (deal, random legal bids, 52 random legal cards,
scoring); for trix_complex, whole 8-deal matches per second. The fast figures measure the
rules core without the public surface's dicts and checks; they are not the computer
players' speed: those play out deals with the heuristic policies
(``engine.players.rollouts``), and ``benchmarks/arena.py`` reports their decision times.
``--json`` adds one JSON object of the figures as the last line. Timings are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import engine
from engine.fast import random_solo_deal, random_tarneeb_deal, random_trix_match

TEAM_VARIANTS = ("syrian41", "tarneeb41_double")


def public_rates(variant: str, seconds: float, seed: int = 1) -> tuple[float, float]:
    """(deals/s, actions/s) of random legal play through the public API."""
    rand = random.Random(seed).random
    match = engine.new_match(variant, seed=seed)
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        seat = match.to_act[0]
        legal = match.legal_actions(seat)
        for event in match.apply(seat, legal[int(rand() * len(legal))]):
            kind = event["type"]
            if kind == "hand_scored":
                deals += 1
                if deals % 50 == 0 and time.perf_counter() > deadline:
                    elapsed = time.perf_counter() - start
                    return deals / elapsed, (actions + 1) / elapsed
            elif kind == "match_over":
                match = engine.new_match(variant, seed=seed + deals)
        actions += 1


def fast_rate(variant: str, seconds: float, seed: int = 1) -> float:
    """Full deals/s through the fast path."""
    rng = random.Random(seed)
    deals = 0
    scores = [0, 0, 0, 0]
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(500):
            if variant == "tarneeb_solo":
                random_solo_deal(rng, deals & 3)
            else:
                random_tarneeb_deal(rng, deals & 3, scores, variant == "tarneeb41_double")
            deals += 1
        if time.perf_counter() > deadline:
            return deals / (time.perf_counter() - start)


def trix_public_rate(seconds: float, seed: int = 1) -> tuple[float, float]:
    """(matches/s, actions/s) of whole random trix_complex matches through the public API."""
    rand = random.Random(seed).random
    matches = actions = 0
    start = time.perf_counter()
    while True:
        match = engine.new_match("trix_complex", seed=seed + matches)
        while match.to_act:
            seat = match.to_act[0]
            legal = match.legal_actions(seat)
            match.apply(seat, legal[int(rand() * len(legal))])
            actions += 1
        matches += 1
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            return matches / elapsed, actions / elapsed


def trix_fast_rate(seconds: float, seed: int = 1) -> float:
    """Whole trix_complex matches/s through the fast path."""
    rng = random.Random(seed)
    matches = 0
    start = time.perf_counter()
    while True:
        for _ in range(50):
            random_trix_match(rng)
        matches += 50
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            return matches / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Sahra engine benchmark")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--quick", action="store_true", help="0.2 s per measurement")
    args = parser.parse_args(argv)
    seconds = 0.2 if args.quick else args.seconds
    figures: dict[str, float] = {}
    print(f"{'variant':<18}{'public deals/s':>16}{'public actions/s':>18}{'fast deals/s':>14}")
    for variant in (*TEAM_VARIANTS, "tarneeb_solo"):
        public_fast_warmup = public_rates(variant, 0.05)
        del public_fast_warmup
        deals, actions = public_rates(variant, seconds)
        fast = fast_rate(variant, seconds)
        figures[f"{variant}_public_deals_per_s"] = round(deals)
        figures[f"{variant}_public_actions_per_s"] = round(actions)
        figures[f"{variant}_fast_deals_per_s"] = round(fast)
        print(f"{variant:<18}{deals:>16,.0f}{actions:>18,.0f}{fast:>14,.0f}")
    trix_public_rate(0.05)
    matches, actions = trix_public_rate(seconds)
    fast_matches = trix_fast_rate(seconds)
    figures["trix_complex_public_matches_per_s"] = round(matches, 1)
    figures["trix_complex_public_actions_per_s"] = round(actions)
    figures["trix_complex_fast_matches_per_s"] = round(fast_matches, 1)
    print(
        f"{'trix_complex':<18}{matches:>12,.1f} matches/s {actions:>12,.0f} actions/s"
        f" {fast_matches:>10,.1f} fast matches/s (8 deals each)"
    )
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
