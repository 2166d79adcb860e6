"""Trix Complex Partnership without the Trix layout: the contract choice (TX.4), safe
doubling (TX.7) and Complex card play, where every trick and penalty card hurts its
taker (TX.6, TX.8).

Like ``cardplay``, the play policy works on masks and is shared by the heuristic player and
the search player's rollouts. Its aims: duck under the card winning the trick, feed penalty
cards (and one's own doubled cards, TX.8 case 1) to opponents and never to the partner,
shed high cards while it is safe, and lead cards that someone still out can beat.
"""

from __future__ import annotations

from engine.cards import SUIT_MASKS, parse_card
from engine.params import TRIX_COMPLEX
from engine.players.cardplay import high, low
from engine.trix import DOUBLABLE, KING_OF_HEARTS

DIAMONDS = 1
HEARTS = 2
_BELOW = tuple((1 << card) - 1 for card in range(52))
# TX.6: what a card costs the taker beyond the trick's −15 (Q♦ is both a queen and a diamond).
COST = tuple(
    (TRIX_COMPLEX.diamond_cost if card // 13 == DIAMONDS else 0) + DOUBLABLE.get(card, 0)
    for card in range(52)
)
SEVEN = 5  # rank index of 7: cards below it are the "low" cards that duck safely


def complex_play(
    hand: int,
    trick: list[int],
    seats: list[int],
    out: int,
    allies: int,
    seat: int,
    doubled: dict[int, int],
) -> int:
    """The card to play in Complex. ``doubled`` maps revealed doubled cards to doublers."""
    if not trick:
        return _lead(hand, out, allies, seat, doubled)
    led = trick[0] // 13
    suit_mask = SUIT_MASKS[led]
    following = hand & suit_mask
    legal = following or hand
    if not legal & (legal - 1):
        return low(legal)
    best_at, best = 0, trick[0]
    for index in range(1, len(trick)):
        card = trick[index]
        if card // 13 == led and card > best:
            best_at, best = index, card
    partner_wins = bool(allies >> seats[best_at] & 1)
    if following:
        ducks = following & _BELOW[best]
        if ducks:
            if partner_wins:
                return _shed(ducks, seat, doubled, feed=False)
            return _shed(ducks, seat, doubled, feed=True)
        # Every card of ours beats the trick. Last to play: we take it, so shed our highest
        # harmless card; otherwise play low and hope a later seat goes over.
        harmless = following & ~_penalties(following, doubled)
        if len(trick) == 3:
            return high(harmless) if harmless else low(following)
        return low(harmless) if harmless else low(following)
    return _shed(hand, seat, doubled, feed=not partner_wins)


def _penalties(mask: int, doubled: dict[int, int]) -> int:
    result = 0
    for card in DOUBLABLE:
        if mask >> card & 1:
            result |= 1 << card
    return result | (mask & SUIT_MASKS[DIAMONDS])


def _shed(cards: int, seat: int, doubled: dict[int, int], *, feed: bool) -> int:
    """The card to get rid of onto someone else's trick: with ``feed`` (an opponent takes
    it) the costliest — our own doubled card first (TX.8 case 1: it pays us) — and the
    highest; onto the partner's trick, the highest card that costs nothing."""
    best_card, best_key = -1, -1 << 30
    remaining = cards
    while remaining:
        card = (remaining & -remaining).bit_length() - 1
        remaining &= remaining - 1
        cost = COST[card]
        rank = card % 13
        if feed:
            key = cost * 4 + rank + (400 if doubled.get(card) == seat else 0)
        else:
            key = rank - cost * 8 - (400 if doubled.get(card) == seat else 0)
        if key > best_key:
            best_card, best_key = card, key
    return best_card


def _lead(hand: int, out: int, allies: int, seat: int, doubled: dict[int, int]) -> int:
    """Lead a card that a card still out beats, lowest first; prefer suits where many such
    cards are out, and our own doubled card when someone can take it (TX.8 case 1)."""
    best_card, best_key = -1, -1 << 30
    remaining = hand
    while remaining:
        card = (remaining & -remaining).bit_length() - 1
        remaining &= remaining - 1
        suit_out = out & SUIT_MASKS[card // 13]
        over = (suit_out & ~_BELOW[card]).bit_count()
        rank = card % 13
        if over:
            key = 100 + min(over, 4) * 6 - rank - COST[card] // 5
            if doubled.get(card) == seat:
                key += 40
        elif suit_out:
            key = -rank - COST[card]  # a sure loser of a trick: the cheapest one
        else:
            key = -200 - rank - COST[card]  # nobody can follow: we take it and any dump
        if key > best_key:
            best_card, best_key = card, key
    return best_card


def choose_doubles(hand: int) -> list[int]:
    """TX.7: double a K♥ or queen only when its suit holds enough low cards to duck under
    the higher ones: then it usually falls on another seat's trick (TX.8 case 1)."""
    chosen = []
    for card in DOUBLABLE:
        if not hand >> card & 1:
            continue
        suit = card // 13
        chunk = hand >> (13 * suit) & 0x1FFF
        length = chunk.bit_count()
        lows = (chunk & ((1 << SEVEN) - 1)).bit_count()
        higher = chunk >> (card % 13 + 1)
        if card == KING_OF_HEARTS:
            if length >= 5 and lows >= 3 and not higher:
                chosen.append(card)
        elif length >= 4 and lows >= 2 and higher.bit_count() <= 1:
            chosen.append(card)
    return sorted(chosen)


_QUEEN_OF_SPADES = parse_card("QS")


def prefers_trix(hand: int) -> bool:
    """TX.4: which contract to play with this hand (the other comes with a fresh one).
    High cards take tricks in Complex but lay out easily in Trix, where low cards are the
    ones that get stuck, so a hand heavy in high cards is played as Trix."""
    weight = 0.0
    remaining = hand
    while remaining:
        card = (remaining & -remaining).bit_length() - 1
        remaining &= remaining - 1
        weight += card % 13 - 6
        weight += COST[card] / 25
    return weight > 0
