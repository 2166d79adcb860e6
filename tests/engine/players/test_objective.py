"""The deal's score as a function of the side's tricks (T41.8, T41D.4)."""

from __future__ import annotations

from itertools import pairwise

from engine.params import SYRIAN41, TARNEEB41_DOUBLE
from engine.players.objective import trick_values


def test_a_trick_counts_only_where_it_makes_or_breaks_a_bid() -> None:
    # Seat 0 bid 4 and its partner 3; the other side 3 and 3; nothing taken yet.
    values = trick_values(SYRIAN41, [4, 3, 3, 3], [0, 0, 0, 0], 0)
    assert len(values) == 14
    # 7 for us: both our bids (+7); 6 for them: both theirs (+6).
    assert values[7] == 7 - 6
    # 6 for us: the 4 is made and the 3 broken (+1); 7 for them: +6.
    assert values[6] == 1 - 6
    # Past both bids our tricks count only by what they take from the other side.
    assert values[8] == values[9] == values[10] == 7 - 0  # they keep 3-5: one 3 made
    assert values[11] == values[12] == values[13] == 7 + 6  # they keep 2 or fewer: both broken
    # Monotone: a trick more for us never hurts.
    assert all(a <= b for a, b in pairwise(values))


def test_tricks_already_taken_are_counted_against_the_bids() -> None:
    # Seat 1 bid 5 and has 5; its partner (seat 3) bid 2 and has 0; 5 tricks are left.
    won = [2, 5, 1, 0]
    values = trick_values(SYRIAN41, [3, 5, 3, 2], won, 1)
    assert len(values) == 6
    # Two more for seat 1's side make seat 3's bid too: +7; the other side keeps 3 of the 5
    # (seat 0 needs 1, seat 2 needs 2): both theirs made.
    assert values[2] == 7 - 6
    assert values[1] == 5 - 2 - 6  # seat 3 broken


def test_doubled_bids_weigh_double_in_tarneeb41_double() -> None:
    # T41D.4: a bid of 7 counts 14 both ways.
    values = trick_values(TARNEEB41_DOUBLE, [7, 2, 3, 2], [0, 0, 0, 0], 0)
    assert values[10] == 14 + 3 - 0  # both ours made; they keep 3 of the 4 they need
    assert values[9] == 14 - 3 - (2 + 2)  # 9 < 7 + 3: the 7 is the one to make
    assert values[6] == 3 - 14 - (2 + 2)  # the 7 out of reach: make the 3
