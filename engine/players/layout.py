"""Trix layout play (TX.9–TX.10): empty the hand before the opponents do.

A card laid at the end of a row lets whoever holds the next card lay it. So the policy
lays the cards that open the way to more of its own cards, and holds back the ones that
would only open the way for others (blocking), until it has nothing better. Shared by the
heuristic player and the search player's rollouts.
"""

from __future__ import annotations

from engine.trix import JACK, layout_mask


def layout_play(hand: int, rows: list[list[int] | None], friendly: int = 0) -> int:
    """The card to lay, or -1 to pass (TX.9: only with no legal card). ``friendly``: cards
    known to be out of the opponents' hands (opening the way to them costs nothing, and
    frees the partner when it holds them)."""
    legal = hand & layout_mask(rows)
    if not legal:
        return -1
    if not legal & (legal - 1):
        return (legal & -legal).bit_length() - 1
    best_card, best_key = -1, -1 << 30
    remaining = legal
    while remaining:
        card = (remaining & -remaining).bit_length() - 1
        remaining &= remaining - 1
        suit, rank = divmod(card, 13)
        base = suit * 13
        chunk = hand >> base & 0x1FFF
        if rows[suit] is None:  # a jack: opens both directions
            behind = (chunk & ~(1 << JACK)).bit_count()
            opened = [base + JACK - 1, base + JACK + 1]
        elif rank < JACK:  # extending down
            behind = (chunk & ((1 << rank) - 1)).bit_count()
            opened = [base + rank - 1] if rank > 0 else []
        else:  # extending up
            behind = (chunk >> (rank + 1)).bit_count()
            opened = [base + rank + 1] if rank < 12 else []
        gifts = sum(1 for nxt in opened if not (hand | friendly) >> nxt & 1)
        # The next card is ours: laying keeps the initiative; far from the jack the cards
        # behind are the ones most likely to get stuck. A next card neither opponent can
        # hold is the partner's: opening the way to it frees the partner.
        chain = sum(1 for nxt in opened if hand >> nxt & 1)
        frees = sum(1 for nxt in opened if (friendly & ~hand) >> nxt & 1)
        key = 3 * behind + 2 * chain + 2 * frees - 4 * gifts + abs(rank - JACK) // 4
        if key > best_key:
            best_card, best_key = card, key
    return best_card
