"""Card codes at the edges, ints inside (engine/cards.py)."""

from __future__ import annotations

import pytest

from engine.cards import (
    CARD_CODES,
    cards_of,
    codes_of,
    mask_of,
    parse_card,
    same_colour_partner,
    suit_index,
)


def test_every_card_has_one_canonical_code_in_suit_then_rank_order() -> None:
    assert len(CARD_CODES) == len(set(CARD_CODES)) == 52
    assert CARD_CODES[:3] == ("2C", "3C", "4C")
    assert CARD_CODES[-1] == "AS"
    assert [parse_card(code) for code in CARD_CODES] == list(range(52))


@pytest.mark.parametrize("spelling", ["TH", "th", "Th", "tH", "10H", "10h", " TH "])
def test_ten_is_accepted_as_t_or_10_in_any_case(spelling: str) -> None:
    assert CARD_CODES[parse_card(spelling)] == "TH"


@pytest.mark.parametrize("garbage", ["", "1H", "11H", "HQ", "QX", "Q", None, 7, ["QH"], "QHH"])
def test_anything_else_is_not_a_card(garbage: object) -> None:
    with pytest.raises(ValueError):
        parse_card(garbage)


def test_masks_round_trip_in_canonical_order() -> None:
    cards = [51, 0, 13, 26, 7]
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert codes_of(mask) == ["2C", "9C", "2D", "2H", "AS"]
    assert cards_of(0) == [] and codes_of(0) == []
    full = (1 << 52) - 1
    assert cards_of(full) == list(range(52))


def test_trump_partner_suits_share_a_colour() -> None:
    # T41.4: C<->S, D<->H
    assert [same_colour_partner(s) for s in range(4)] == [3, 2, 1, 0]
    assert suit_index("s") == 3
    with pytest.raises(ValueError):
        suit_index("X")
