"""Card play for the trump games (T41, T41D, TS): a seat wants its side to take tricks.

One policy, on masks, used twice: by the heuristic player at the table and by the search
player inside its rollouts (thousands of calls per decision, hence ints and no objects).
It needs nothing hidden: its own hand, the trick so far, the cards still out (neither
its own nor played) and, at the table, the suits its opponents have shown they lack.

The classic rules of thumb: lead a sure winner (drawing trumps first when the top trump is
ours), else lead low from the longest side suit; second hand low, third hand high; win as
cheaply as possible; never overtake a partner; ruff an opponent's winner with the lowest
trump that wins; and when nothing helps, throw the least useful card (pitch a loser).
"""

from __future__ import annotations

from engine.cards import SUIT_MASKS
from engine.tricks import RANK_MASKS, trick_winner

_BELOW = tuple((1 << card) - 1 for card in range(52))  # cards lower than ``card`` (any suit)


def low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    return mask.bit_length() - 1


def lowest_rank(mask: int) -> int:
    """The card of lowest rank in ``mask`` (rank ties: the lower suit)."""
    for rank_mask in RANK_MASKS:
        same = mask & rank_mask
        if same:
            return (same & -same).bit_length() - 1
    raise ValueError("empty mask")


def masters(hand: int, out: int) -> int:
    """The cards of ``hand`` that no card still out can beat within their own suit."""
    result = 0
    for suit_mask in SUIT_MASKS:
        mine = hand & suit_mask
        if mine:
            top_out = out & suit_mask
            result |= mine & ~_BELOW[high(top_out)] if top_out else mine
    return result


def discard(hand: int, trump: int, out: int) -> int:
    """Pitch a loser: the lowest card of a side suit that holds no sure winner, else the
    lowest side card, else the lowest trump."""
    side = hand & ~SUIT_MASKS[trump] if trump >= 0 else hand
    if not side:
        return low(hand)
    keep = masters(side, out)
    losers = side
    for suit_mask in SUIT_MASKS:
        if keep & suit_mask:
            losers &= ~suit_mask
    return lowest_rank(losers or (side & ~keep) or side)


def choose_play(
    hand: int,
    trick: list[int],
    seats: list[int],
    trump: int,
    out: int,
    allies: int,
    danger: int = 0,
) -> int:
    """The card to play. ``trick``/``seats``: the cards played so far and who played them;
    ``out``: the cards neither in ``hand`` nor played; ``allies``: a 4-bit set of the seats
    on this seat's side (itself included); ``danger``: a suit bit set an opponent is known
    to be void in while trumps are out (leading those gives the opponents a ruff)."""
    if not trick:
        return _lead(hand, trump, out, danger)
    led = trick[0] // 13
    following = hand & SUIT_MASKS[led]
    legal = following or hand
    if not legal & (legal - 1):
        return low(legal)
    win_at = trick_winner(trick, trump)
    best = trick[win_at]
    last = len(trick) == 3
    if allies >> seats[win_at] & 1:  # partner winning: never overtake (play low)
        return low(following) if following else discard(hand, trump, out)
    best_is_trump = best // 13 == trump and led != trump
    if following:
        if best_is_trump:
            return low(following)
        beating = following & ~_BELOW[best] & ~(1 << best)
        if not beating:
            return low(following)
        if last:
            return low(beating)
        out_suit = out & SUIT_MASKS[led]
        sure = beating & ~_BELOW[high(out_suit)] if out_suit else beating
        if sure:
            return low(sure)  # win, as cheaply as a sure winner allows
        if len(trick) == 1:
            return low(following)  # second hand low
        return high(beating)  # third hand high: make the last seat pay for the trick
    trumps = hand & SUIT_MASKS[trump] if trump >= 0 else 0
    if trumps:
        if best // 13 == trump:
            trumps &= ~_BELOW[best]
        if trumps:
            return low(trumps)  # ruff with the lowest trump that wins
    return discard(hand, trump, out)


def _lead(hand: int, trump: int, out: int, danger: int) -> int:
    trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
    top = masters(hand, out)
    if trump >= 0:
        my_trumps = hand & trump_mask
        if my_trumps and out & trump_mask and top & trump_mask:
            return high(my_trumps)  # draw trumps with the top one
    side_top = top & ~trump_mask
    if side_top:
        for suit in range(4):
            if danger >> suit & 1:
                side_top &= ~SUIT_MASKS[suit]
        if side_top:
            # Cash the winner of the suit with the most cards still out (less ruff risk).
            return max(
                (high(side_top & mask) for mask in SUIT_MASKS if side_top & mask),
                key=lambda card: (out & SUIT_MASKS[card // 13]).bit_count(),
            )
    best_suit, best_key = -1, (-1, 0)
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if not mine or suit == trump:
            continue
        key = ((mine.bit_count() - 2 * (danger >> suit & 1)), -high(mine))
        if key > best_key:
            best_suit, best_key = suit, key
    if best_suit >= 0:
        return low(hand & SUIT_MASKS[best_suit])  # low from the longest side suit
    return low(hand)
