"""Determinization: deal the cards a seat cannot see into the other hands, consistently
with everything that seat has seen.

Constraints: each hand gets its known size; a card known to sit in a hand goes there (the
T41.4 shown card, a TX.7 doubled card not yet played); a seat that showed a void in a suit
gets none of it; a seat that passed in Trix gets none of the cards it could have laid then.
Cards are placed most-constrained first, each into a seat chosen with probability
proportional to the room left in it — close to uniform over the consistent deals.
"""

from __future__ import annotations

import random

from engine.cards import cards_of
from engine.players.knowledge import Knowledge

ATTEMPTS = 30


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
