"""Seeded shuffles, stacked decks and the dealing order (T41.3, TS.2, TX.2).

The seed is the only source of randomness: every shuffle uses its own ``random.Random``
built from the match seed and the deal's index, so the ``n``-th deal does not depend on
how many random numbers earlier deals consumed, and a restored match deals the same cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import DECK_SIZE, parse_card


def validate_deck(deck: object) -> list[int]:
    """A stacked deck: exactly 52 distinct valid card codes, in dealing order."""
    if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
        raise ValueError("a deck must be a list of 52 card codes")
    cards = [parse_card(code) for code in deck]
    if len(cards) != DECK_SIZE or len(set(cards)) != DECK_SIZE:
        raise ValueError("a deck must hold the 52 cards exactly once each")
    return cards


def validate_decks(decks: object) -> list[list[int]]:
    if decks is None:
        return []
    if isinstance(decks, str | bytes) or not isinstance(decks, Sequence):
        raise ValueError("decks must be a list of decks")
    return [validate_deck(deck) for deck in decks]


_CARDS = range(DECK_SIZE)


def seeded_deck(seed: int, deal_index: int) -> list[int]:
    """The shuffled deck for the ``deal_index``-th deal (0-based) of a match with ``seed``.

    The cards are ordered by 52 independent 64-bit random keys: a uniform permutation
    (two equal keys, which would keep those two cards' order, turn up about once in 10^16
    deals) sorted in C, at half the cost of ``random.shuffle``'s Python loop.
    """
    bits = random.Random(f"sahra:{seed}:deal:{deal_index}").getrandbits(64 * DECK_SIZE)
    keys = memoryview(bits.to_bytes(8 * DECK_SIZE, "little")).cast("Q").tolist()
    return sorted(_CARDS, key=keys.__getitem__)


def seeded_first_dealer(seed: int) -> int:
    """The random first dealer of T41.2 / TS.2, drawn from the seed."""
    return random.Random(f"sahra:{seed}:first-dealer").randrange(4)


_BITS = tuple(1 << card for card in range(DECK_SIZE))


def deal_hands(deck: Sequence[int], first: int) -> list[int]:
    """One card at a time: ``deck[j]`` goes to seat ``(first + j) % 4``. Returns 4 hand masks."""
    hands = [0, 0, 0, 0]
    for offset in range(4):  # seat first + offset receives deck[offset], deck[offset + 4], …
        hands[(first + offset) & 3] = sum(map(_BITS.__getitem__, deck[offset::4]))
    return hands


def deck_for_hands(hands: Sequence[Sequence[str]], first: int) -> list[str]:
    """The stacked deck that deals ``hands[s]`` (13 codes each, in the order each seat
    receives them) when dealing starts with seat ``first``. The last code of the last
    seat served is ``deck[51]`` (T41.4's shown card when that seat is the dealer).

    >>> deck = deck_for_hands([[f"{r}{s}" for r in "23456789TJQKA"] for s in "CDHS"], 1)
    >>> deck[:4], deck[51]
    (['2D', '2H', '2S', '2C'], 'AC')
    """
    if len(hands) != 4 or any(len(hand) != 13 for hand in hands):
        raise ValueError("four hands of 13 cards are needed")
    deck = [hands[(first + j) & 3][j // 4] for j in range(DECK_SIZE)]
    validate_deck(deck)
    return deck
