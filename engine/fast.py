"""The fast path: whole deals of random legal play without building dicts, events or views.

The engine benchmark (``benchmarks/engine_bench.py``) plays millions of cards, so this
module trades the public surface's checks and JSON for plain lists: a hand is four lists
(one per suit) of card ints (``engine.cards``), and a deal is played trick by trick in one
loop. The rules are the same as in the public engine — follow suit if able, highest
trump else highest of the led suit wins (T41.7, TS.7); bids, totals and scoring come from
``engine.params`` and the rules modules — and a differential test
(``tests/engine/test_fast.py``) replays recorded fast deals through the public API.

The computer players do not use this module: their play-outs
(``engine.players.rollouts``) play by the heuristic policies, not at random, on hand
masks, with the same trick, Complex and layout rules (``engine.tricks``, ``engine.trix``)
and the same scoring (``engine.params``, ``engine.solo.solo_deltas``).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Sequence

from engine.cards import cards_of
from engine.params import SYRIAN41, TARNEEB41_DOUBLE, TARNEEB_SOLO, TRIX_COMPLEX
from engine.solo import solo_deltas
from engine.tricks import NO_TRUMP, trick_winner
from engine.trix import DOUBLABLE, extend_row, layout_mask, placing_points, trick_points

SuitHands = list[list[list[int]]]  # [seat][suit] -> card ints
_RANGE52 = range(52)
_FOLLOWERS = ((1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2))  # after each leader, in turn


def split_hand(mask: int) -> list[list[int]]:
    """A 52-bit hand mask as four per-suit lists of card ints."""
    return [
        [card for card in range(suit * 13, suit * 13 + 13) if mask >> card & 1]
        for suit in range(4)
    ]


def random_hands(rng: random.Random) -> SuitHands:
    """Four random 13-card hands, dealt from a uniformly shuffled deck.

    Sorting 52 cards by independent 32-bit random keys is a uniform shuffle (ties, about
    one deal in ten million, keep the cards' order) and costs a third of
    ``random.shuffle``.
    """
    keys = memoryview(rng.getrandbits(1664).to_bytes(208, "little")).cast("I").tolist()
    order = sorted(_RANGE52, key=keys.__getitem__)
    hands: SuitHands = []
    for start in (0, 13, 26, 39):
        cards = sorted(order[start : start + 13])
        a = bisect_left(cards, 13)
        b = bisect_left(cards, 26, a)
        c = bisect_left(cards, 39, b)
        hands.append([cards[:a], cards[a:b], cards[b:c], cards[c:]])
    return hands


def play_random(
    hands: SuitHands,
    trump: int,
    leader: int,
    rand: Callable[[], float],
    record: list[int] | None = None,
) -> list[int]:
    """Play every card left in ``hands`` (equal counts, at a trick boundary) at random among
    the legal cards; returns the tricks each seat won. ``hands`` is consumed. ``record``,
    if given, receives the cards in play order."""
    tricks = [0, 0, 0, 0]
    for left in range(
        len(hands[0][0]) + len(hands[0][1]) + len(hands[0][2]) + len(hands[0][3]), 0, -1
    ):
        index = int(rand() * left)
        for cards in hands[leader]:
            if index < len(cards):
                break
            index -= len(cards)
        best = cards.pop(index)
        led = best // 13
        best_is_trump = led == trump
        winner = leader
        if record is not None:
            record.append(best)
        for seat in _FOLLOWERS[leader]:
            suits = hands[seat]
            cards = suits[led]
            if cards:  # must follow suit (T41.7)
                card = cards.pop(int(rand() * len(cards)))
                if card > best and (led == trump or not best_is_trump):
                    best, winner = card, seat
            else:  # void: any card; only a trump can win
                index = int(rand() * left)
                for cards in suits:
                    if index < len(cards):
                        break
                    index -= len(cards)
                card = cards.pop(index)
                if card // 13 == trump and (not best_is_trump or card > best):
                    best, winner, best_is_trump = card, seat, True
            if record is not None:
                record.append(card)
        tricks[winner] += 1
        leader = winner
    return tricks


def random_tarneeb_deal(
    rng: random.Random, dealer: int, scores: Sequence[int], double: bool
) -> tuple[list[int], list[int], list[int]]:
    """One played deal of syrian41 (``double=False``) or tarneeb41_double with random legal
    bids (cancelled deals are re-dealt by the caller's loop here, as the rules do) and
    random legal play. Returns (bids, tricks, deltas)."""
    params = TARNEEB41_DOUBLE if double else SYRIAN41
    legal = [params.legal_bids(score) for score in scores]  # T41.5, T41D.1–2
    rand = rng.random
    while True:
        hands = random_hands(rng)
        bids = [legal[seat][int(rand() * len(legal[seat]))] for seat in range(4)]
        if sum(bids) >= params.min_total:  # T41.6, T41D.3
            break
        dealer = (dealer + 1) & 3
    # T41.4: the shown card is the dealer's 13th card — in a uniform deal, a uniformly
    # chosen card of the dealer's hand; trump is the other suit of its colour.
    index = int(rand() * 13)
    for cards in hands[dealer]:
        if index < len(cards):
            break
        index -= len(cards)
    tricks = play_random(hands, 3 - cards[index] // 13, (dealer + 1) & 3, rand)
    return bids, tricks, params.deltas(bids, tricks)  # T41.8, T41D.4


def random_solo_deal(rng: random.Random, dealer: int) -> tuple[int, int, list[int], list[int]]:
    """One solo deal: a random legal auction (TS.3–TS.5), a random trump, random play.
    Returns (declarer, bid, tricks, deltas)."""
    rand = rng.random
    hands = random_hands(rng)
    passed = [False, False, False, False]
    high, declarer, seat = 0, -1, (dealer + 1) & 3
    while True:
        forced = high == 0 and seat == dealer
        if not forced and rand() < 0.5:
            passed[seat] = True
        else:
            # TS.3: over the highest bid, up to the top; an opening bid from the lowest
            if high:
                high += 1 + int(rand() * (TARNEEB_SOLO.max_bid - high))
            else:
                high = TARNEEB_SOLO.min_bid + int(rand() * 3)
            declarer = seat
            if high >= TARNEEB_SOLO.max_bid:  # TS.4: the top bid ends the auction
                high = TARNEEB_SOLO.max_bid
                break
        seat = (seat + 1) & 3
        while passed[seat]:
            seat = (seat + 1) & 3
        if seat == declarer:
            break
    trump = int(rand() * 4)
    tricks = play_random(hands, trump, declarer, rand)
    return declarer, high, tricks, solo_deltas(high, declarer, tricks)


def trick_winners(record: Sequence[int], leader: int, trump: int) -> list[tuple[int, int]]:
    """(leader, winner) of each trick of a recorded deal (``play_random``'s ``record``)."""
    result = []
    for start in range(0, len(record), 4):
        winner = (leader + trick_winner(record[start : start + 4], trump)) & 3
        result.append((leader, winner))
        leader = winner
    return result


def random_complex_deal(
    rng: random.Random, owner: int, doubling: float = 0.3
) -> tuple[list[int], list[list[int]]]:
    """A Trix Complex deal (TX.5–TX.8) with random doubles (each doublable card doubled
    with probability ``doubling``) and random legal play from the owner's lead.
    Returns (deltas, doubled [card, doubler] pairs)."""
    rand = rng.random
    hands = random_hands(rng)
    doubled = {
        card: seat
        for seat in range(4)
        for suit in hands[seat]
        for card in suit
        if card in DOUBLABLE and rand() < doubling
    }
    record: list[int] = []
    play_random(hands, NO_TRUMP, owner, rand, record)
    deltas = [0, 0, 0, 0]
    for index, (leader, winner) in enumerate(trick_winners(record, owner, NO_TRUMP)):
        points = trick_points(record[4 * index : 4 * index + 4], leader, winner, doubled)
        for seat in range(4):
            deltas[seat] += points[seat]
    return deltas, [[card, seat] for card, seat in doubled.items()]


def random_trix_deal(rng: random.Random, owner: int) -> tuple[list[int], list[int]]:
    """A Trix layout deal (TX.9–TX.10) with random legal play (pass only when forced).
    Returns (deltas, finishing order of the three seats that emptied their hands)."""
    rand = rng.random
    masks = [sum(1 << card for suit in hand for card in suit) for hand in random_hands(rng)]
    rows: list[list[int] | None] = [None, None, None, None]
    finished: list[int] = []
    seat = owner
    while len(finished) < 3:
        legal = masks[seat] & layout_mask(rows)
        if legal:
            cards = cards_of(legal)
            card = cards[int(rand() * len(cards))]
            masks[seat] ^= 1 << card
            extend_row(rows, card)
            if not masks[seat]:
                finished.append(seat)
        seat = (seat + 1) & 3
        while not masks[seat]:
            seat = (seat + 1) & 3
    return placing_points(finished), finished


def random_trix_match(rng: random.Random) -> list[int]:
    """A whole trix_complex match, 4 kingdoms × (Complex + Trix), random choices.
    Returns the final personal scores."""
    scores = [0, 0, 0, 0]
    owner = int(rng.random() * 4)  # TX.3: the 7♥ holder of a uniform deal is uniform
    for _ in range(TRIX_COMPLEX.kingdoms):  # TX.3
        complex_deltas, _ = random_complex_deal(rng, owner)
        trix_deltas, _ = random_trix_deal(rng, owner)
        for seat in range(4):
            scores[seat] += complex_deltas[seat] + trix_deltas[seat]
        owner = (owner + 1) & 3
    return scores
