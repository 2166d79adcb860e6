"""Determinization: deal the cards a seat cannot see into the other hands, consistently
with everything that seat has seen.

Constraints: each hand gets its known size; a card known to sit in a hand goes there (the
T41.4 shown card, a TX.7 doubled card not yet played); a seat that showed a void in a suit
gets none of it; a seat that passed in Trix gets none of the cards it could have laid then.

A deal is drawn exactly uniformly among the consistent ones, however many voids there
are, by counting. The unseen cards fall into classes by the set of seats that may hold
them (at most seven classes: the non-empty subsets of the three other seats). The number
of consistent deals is a sum, over how many cards of each class go to each seat, of
multinomials; ``Sampler`` counts it once per decision (a small table, memoized on the
rooms left) and then draws each class's split in proportion to the deals that complete
it, and the class's cards into that split by a shuffle. Every consistent deal thus comes
out with the same probability, and no draw is ever rejected.
"""

from __future__ import annotations

import random
from math import factorial

from engine.cards import cards_of
from engine.players.knowledge import Knowledge

Rooms = tuple[int, int, int]


class Sampler:
    """Uniform consistent deals for one seat's knowledge (build once, draw many)."""

    def __init__(self, know: Knowledge) -> None:
        seat = know.seat
        self.others = [other for other in range(4) if other != seat]
        self.base = [0, 0, 0, 0]
        self.base[seat] = know.hand
        room = list(know.hand_sizes)
        pool = know.out
        for other in self.others:
            fixed = know.known[other] & pool
            self.base[other] |= fixed
            room[other] -= fixed.bit_count()
            pool &= ~fixed
        self.rooms: Rooms = (room[self.others[0]], room[self.others[1]], room[self.others[2]])
        forbidden = [know.forbidden(other) for other in self.others]
        groups: dict[int, list[int]] = {}
        for card in cards_of(pool):
            allowed = sum(1 << j for j in range(3) if not forbidden[j] >> card & 1)
            groups.setdefault(allowed, []).append(card)
        # The most constrained classes first: fewer splits to weigh at the top.
        self.classes = sorted(groups.items(), key=lambda item: (item[0].bit_count(), item))
        self._memo: dict[tuple[int, Rooms], list[tuple[int, Rooms]]] = {}
        self.consistent = min(self.rooms) >= 0 and self._count(0, self.rooms) > 0

    def deal(self, rng: random.Random) -> list[int]:
        """Four hand masks: this seat's own, and a uniformly drawn consistent guess for the
        other three."""
        hands = list(self.base)
        if not self.consistent:
            return self._by_sizes(hands, rng)
        rooms = self.rooms
        for index, (_, cards) in enumerate(self.classes):
            split = _pick(self._splits(index, rooms), rng)
            order = list(cards)
            rng.shuffle(order)
            start = 0
            for j, take in enumerate(split):
                for card in order[start : start + take]:
                    hands[self.others[j]] |= 1 << card
                start += take
            rooms = (rooms[0] - split[0], rooms[1] - split[1], rooms[2] - split[2])
        return hands

    def _splits(self, index: int, rooms: Rooms) -> list[tuple[int, Rooms]]:
        """Each way the class's cards may split among the seats, weighed by the number of
        consistent deals that start with it (memoized: a decision draws many deals)."""
        key = (index, rooms)
        known = self._memo.get(key)
        if known is not None:
            return known
        allowed, cards = self.classes[index]
        size = len(cards)
        result = []
        for first in range(min(size, rooms[0]) + 1 if allowed & 1 else 1):
            for second in range(min(size - first, rooms[1]) + 1 if allowed & 2 else 1):
                third = size - first - second
                if third > rooms[2] or (third and not allowed & 4):
                    continue
                split = (first, second, third)
                rest = (rooms[0] - first, rooms[1] - second, rooms[2] - third)
                weight = _multinomial(size, split) * self._count(index + 1, rest)
                if weight:
                    result.append((weight, split))
        self._memo[key] = result
        return result

    def _count(self, index: int, rooms: Rooms) -> int:
        """The consistent deals of classes ``index``.. into exactly ``rooms``."""
        if index == len(self.classes):
            return 1 if rooms == (0, 0, 0) else 0
        return sum(weight for weight, _ in self._splits(index, rooms))

    def _by_sizes(self, hands: list[int], rng: random.Random) -> list[int]:
        # Inconsistent knowledge cannot come from a real view, but never fail a decision:
        # deal by the hands' sizes alone.
        cards = [card for _, group in self.classes for card in group]
        rng.shuffle(cards)
        start = 0
        for j, other in enumerate(self.others):
            take = max(self.rooms[j], 0)
            for card in cards[start : start + take]:
                hands[other] |= 1 << card
            start += take
        return hands


def _pick(splits: list[tuple[int, Rooms]], rng: random.Random) -> Rooms:
    """One split, with probability its weight over the total (exact: integer weights)."""
    pick = rng.randrange(sum(weight for weight, _ in splits))
    for weight, split in splits:
        if pick < weight:
            return split
        pick -= weight
    raise AssertionError("the pick is below the total")


def _multinomial(size: int, split: Rooms) -> int:
    return factorial(size) // (factorial(split[0]) * factorial(split[1]) * factorial(split[2]))


def sample_hands(know: Knowledge, rng: random.Random) -> list[int]:
    """One uniformly drawn consistent deal (a ``Sampler`` made for a single draw)."""
    return Sampler(know).deal(rng)
