"""The shared trick core (engine/tricks.py): T41.7, TS.7, TX.5 and the timeout card."""

from __future__ import annotations

from engine.cards import mask_of, parse_card
from engine.tricks import NO_TRUMP, legal_mask, trick_winner, weakest_card


def cards(codes: str) -> list[int]:
    return [parse_card(code) for code in codes.split()]


def hand(codes: str) -> int:
    return mask_of(cards(codes))


def test_follow_suit_when_able() -> None:
    held = hand("2C 9C AH KS")
    assert legal_mask(held, parse_card("5C") // 13) == hand("2C 9C")


def test_a_void_player_or_the_leader_may_play_any_card() -> None:
    held = hand("2C 9C AH KS")
    assert legal_mask(held, parse_card("5D") // 13) == held
    assert legal_mask(held, -1) == held


def test_highest_card_of_the_led_suit_wins_without_trump() -> None:
    assert trick_winner(cards("9D AS KD 2D"), NO_TRUMP) == 2
    assert trick_winner(cards("9D AS KD 2D"), parse_card("2H") // 13) == 2


def test_highest_trump_wins_whatever_was_led() -> None:
    spades = 3
    assert trick_winner(cards("AD 2S KD 3S"), spades) == 3
    assert trick_winner(cards("4S AD 3S KD"), spades) == 0  # trump led


def test_weakest_card_prefers_non_trump_then_lowest_rank_then_suit_order() -> None:
    spades, hearts = 3, 2
    assert weakest_card(hand("2S 3H 3D"), spades) == parse_card("3D")
    assert weakest_card(hand("5C 5D 5H"), NO_TRUMP) == parse_card("5C")
    assert weakest_card(hand("5C 5D 5H"), 0) == parse_card("5D")
    assert weakest_card(hand("AH 2H"), hearts) == parse_card("2H")  # only trumps
