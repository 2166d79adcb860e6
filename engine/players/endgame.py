"""Exact play of the last tricks of one sampled deal, for any score of the tricks.

DDS (``doubledummy``) counts a partnership's tricks, which is all bridge needs. The last
tricks of our games are decided by more than that: who of two partners takes a trick
(T41.8, personal bids), whether the declarer's contract still stands (TS.8), which cards
a trick carries (TX.6, TX.8). This is a plain alpha-beta search over the remaining cards,
with all hands known, that keeps a tally per seat (tricks, or points) and scores the
finished deal with the caller's function: ``value(tally)`` is what the maximizing side
gets; the other seats minimize it (two sides, zero sum).

It stays small by the usual means: a transposition table at the start of each trick
(remaining hands, leader, tally: an exact value or a bound), cards equal in play searched
once (same suit, nothing between them but cards already out of play, and the same
``cost``), and a move order that tries the cards that take the trick first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards import FULL_MASK, SUIT_MASKS
from engine.tricks import trick_winner

Tally = tuple[int, int, int, int]
TrickTally = Callable[[list[int], list[int], int, Tally], Tally]  # (cards, seats, winner, tally)
INFINITY = float("inf")


def count_tricks(cards: list[int], seats: list[int], winner: int, tally: Tally) -> Tally:
    """The Tarneeb tally: a trick more for its winner (T41.7, TS.7)."""
    a, b, c, d = tally
    return (a + (winner == 0), b + (winner == 1), c + (winner == 2), d + (winner == 3))


def distinct(cards: int, gone: int, cost: Sequence[int] | None = None) -> list[int]:
    """The lowest card of each run of ``cards`` that are equal in play, ascending: same
    suit, nothing between them but cards in ``gone`` (the player's own, or out of play),
    and, given ``cost``, the same cost (Complex penalties)."""
    result: list[int] = []
    previous = -1
    while cards:
        low = cards & -cards
        card = low.bit_length() - 1
        cards ^= low
        if previous >= 0 and previous // 13 == card // 13:
            between = ((1 << card) - 1) & ~((2 << previous) - 1)
            if between & ~gone == 0 and (cost is None or cost[previous] == cost[card]):
                previous = card  # equal in play to the one kept: skip it
                continue
        result.append(card)
        previous = card
    return result


class Endgame:
    """One search: the rules of the deal and the side the values are for."""

    def __init__(
        self,
        trump: int,
        maximizers: int,
        value: Callable[[Tally], float],
        tally_trick: TrickTally = count_tricks,
        cost: Sequence[int] | None = None,
    ) -> None:
        self.trump = trump
        self.maximizers = maximizers  # bit s set: seat s maximizes ``value``
        self.value = value
        self.tally_trick = tally_trick
        self.cost = cost  # cards of different cost never count as equal (Complex penalties)
        self.table: dict[tuple[int, int, int, int, int, Tally], tuple[float, float]] = {}

    def solve(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        seats: Sequence[int],
        leader: int,
        tally: Tally,
        candidates: Sequence[int],
    ) -> dict[int, float]:
        """The exact value of each candidate card of the seat to move (every card in the
        position played by both sides at their best)."""
        hands = list(hands)
        seat = (leader + len(trick)) & 3
        out = FULL_MASK & ~(hands[0] | hands[1] | hands[2] | hands[3])
        for card in trick:
            out &= ~(1 << card)
        results: dict[int, float] = {}
        for card in candidates:
            hands[seat] &= ~(1 << card)
            results[card] = self._after(
                hands, [*trick, card], [*seats, seat], leader, tally, out, -INFINITY, INFINITY
            )
            hands[seat] |= 1 << card
        return results

    def judge(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        seats: Sequence[int],
        leader: int,
        tally: Tally,
        candidates: Sequence[int],
        played: int,
    ) -> tuple[float, float, list[int]]:
        """The exact value of the best of ``candidates`` for the seat to move and of
        ``played`` (one of them), and the cards worth the best when ``played`` is not;
        ``[]`` when it is. Cheaper than ``solve``: a card that cannot beat ``played`` is
        only proved so (a null window around its value), not valued exactly."""
        mover = (leader + len(trick)) & 3
        maximizing = self.maximizers >> mover & 1
        value = self.solve(hands, trick, seats, leader, tally, [played])[played]
        hands = list(hands)
        out = FULL_MASK & ~(hands[0] | hands[1] | hands[2] | hands[3])
        for card in trick:
            out &= ~(1 << card)
        beating: list[int] = []
        for card in candidates:
            if card == played:
                continue
            hands[mover] &= ~(1 << card)
            # values are whole numbers: "better than value" is "at least value + 1" (or - 1)
            low, high = (value, value + 1) if maximizing else (value - 1, value)
            result = self._after(
                hands, [*trick, card], [*seats, mover], leader, tally, out, low, high
            )
            hands[mover] |= 1 << card
            if (result > value) if maximizing else (result < value):
                beating.append(card)
        if not beating:
            return value, value, []
        exact = self.solve(hands, trick, seats, leader, tally, beating)
        best = max(exact.values()) if maximizing else min(exact.values())
        return best, value, sorted(card for card, worth in exact.items() if worth == best)

    def _after(
        self,
        hands: list[int],
        trick: list[int],
        seats: list[int],
        leader: int,
        tally: Tally,
        out: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The value once ``trick``'s last card is down: finish the trick, or go on."""
        if len(trick) < 4:
            return self._move(hands, trick, seats, leader, tally, out, alpha, beta)
        winner = seats[trick_winner(trick, self.trump)]
        tally = self.tally_trick(trick, seats, winner, tally)
        for card in trick:
            out |= 1 << card
        if not hands[winner]:
            return self.value(tally)
        key = (hands[0], hands[1], hands[2], hands[3], winner, tally)
        low, high = self.table.get(key, (-INFINITY, INFINITY))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        window_low, window_high = max(alpha, low), min(beta, high)
        result = self._move(hands, [], [], winner, tally, out, window_low, window_high)
        if result <= window_low:
            high = result
        elif result >= window_high:
            low = result
        else:
            low = high = result
        self.table[key] = (low, high)
        return result

    def _move(
        self,
        hands: list[int],
        trick: list[int],
        seats: list[int],
        leader: int,
        tally: Tally,
        out: int,
        alpha: float,
        beta: float,
    ) -> float:
        seat = (leader + len(trick)) & 3
        hand = hands[seat]
        maximizing = self.maximizers >> seat & 1
        best = -INFINITY if maximizing else INFINITY
        for card in self._moves(hand, trick, seats, out, maximizing):
            hands[seat] = hand & ~(1 << card)
            trick.append(card)
            seats.append(seat)
            result = self._after(hands, trick, seats, leader, tally, out, alpha, beta)
            trick.pop()
            seats.pop()
            if maximizing:
                if result > best:
                    best = result
                    if best > alpha:
                        alpha = best
            elif result < best:
                best = result
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        hands[seat] = hand
        return best

    def _moves(
        self, hand: int, trick: list[int], seats: list[int], out: int, maximizing: int
    ) -> list[int]:
        """The distinct legal cards, the likely best first: a card that takes the trick
        for this seat's side, then the rest, low to high."""
        if trick:
            following = hand & SUIT_MASKS[trick[0] // 13]
            legal = following or hand
        else:
            legal = hand
        cards = distinct(legal, out | hand, self.cost)
        if not trick or len(cards) < 2:
            return cards
        # Who is winning the trick so far; a card that wins it for our side goes first.
        winning = seats[trick_winner(trick, self.trump)]
        ours = (self.maximizers >> winning & 1) == maximizing

        def order(card: int) -> tuple[int, int]:
            takes = trick_winner([*trick, card], self.trump) == len(trick)
            return (0 if takes and not ours else 1, card % 13)

        cards.sort(key=order)
        return cards


__all__ = ["Endgame", "Tally", "TrickTally", "count_tricks", "distinct"]
