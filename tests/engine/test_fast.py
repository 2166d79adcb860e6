"""The fast path (engine/fast.py) against the public engine: same rules, no shortcuts."""

from __future__ import annotations

import random

import pytest

import engine
from engine.cards import CARD_CODES, mask_of
from engine.dealing import deck_for_hands
from engine.fast import (
    play_random,
    random_hands,
    random_solo_deal,
    random_tarneeb_deal,
    split_hand,
)
from engine.params import SYRIAN41, TARNEEB41_DOUBLE


def codes(hand: list[list[int]]) -> list[str]:
    return [CARD_CODES[card] for suit in hand for card in suit]


def test_random_hands_deal_the_52_cards_13_each() -> None:
    rng = random.Random(1)
    for _ in range(200):
        hands = random_hands(rng)
        cards = [card for hand in hands for suit in hand for card in suit]
        assert sorted(cards) == list(range(52))
        assert [sum(len(suit) for suit in hand) for hand in hands] == [13] * 4
        for hand in hands:
            for suit, cards_of_suit in enumerate(hand):
                assert all(card // 13 == suit for card in cards_of_suit)


def test_random_hands_give_every_card_to_every_seat_evenly() -> None:
    rng = random.Random(2)
    counts = [[0] * 4 for _ in range(52)]
    deals = 4000
    for _ in range(deals):
        for seat, hand in enumerate(random_hands(rng)):
            for suit in hand:
                for card in suit:
                    counts[card][seat] += 1
    for per_seat in counts:  # expected 1000 each; 6 standard deviations is ~165
        assert all(830 < n < 1170 for n in per_seat)


def test_split_hand_matches_masks() -> None:
    hand = split_hand(mask_of([0, 12, 13, 51]))
    assert hand == [[0, 12], [13], [], [51]]


@pytest.mark.parametrize("variant", ["syrian41", "tarneeb_solo"])
def test_recorded_fast_deals_replay_identically_through_the_public_api(variant: str) -> None:
    rng = random.Random(3)
    for deal in range(150):
        dealer = deal % 4
        leader = (dealer + 1) % 4
        hands = random_hands(rng)
        dealt = [codes(hand) for hand in hands]  # dealt[dealer][-1] is dealt last
        if variant == "syrian41":
            trump = 3 - "CDHS".index(dealt[dealer][-1][1])  # T41.4
        else:
            trump = rng.randrange(4)
        record: list[int] = []
        tricks = play_random(hands, trump, leader, rng.random, record)
        assert sum(tricks) == 13 and len(record) == 52

        deck = deck_for_hands(dealt, leader)
        match = engine.new_match(variant, options={"first_dealer": dealer}, decks=[deck])
        if variant == "syrian41":
            for _ in range(4):
                match.apply(match.to_act[0], {"type": "bid", "value": 3})
        else:
            match.apply(leader, {"type": "bid", "value": 7})
            for _ in range(3):
                match.apply(match.to_act[0], {"type": "pass"})
            match.apply(leader, {"type": "trump", "suit": "CDHS"[trump]})
        assert match.view(None)["trump"] == "CDHS"[trump]
        events = []
        for card in record:  # every card the fast path chose is legal in the engine
            events += match.apply(match.to_act[0], {"type": "play", "card": CARD_CODES[card]})
        scored = next(e for e in events if e["type"] == "hand_scored")
        assert scored["tricks"] == tricks


def test_fast_scoring_agrees_with_the_rules() -> None:
    """The fast path scores with the engine's own parameters (T41.8, T41D.4)."""
    assert SYRIAN41.deltas([7, 4, 2, 2], [7, 6, 0, 0]) == [7, 4, -2, -2]
    assert TARNEEB41_DOUBLE.deltas([7, 8, 2, 2], [7, 6, 0, 0]) == [14, -16, -2, -2]


def test_fast_random_deals_are_legal_outcomes() -> None:
    rng = random.Random(4)
    for deal in range(300):
        bids, tricks, deltas = random_tarneeb_deal(rng, deal % 4, [35, 0, 0, 0], double=True)
        assert sum(tricks) == 13 and sum(bids) >= 12
        assert 6 not in bids and bids[0] != 2  # T41D.1, T41D.2 (seat 0 is on 35)
        assert deltas == TARNEEB41_DOUBLE.deltas(bids, tricks)
        _, bid, tricks, deltas = random_solo_deal(rng, deal % 4)
        assert 7 <= bid <= 13 and sum(tricks) == 13
