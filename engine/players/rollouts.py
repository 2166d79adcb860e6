"""Play a determinized deal to its end with the heuristic policies.

The search player calls these thousands of times per decision, so they work on four hand
masks and plain lists. Every seat plays by the same imperfect-information policy it would
use at the table (its own hand and the cards still out — never the other hands), which
keeps the rollouts honest about what players can know.

This is not ``engine.fast``: that module plays uniformly random legal cards (the engine
benchmark's workload), while a play-out here must follow the heuristic policies to say
anything about a candidate move. What the two share is the rules: ``engine.tricks``
(trick winners), ``engine.trix`` (Complex points, the layout) and ``engine.params``.
"""

from __future__ import annotations

from engine.cards import FULL_MASK
from engine.players.cardplay import choose_play
from engine.players.complex import complex_play
from engine.players.layout import layout_play
from engine.tricks import trick_winner
from engine.trix import extend_row, layout_mask, placing_points, trick_points


def trick_rollout(
    hands: list[int],
    trick: list[int],
    seats: list[int],
    leader: int,
    trump: int,
    played: int,
    allies: list[int],
    contract: tuple[int, int] | None = None,
) -> list[int]:
    """Tricks each seat takes from here to the end of a Tarneeb deal (T41.7, TS.7).
    ``hands`` is consumed; ``trick``/``seats`` are the current trick, led by ``leader``.
    ``contract`` (solo): (declarer, tricks it still needs) — once it cannot make them, the
    defenders stop helping each other (TS.8 pays each its own tricks)."""
    tricks = [0, 0, 0, 0]
    trick = list(trick)
    seats = list(seats)
    left = max(hand.bit_count() for hand in hands)  # tricks still to finish, this one included
    while True:
        if contract is not None:
            declarer, needed = contract
            if tricks[declarer] + left < needed:
                allies = [1, 2, 4, 8]
                contract = None
        seat = (leader + len(trick)) & 3
        hand = hands[seat]
        if not hand:
            return tricks
        card = choose_play(hand, trick, seats, trump, FULL_MASK & ~played & ~hand, allies[seat])
        hands[seat] = hand & ~(1 << card)
        played |= 1 << card
        trick.append(card)
        seats.append(seat)
        if len(trick) == 4:
            leader = seats[trick_winner(trick, trump)]
            tricks[leader] += 1
            trick, seats = [], []
            left -= 1


def complex_rollout(
    hands: list[int],
    trick: list[int],
    seats: list[int],
    leader: int,
    played: int,
    allies: list[int],
    doubled: dict[int, int],
) -> list[int]:
    """Points (TX.6, TX.8) each seat collects from here to the end of a Complex deal."""
    points = [0, 0, 0, 0]
    trick = list(trick)
    seats = list(seats)
    while True:
        seat = (leader + len(trick)) & 3
        hand = hands[seat]
        if not hand:
            return points
        card = complex_play(
            hand, trick, seats, FULL_MASK & ~played & ~hand, allies[seat], seat, doubled
        )
        hands[seat] = hand & ~(1 << card)
        played |= 1 << card
        trick.append(card)
        seats.append(seat)
        if len(trick) == 4:
            winner = seats[trick_winner(trick, -1)]
            for who, value in enumerate(trick_points(trick, seats[0], winner, doubled)):
                points[who] += value
            leader = winner
            trick, seats = [], []


def layout_rollout(
    hands: list[int], rows: list[list[int] | None], seat: int, finished: list[int]
) -> list[int]:
    """Placement points (TX.10) of every seat for a Trix deal played on from here, with
    ``seat`` to move and ``finished`` the seats already out, in order."""
    rows = [None if row is None else list(row) for row in rows]
    finished = list(finished)
    while len(finished) < 3:
        hand = hands[seat]
        if hand:
            card = layout_play(hand, rows) if hand & layout_mask(rows) else -1
            if card >= 0:
                hands[seat] = hand & ~(1 << card)
                extend_row(rows, card)
                if not hands[seat]:
                    finished.append(seat)
        seat = (seat + 1) & 3
    return placing_points(finished)
