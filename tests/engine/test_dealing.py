"""Seeded and stacked dealing (engine/dealing.py; T41.3, TS.2)."""

from __future__ import annotations

import pytest

import engine
from engine.cards import CARD_CODES
from engine.dealing import deal_hands, deck_for_hands, seeded_deck, validate_deck


def test_deck_j_goes_to_seat_first_plus_j() -> None:
    hands = deal_hands(list(range(52)), first=2)
    for j in range(52):
        assert hands[(2 + j) % 4] >> j & 1


def test_seeded_decks_are_deterministic_and_differ_by_deal() -> None:
    assert seeded_deck(7, 0) == seeded_deck(7, 0)
    assert seeded_deck(7, 0) != seeded_deck(7, 1)
    assert seeded_deck(7, 0) != seeded_deck(8, 0)
    assert sorted(seeded_deck(7, 3)) == list(range(52))


def test_same_seed_and_actions_give_the_same_match() -> None:
    a = engine.new_match("syrian41", seed=42)
    b = engine.new_match("syrian41", seed=42)
    assert a.to_json() == b.to_json()
    assert engine.new_match("syrian41", seed=43).to_json() != a.to_json()


def test_stacked_decks_serve_the_deals_actually_dealt_then_seeded_shuffles_follow() -> None:
    first = list(CARD_CODES)
    second = list(reversed(CARD_CODES))
    match = engine.new_match(
        "syrian41", seed=3, options={"first_dealer": 0}, decks=[first, second]
    )
    assert match.hand(1)[:2] == ["2C", "6C"]  # deck[0], deck[4] go to dealer + 1
    for _ in range(4):  # cancelled: the second stacked deck is dealt next
        match.apply(match.to_act[0], {"type": "bid", "value": 2})
    assert match.deal_number == 2
    assert "AS" in match.hand(2)  # reversed deck, dealer 1: deck[0] = AS to seat 2
    for _ in range(4):
        match.apply(match.to_act[0], {"type": "bid", "value": 2})
    assert match.deal_number == 3 and match.dealer == 2
    expected = deal_hands(seeded_deck(3, 2), first=3)  # the third deal: seeded shuffle #2
    for seat in range(4):
        assert match.hand(seat) == [CARD_CODES[c] for c in range(52) if expected[seat] >> c & 1]


def test_deck_for_hands_inverts_dealing() -> None:
    deck = seeded_deck(1, 0)
    hands = deal_hands(deck, first=3)
    codes = [[CARD_CODES[c] for c in range(52) if hand >> c & 1] for hand in hands]
    rebuilt = deck_for_hands(codes, 3)
    assert deal_hands([CARD_CODES.index(c) for c in rebuilt], 3) == hands


@pytest.mark.parametrize(
    "deck",
    [
        list(CARD_CODES[:51]),
        [*CARD_CODES[:51], "2C"],
        [*CARD_CODES[:51], "ZZ"],
        "2C 3C",
        None,
    ],
)
def test_a_deck_must_be_the_52_cards_once_each(deck: object) -> None:
    with pytest.raises(ValueError):
        validate_deck(deck)
    with pytest.raises(ValueError):
        engine.new_match("syrian41", decks=[deck])
