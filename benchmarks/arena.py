"""Arena: computer players against each other, whole matches, every variant.

For each pairing "A vs B" and each seed, the same seeded deals are played once per
arrangement of the sides — team variants: A on seats 0+2 then A on seats 1+3; solo: one A
in each of the four seats with three B — so the luck of the cards cancels out. Prints per
variant and pairing: A's match win rate with a 95% Wilson interval (a draw counts half;
solo parity is 0.25), the mean score per seat per deal of each side, and the decision time
p50/p95 of each player type. Per deal it also keeps A's team margin (A's score change
minus B's, with a 95% interval over matches) and the share of bids each side made.

A player kind may name its bidder and its card player apart: ``heuristic+search`` bids as
"easy" and plays as "hard". ``ddpimc`` is the double-dummy PIMC yardstick
(``benchmarks/ddpimc.py``). ``--reference`` runs the pairings that measure "hard" against
it, card play alone (both sides bid as "easy"), and "hard"'s bids against "easy"'s bids
with the same ("hard") card play, in the two partnership Tarneeb variants; in Solo and
Trix/Complex, which no double-dummy solver models, "hard" against ``deepsearch``: the same
search with no time limit (4x the play-outs, the last 5 tricks solved exactly in 64 deals).
``--json`` adds one JSON object as the last line:
``<variant>_<a>_vs_<b>`` win rates, ``<variant>_decision_p95_ms`` and ``decision_p95_ms``
(the slowest type's p95 over all variants). Timings are printed, never asserted.

    python benchmarks/arena.py --quick            # a reduced run, under two minutes
    python benchmarks/arena.py --seeds 30 --jobs 2  # the figures quoted in issue notes
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.match import Action
from engine.players import Player, new_player

VARIANTS = ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")
PAIRINGS = (("heuristic", "random"), ("search", "heuristic"))
REFERENCE_PAIRINGS = (("heuristic+search", "ddpimc"), ("search", "heuristic+search"))
REFERENCE_VARIANTS = ("syrian41", "tarneeb41_double")
DEEP_PAIRINGS = (("search", "deepsearch"),)
DEEP_VARIANTS = ("tarneeb_solo", "trix_complex")
DEEP_CARDS = 5
DEEP_WORLDS = 64
BIDDING_PHASES = ("bidding", "trump", "contract", "doubling")
DEAL_CAP = 80  # a match still running after this many deals is scored as a draw


@dataclass
class Outcome:
    """One match of an arena task."""

    variant: str
    pairing: tuple[str, str]
    won: float  # 1 A won, 0 A lost, 0.5 draw or cap
    capped: bool
    deals: int
    score_a: float  # mean final score of A's seats
    score_b: float
    times: dict[str, list[float]] = field(default_factory=dict)  # kind -> seconds
    margins: list[float] = field(default_factory=list)  # per scored deal: A's gain - B's
    bids: dict[str, list[int]] = field(default_factory=dict)  # side -> [made, bids]


class Composite:
    """One kind's bids and another's card play (``heuristic+search``)."""

    def __init__(self, name: str, bidder: Player, player: Player) -> None:
        self.name = name
        self.bidder = bidder
        self.player = player

    def decide(self, view: dict[str, Any]) -> Action:
        chooser = self.bidder if view.get("phase") in BIDDING_PHASES else self.player
        return chooser.decide(view)


def make_player(kind: str, seed: int, budget: dict[str, int]) -> Player:
    if "+" in kind:
        bids, play = kind.split("+", 1)
        return Composite(kind, make_player(bids, seed, budget), make_player(play, seed, budget))
    if kind == "ddpimc":
        from benchmarks.ddpimc import DoubleDummyPimc

        return DoubleDummyPimc(seed)
    if kind == "deepsearch":
        # Solo and Complex have no double-dummy yardstick (DDS plays two fixed partnerships
        # for tricks; TS.8 is one against three, TX.6 scores cards): their reference is the
        # same PIMC without a time limit, 4x the play-outs and an exact search of the last
        # DEEP_CARDS tricks in DEEP_WORLDS deals.
        deep = {**budget, "rollouts": 4 * budget.get("rollouts", 360)}
        return new_player("search", seed, exact_cards=DEEP_CARDS, exact_worlds=DEEP_WORLDS, **deep)
    return new_player(kind, seed, **(budget if kind == "search" else {}))


def arrangements(variant: str) -> list[list[bool]]:
    """Which seats A holds, per match of one seed."""
    if variant == "tarneeb_solo":
        return [[seat == a for seat in range(4)] for a in range(4)]
    return [[True, False, True, False], [False, True, False, True]]


def play_match(
    variant: str,
    pairing: tuple[str, str],
    seed: int,
    seats_a: list[bool],
    budget: dict[str, int],
) -> Outcome:
    kinds = [pairing[0] if mine else pairing[1] for mine in seats_a]
    players = [make_player(kind, seed * 4 + seat, budget) for seat, kind in enumerate(kinds)]
    match = engine.new_match(variant, seed=seed)
    times: dict[str, list[float]] = defaultdict(list)
    a_seats = [seat for seat in range(4) if seats_a[seat]]
    b_seats = [seat for seat in range(4) if not seats_a[seat]]
    margins: list[float] = []
    bids = {"a": [0, 0], "b": [0, 0]}
    while match.result is None and match.deal_number <= DEAL_CAP:
        seat = match.to_act[0]
        view = match.view(seat)
        start = time.perf_counter()
        action = players[seat].decide(view)
        if view["phase"] == "playing":  # card play: the decisions the budget is about
            times[kinds[seat]].append(time.perf_counter() - start)
        for event in match.apply(seat, action):
            if event["type"] == "hand_scored" and "deltas" in event:
                deltas = event["deltas"]
                gain_a = sum(deltas[s] for s in a_seats) / len(a_seats)
                margins.append(gain_a - sum(deltas[s] for s in b_seats) / len(b_seats))
                for side, seats in (("a", a_seats), ("b", b_seats)):
                    for s in seats:
                        bid = (event.get("bids") or [None] * 4)[s]
                        if isinstance(bid, int) and bid > 0:
                            bids[side][1] += 1
                            bids[side][0] += int(event["tricks"][s] >= bid)
    scores = match.scores
    result = match.result
    if result is None or result["draw"]:
        won = 0.5
    else:
        won = 1.0 if set(result["winners"]) & set(a_seats) else 0.0
    return Outcome(
        variant,
        pairing,
        won,
        result is None,
        match.deal_number,
        sum(scores[s] for s in a_seats) / len(a_seats),
        sum(scores[s] for s in b_seats) / len(b_seats),
        dict(times),
        margins,
        bids,
    )


def _task(args: tuple[str, tuple[str, str], int, list[bool], dict[str, int]]) -> Outcome:
    return play_match(*args)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (draws count half a success).

    >>> [round(x, 3) for x in wilson(9, 10)]
    [0.596, 0.982]
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its 95% normal interval.

    >>> [round(x, 2) for x in mean_interval([1.0, 2.0, 3.0, 4.0])]
    [2.5, 1.23, 3.77]
    """
    if not values:
        return 0.0, 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, mean, mean
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    half = z * spread / math.sqrt(len(values))
    return mean, mean - half, mean + half


def run(
    variants: Sequence[str],
    seeds: dict[tuple[str, str], int],
    budget: dict[str, int],
    jobs: int,
    first_seed: int = 1,
    pairings: Sequence[tuple[str, str]] = PAIRINGS,
) -> tuple[dict[str, float], list[str]]:
    """Play every match; returns (figures, printable table rows)."""
    tasks = [
        (variant, pairing, first_seed + index, seats_a, budget)
        for pairing in pairings
        for variant in variants
        for index in range(seeds[pairing])
        for seats_a in arrangements(variant)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(_task, tasks, chunksize=1))
    else:
        outcomes = [_task(task) for task in tasks]
    figures: dict[str, float] = {}
    rows = [
        f"{'variant':<17} {'A vs B':<28} {'n':>4} {'A wins':>7} {'95% interval':>15}"
        f" {'margin/deal [95%]':>22} {'bids made A/B':>14}"
        f" {'capped':>6} {'A p50/p95 ms':>14} {'B p50/p95 ms':>14}"
    ]
    slowest: dict[str, float] = defaultdict(float)
    for variant in variants:
        for pairing in pairings:
            group = [o for o in outcomes if o.variant == variant and o.pairing == pairing]
            if not group:
                continue
            n = len(group)
            wins = sum(o.won for o in group)
            low, high = wilson(wins, n)
            timing = []
            for kind in pairing:
                samples = [t for o in group for t in o.times.get(kind, [])]
                p50, p95 = percentile(samples, 0.5) * 1000, percentile(samples, 0.95) * 1000
                slowest[variant] = max(slowest[variant], p95)
                timing.append(f"{p50:6.2f}/{p95:7.2f}")
            # Per match, A's mean margin per deal; the interval is over matches.
            margin, margin_low, margin_high = mean_interval(
                [sum(o.margins) / len(o.margins) for o in group if o.margins]
            )
            made = {
                side: sum(o.bids.get(side, [0, 0])[0] for o in group)
                / max(1, sum(o.bids.get(side, [0, 0])[1] for o in group))
                for side in ("a", "b")
            }
            counted = sum(o.bids.get("a", [0, 0])[1] for o in group)
            # Solo and Trix have no bid per seat in the partnership sense: nothing to show.
            bids_made = f"{made['a']:.2f}/{made['b']:.2f}" if counted else "-"
            key = f"{variant}_{pairing[0]}_vs_{pairing[1]}"
            figures[f"{key}_margin"] = round(margin, 3)
            figures[f"{key}_margin_low"] = round(margin_low, 3)
            figures[f"{key}_margin_high"] = round(margin_high, 3)
            figures[f"{key}_bids_made_a"] = round(made["a"], 3)
            figures[f"{key}_bids_made_b"] = round(made["b"], 3)
            figures[key] = round(wins / n, 4)
            figures[f"{key}_low"] = round(low, 4)
            figures[f"{key}_high"] = round(high, 4)
            figures[f"{key}_matches"] = n
            rows.append(
                f"{variant:<17} {pairing[0] + ' vs ' + pairing[1]:<28} {n:>4} {wins / n:>7.3f}"
                f"   [{low:.3f}, {high:.3f}]"
                f" {margin:>+6.2f} [{margin_low:+.2f}, {margin_high:+.2f}]"
                f" {bids_made:>14}"
                f" {sum(o.capped for o in group):>6} {timing[0]:>14} {timing[1]:>14}"
            )
    for variant in variants:
        figures[f"{variant}_decision_p95_ms"] = round(slowest[variant], 2)
    figures["decision_p95_ms"] = round(max(slowest.values(), default=0.0), 2)
    return figures, rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--seeds", type=int, default=20, help="seeds per pairing (search)")
    parser.add_argument("--baseline-seeds", type=int, default=50, help="seeds, heuristic/random")
    parser.add_argument("--rollouts", type=int, default=360, help="search rollouts per card")
    parser.add_argument("--min-worlds", type=int, default=12, help="search sampled deals, min")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one core each)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a reduced run, under 2 minutes")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="hard against the double-dummy PIMC yardstick, and hard's bids against easy's",
    )
    args = parser.parse_args(argv)
    budget = {"rollouts": args.rollouts, "min_worlds": args.min_worlds}
    # Each run: its variants, pairings and seeds per pairing.
    runs: list[tuple[list[str], Sequence[tuple[str, str]], dict[tuple[str, str], int]]]
    if args.reference:
        runs = [
            (
                [v for v in args.variants if v in variants_of],
                pairings,
                dict.fromkeys(pairings, 1 if args.quick else args.seeds),
            )
            for variants_of, pairings in (
                (REFERENCE_VARIANTS, REFERENCE_PAIRINGS),
                (DEEP_VARIANTS, DEEP_PAIRINGS),
            )
        ]
    else:
        seeds = {PAIRINGS[0]: args.baseline_seeds, PAIRINGS[1]: args.seeds}
        if args.quick:
            seeds = {PAIRINGS[0]: 5, PAIRINGS[1]: 1}
        runs = [(list(args.variants), PAIRINGS, seeds)]
    start = time.perf_counter()
    figures: dict[str, float] = {}
    for variants, pairings, seeds in runs:
        if not variants:
            continue
        more, rows = run(variants, seeds, budget, args.jobs, args.first_seed, pairings)
        figures.update(more)
        print("\n".join(rows))
    figures["decision_p95_ms"] = max(
        (value for key, value in figures.items() if key.endswith("_decision_p95_ms")), default=0.0
    )
    print(f"# {time.perf_counter() - start:.1f} s, search rollouts per decision {args.rollouts}")
    if args.json:
        print(json.dumps(figures, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["main", "play_match", "run", "wilson"]
