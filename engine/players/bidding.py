"""Bids and trump: how many tricks a hand is worth, and what to bid for it.

Both players bid the same way — they maximise the expected score of the bid under a
distribution of the tricks they will take. The heuristic player gets that distribution
from a point count (honours, length, trumps, short suits to ruff); the search player
measures it by playing sampled deals out. The rules of each variant enter only through
the legal bids (T41D.1 no 6, T41D.2 no 2 from 30), what a bid is worth (T41.8, T41D.4,
TS.8), the total a deal needs (T41.6, T41D.3) and the target (T41.9) — every number read
from ``engine.params``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.cards import SUIT_MASKS
from engine.params import TARNEEB_SOLO, PartnershipParams

ACE, KING, QUEEN, JACK = 12, 11, 10, 9
SPREAD = 1.3  # the trick count's standard deviation around a point-count estimate


def estimate_tricks(hand: int, trump: int) -> float:
    """Tricks a hand should take by itself with ``trump`` (-1: none): honours by how well
    they are guarded, long trumps, and short side suits the trumps can ruff."""
    total = 0.0
    trumps = (hand & SUIT_MASKS[trump]).bit_count() if trump >= 0 else 0
    ruffs = 0.0
    for suit in range(4):
        chunk = hand >> (13 * suit) & 0x1FFF
        length = chunk.bit_count()
        ace, king, queen, jack = (
            chunk >> ACE & 1,
            chunk >> KING & 1,
            chunk >> QUEEN & 1,
            chunk >> JACK & 1,
        )
        if suit == trump:
            total += ace + king * (1.0 if length >= 2 else 0.5)
            total += queen * (0.8 if length >= 3 else 0.3) + jack * (0.5 if length >= 4 else 0)
            total += max(0, length - 3) * 0.9
            continue
        total += ace * (1.0 if length <= 5 else 0.8)
        if king:
            total += (0.9 if ace else 0.65) if length >= 2 else 0.25
        if queen and length >= 3:
            total += 0.45 if ace or king else 0.25
        if length >= 5 and ace + king >= 1:
            total += (length - 4) * 0.35  # long side suit with control: later winners
        if trump >= 0:
            ruffs += (1.0, 0.6, 0.25)[length] if length < 3 else 0.0
    if trump >= 0 and trumps >= 2:
        total += min(ruffs, trumps - 1.5) * 0.8
    return total


def spread(estimate: float) -> list[float]:
    """A trick distribution (index = tricks, 0..13) around a point-count estimate."""
    weights = [
        math.exp(-((tricks - estimate) ** 2) / (2 * SPREAD * SPREAD)) for tricks in range(14)
    ]
    total = sum(weights)
    return [weight / total for weight in weights]


def tarneeb_bid(
    legal: Sequence[int],
    odds: Sequence[float],
    *,
    params: PartnershipParams,
    others: int,
    last: bool,
    score: int,
    partner_score: int,
) -> int:
    """The legal bid with the best expected score under ``odds`` (P(tricks = t)), for the
    variant of ``params`` (what a bid is worth, the total a deal needs, the target).

    As the last bidder, a bid that leaves the total short cancels the deal (T41.6,
    T41D.3), which is worth 0 — better than a bid likely to fail. A seat whose partner
    already has the target (41) while its own score is not above 0 needs only to get
    positive (T41.9), so it bids what it is surest to make."""
    at_least = [sum(odds[t:]) for t in range(15)]
    needs_positive = partner_score >= params.target and score <= 0
    best_bid, best_value = legal[0], -math.inf
    for bid in legal:
        value = params.bid_value(bid)  # T41.8, T41D.4
        expected = value * (2 * at_least[bid] - 1)
        if needs_positive:
            expected = at_least[bid] * 100 + (value if score + value > 0 else 0)
        if last and others + bid < params.min_total:
            expected = 0.0  # the deal is cancelled and nobody scores
        if expected > best_value + 1e-9:
            best_bid, best_value = bid, expected
    return best_bid


def solo_value(bid: int, odds: Sequence[float]) -> float:
    """TS.8 expected outcome for a declarer bidding ``bid``, measured against the average
    of the other three (their gain is the declarer's loss)."""
    params = TARNEEB_SOLO
    top = params.max_bid
    expected = 0.0
    for tricks, chance in enumerate(odds):
        if not chance:
            continue
        gain: float
        if tricks >= bid:
            gain = params.grand_slam if bid == top else (params.kaboot if tricks == 13 else tricks)
        elif bid == top:
            gain = -params.grand_slam_failed - params.grand_slam_failed_factor * (13 - tricks) / 3
        else:
            gain = -bid - (13 - tricks) / 3
        expected += chance * gain
    return expected


def solo_call(legal_bids: Sequence[int], odds: Sequence[float], forced: bool) -> int | None:
    """The bid to make in the auction (TS.3–TS.5), or ``None`` to pass: the legal bid with
    the best expected outcome, when that beats defending. TS.8 scores the tricks taken,
    so the lowest bid usually wins this — only the top bid, 13 (worth 26), can beat it."""
    if not legal_bids:
        return None
    best = max(legal_bids, key=lambda bid: solo_value(bid, odds))
    if forced or solo_value(best, odds) > 0.5:
        return best
    return None
