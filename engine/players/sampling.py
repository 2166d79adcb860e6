"""Determinization: deal the cards a seat cannot see into the other hands, consistently
with everything that seat has seen.

Constraints: each hand gets its known size; a card known to sit in a hand goes there (the
T41.4 shown card, a TX.7 doubled card not yet played); a seat that showed a void in a suit
gets none of it; a seat that passed in Trix gets none of the cards it could have laid then.

A deal is drawn exactly uniformly among the consistent ones by rejection: the free cards
are shuffled and dealt by the hands' sizes, and the deal is kept only if no seat got a
card it cannot hold (every consistent deal is equally likely to come out of the shuffle).
Only when ``REJECTION_TRIES`` shuffles in a row fail (many voids late in a deal) are the
cards placed one by one, most-constrained first, each into a seat chosen with probability
proportional to the room left in it — close to uniform, and always consistent.
"""

from __future__ import annotations

import random

from engine.cards import cards_of
from engine.players.knowledge import Knowledge

ATTEMPTS = 30
REJECTION_TRIES = 300


def sample_hands(know: Knowledge, rng: random.Random) -> list[int]:
    """Four hand masks: this seat's own, and a consistent guess for the other three."""
    seat = know.seat
    hands = [0, 0, 0, 0]
    hands[seat] = know.hand
    room = list(know.hand_sizes)
    room[seat] = 0
    pool = know.out
    for other in range(4):
        if other != seat:
            fixed = know.known[other] & pool
            hands[other] |= fixed
            room[other] -= fixed.bit_count()
            pool &= ~fixed
    forbidden = [know.forbidden(other) if other != seat else -1 for other in range(4)]
    cards = cards_of(pool)
    if min(room) >= 0 and sum(room) == len(cards):
        dealt = _rejection(cards, room, forbidden, seat, rng)
        if dealt is not None:
            return [hands[s] | dealt[s] for s in range(4)]
    # Seats each card may go to; the most constrained cards are placed first.
    allowed = {
        card: [other for other in range(4) if room[other] > 0 and not forbidden[other] >> card & 1]
        for card in cards
    }
    for _ in range(ATTEMPTS):
        rng.shuffle(cards)
        cards.sort(key=lambda card: len(allowed[card]))
        placed = _place(cards, allowed, list(room), rng)
        if placed is not None:
            return [hands[s] | placed[s] for s in range(4)]
    # Inconsistent knowledge cannot come from a real view, but never fail a decision: fall
    # back to sizes alone.
    rng.shuffle(cards)
    placed = [0, 0, 0, 0]
    index = 0
    for other in range(4):
        for card in cards[index : index + max(room[other], 0)]:
            placed[other] |= 1 << card
        index += max(room[other], 0)
    return [hands[s] | placed[s] for s in range(4)]


def _rejection(
    cards: list[int], room: list[int], forbidden: list[int], seat: int, rng: random.Random
) -> list[int] | None:
    """A uniform deal of ``cards`` by ``room`` that breaks no constraint, or None."""
    order = list(cards)
    for _ in range(REJECTION_TRIES):
        rng.shuffle(order)
        dealt = [0, 0, 0, 0]
        start = 0
        for other in range(4):
            if other == seat:
                continue
            mask = 0
            for card in order[start : start + room[other]]:
                mask |= 1 << card
            if mask & forbidden[other]:
                break
            dealt[other] = mask
            start += room[other]
        else:
            return dealt
    return None


def _place(
    cards: list[int], allowed: dict[int, list[int]], room: list[int], rng: random.Random
) -> list[int] | None:
    placed = [0, 0, 0, 0]
    for card in cards:
        seats = [seat for seat in allowed[card] if room[seat] > 0]
        if not seats:
            return None
        total = sum(room[seat] for seat in seats)
        pick = rng.random() * total
        for seat in seats:
            pick -= room[seat]
            if pick < 0:
                break
        placed[seat] |= 1 << card
        room[seat] -= 1
    return placed
