"""The trick-taking core shared by every Tarneeb variant and Trix Complex.

Cards are ints (``engine.cards``) and hands are 52-bit masks; nothing here allocates more
than the list it returns, because rollouts call these functions millions of times.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import SUIT_MASKS

NO_TRUMP = -1
RANK_MASKS: tuple[int, ...] = tuple(
    sum(1 << (suit * 13 + rank) for suit in range(4)) for rank in range(13)
)


def legal_mask(hand: int, led_suit: int) -> int:
    """Cards of ``hand`` that may be played (T41.7, TS.7, TX.5).

    Follow the led suit if able; a void player (or the leader, ``led_suit == -1``) may play
    any card. Nobody is ever forced to trump.

    >>> bin(legal_mask(0b11 | 1 << 20, 0))  # holds 2C, 3C and a diamond; clubs led
    '0b11'
    """
    if led_suit >= 0:
        following = hand & SUIT_MASKS[led_suit]
        if following:
            return following
    return hand


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index (play order) of the card that wins a trick (T41.7, TS.7, TX.5).

    The highest trump wins if any trump was played, else the highest card of the led suit.
    ``trump`` is a suit index or ``NO_TRUMP``.

    >>> trick_winner([0, 12, 25, 1], NO_TRUMP)  # 2C led; AC wins, AD is off-suit
    1
    >>> trick_winner([0, 12, 14, 1], 1)  # a small diamond trumps the ace of clubs
    2
    """
    best = 0
    best_card = cards[0]
    best_suit = best_card // 13
    for index in range(1, len(cards)):
        card = cards[index]
        suit = card // 13
        if suit == best_suit:
            if card > best_card:
                best, best_card = index, card
        elif suit == trump:
            best, best_card, best_suit = index, card, suit
    return best


def weakest_card(legal: int, trump: int) -> int:
    """The "weakest legal card" that a timeout plays (rules.md conventions).

    Prefer cards that are not trump; then the lowest rank; rank ties by suit C < D < H < S.

    >>> from engine.cards import parse_card, card_code, mask_of
    >>> hand = mask_of(parse_card(c) for c in ["3S", "3H", "2H"])
    >>> card_code(weakest_card(hand, 2))  # hearts are trump: the 3S beats playing the 2H
    '3S'
    """
    candidates = legal
    if trump >= 0 and legal & ~SUIT_MASKS[trump]:
        candidates = legal & ~SUIT_MASKS[trump]
    for rank_mask in RANK_MASKS:
        same_rank = candidates & rank_mask
        if same_rank:  # the lowest bit of one rank is its lowest suit
            return (same_rank & -same_rank).bit_length() - 1
    raise ValueError("no legal card")
