"""Bids as evidence about the hidden hands (T41.5: a bid is the tricks a player expects).

A sampled deal in which a seat's hand (the cards it holds now and those it has played
this deal) looks much stronger or weaker than its bid is unlikely to be the real one. The
search player draws more deals than it solves and keeps them in proportion to this
likelihood, so its double-dummy deals look like the table's bids.

The model is the measured relation between the bid and ``estimate_tricks`` of the hand
(heuristic self-play, Syrian 41 and Tarneeb 41 doubled, ~1,400 bids): a bid b of 3 or
more comes from hands estimated at b + 1.1 (spread 0.5); the minimum bid 2 from hands
estimated at 2.3 (spread 0.9) — "nothing much", not "exactly two". The spreads here are
wider than measured, as people bid less evenly than the heuristic.
"""

from __future__ import annotations

import math
import random

from engine.players.bidding import estimate_tricks
from engine.players.knowledge import Knowledge

MIN_BID = 2
AHEAD = 1.1  # a bid of 3+ comes from a hand estimated this much higher
SPREAD = 0.8
MIN_BID_CENTRE = 2.3
MIN_BID_SPREAD = 1.1


def bid_weight(know: Knowledge, hands: list[int]) -> float:
    """How well the other seats' bids fit their hands in ``hands`` (up to a constant)."""
    exponent = 0.0
    for seat in range(4):
        bid = know.bids[seat] if seat < len(know.bids) else None
        if seat == know.seat or not isinstance(bid, int) or bid < MIN_BID:
            continue
        estimate = estimate_tricks(hands[seat] | know.plays_by[seat], know.trump)
        if bid == MIN_BID:
            gap, spread = max(0.0, estimate - MIN_BID_CENTRE), MIN_BID_SPREAD
        else:
            gap, spread = estimate - (bid + AHEAD), SPREAD
        exponent -= gap * gap / (2 * spread * spread)
    return math.exp(exponent)


def resample(
    worlds: list[list[int]], weights: list[float], count: int, rng: random.Random
) -> list[list[int]]:
    """``count`` of ``worlds`` drawn in proportion to ``weights`` (systematic resampling:
    one random offset, evenly spaced picks), so the likelier deals are solved more."""
    total = sum(weights)
    if total <= 0:
        return worlds[:count]
    step = total / count
    pick = rng.random() * step
    chosen: list[list[int]] = []
    running = 0.0
    for world, weight in zip(worlds, weights, strict=True):
        running += weight
        while pick < running and len(chosen) < count:
            chosen.append(world)
            pick += step
    while len(chosen) < count:  # rounding at the end
        chosen.append(worlds[-1])
    return chosen
