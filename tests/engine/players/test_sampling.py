"""The sampler deals the unseen cards uniformly among the deals consistent with what the
seat has seen (no deal favoured, whatever the voids)."""

from __future__ import annotations

import random
from collections import Counter

from engine.cards import CARD_BY_CODE, FULL_MASK
from engine.players.sampling import sample_hands
from tests.engine.players.support import playing_knowledge


def mask(codes: str) -> int:
    return sum(1 << CARD_BY_CODE[code] for code in codes.split())


def test_every_consistent_deal_comes_up_equally_often_whatever_the_voids() -> None:
    """Six unseen cards for hands of 3, 1 and 2; seat 1 has shown no hearts and seat 2 no
    clubs. Placing cards one by one (the sampler before) drew these 9 deals from 0.57 to
    1.40 times their fair share; every one must come up equally often."""
    unseen = mask("2C 3C 4C 2H 3H 2D")
    mine = mask("AS KS")
    know = playing_knowledge(mine, FULL_MASK & ~unseen & ~mine, [2, 3, 1, 2])
    know.voids[1] = 1 << 2  # no hearts
    know.voids[2] = 1 << 0  # no clubs
    rng = random.Random(11)
    seen = Counter(tuple(sample_hands(know, rng)) for _ in range(9000))
    assert len(seen) == 9
    for hands, count in seen.items():
        assert not hands[1] & mask("2H 3H") and not hands[2] & mask("2C 3C 4C")
        assert 880 <= count <= 1120, (hands, count)  # 1000 each, within ~4 sigma


def test_a_deal_that_shuffles_almost_never_find_is_drawn_every_time() -> None:
    """Twelve unseen cards, each seat void in all but one suit: one consistent deal in
    12!/(4!4!4!) = 34,650 shuffles. It must come out on every draw, never a guess."""
    unseen = mask("2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H")
    mine = mask("AS KS QS JS")
    know = playing_knowledge(mine, FULL_MASK & ~unseen & ~mine, [4, 4, 4, 4])
    know.voids[1] = 0b1110  # clubs only
    know.voids[2] = 0b1101  # diamonds only
    know.voids[3] = 0b1011  # hearts only
    rng = random.Random(5)
    expected = (mine, mask("2C 3C 4C 5C"), mask("2D 3D 4D 5D"), mask("2H 3H 4H 5H"))
    assert {tuple(sample_hands(know, rng)) for _ in range(50)} == {expected}
