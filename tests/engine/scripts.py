"""Stacked decks and scripted deals for the engine's rule tests.

Two kinds of deal make outcomes certain, so scores can be worked out by hand:

* a one-suit deal: every seat holds one whole suit; the dealer holds clubs, so the shown
  card is a club and trump is spades (T41.4), and the seat holding the spades takes all
  13 tricks however anyone plays;
* the golden deal (``GOLDEN_HANDS``), played card by card from ``GOLDEN_PLAYS``: with
  dealer 3 and spades trump, seat 0 takes 7 tricks, seat 1 takes 6, seats 2 and 3 none.
  ``rotated`` moves it round the table by ``k`` seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import engine
from engine.dealing import deck_for_hands

SUIT_CARDS = {suit: [rank + suit for rank in "23456789TJQKA"] for suit in "CDHS"}


def one_suit_deck(dealer: int, winner: int) -> list[str]:
    """Dealer holds clubs (shown card AC → trump spades); ``winner`` holds the spades."""
    assert winner != dealer
    hands: list[list[str]] = [[], [], [], []]
    hands[dealer] = SUIT_CARDS["C"]
    hands[winner] = SUIT_CARDS["S"]
    others = [seat for seat in range(4) if seat not in (dealer, winner)]
    hands[others[0]] = SUIT_CARDS["D"]
    hands[others[1]] = SUIT_CARDS["H"]
    return deck_for_hands(hands, (dealer + 1) % 4)


# Seat 3 deals; its 13th card, 3C, is shown: trump is spades (T41.4).
GOLDEN_HANDS = [
    ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "2H", "3H", "4H", "2D", "3D", "2C"],
    ["5S", "6S", "7S", "AH", "KH", "QH", "JH", "AD", "KD", "QD", "AC", "KC", "QC"],
    ["2S", "3S", "4S", "TH", "9H", "8H", "7H", "JD", "TD", "9D", "JC", "TC", "9C"],
    ["6H", "5H", "8D", "7D", "6D", "5D", "4D", "8C", "7C", "6C", "5C", "4C", "3C"],
]
GOLDEN_DEALER = 3
# (leader's card, then the next three seats' cards) for each of the 13 tricks.
GOLDEN_PLAYS = [
    "AS 5S 2S 3C",  # seat 0 leads; seat 3 has no spade
    "KS 6S 3S 4C",
    "QS 7S 4S 5C",
    "JS QC 9C 6C",  # seats 1 and 2 are out of spades now
    "TS QD 9D 4D",
    "9S JH 7H 5D",
    "8S QH 8H 6D",  # seat 0 has taken 7 tricks and has no trump left
    "2H AH 9H 5H",  # AH wins: seat 1 leads the rest
    "AD TD 7D 2D",
    "AC TC 7C 2C",
    "KH TH 6H 3H",
    "KD JD 8D 3D",
    "KC JC 8C 4H",  # seat 0 is out of clubs
]
GOLDEN_WINNERS = [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]


def rotated(k: int) -> tuple[list[str], int, list[list[str]], list[int]]:
    """The golden deal moved ``k`` seats round: (deck, dealer, plays, winners)."""
    hands = [GOLDEN_HANDS[(seat - k) % 4] for seat in range(4)]
    dealer = (GOLDEN_DEALER + k) % 4
    plays = [trick.split() for trick in GOLDEN_PLAYS]
    winners = [(w + k) % 4 for w in GOLDEN_WINNERS]
    return deck_for_hands(hands, (dealer + 1) % 4), dealer, plays, winners


def golden_deck() -> list[str]:
    return rotated(0)[0]


def bid_round(match: engine.Match, bids: Sequence[int]) -> list[dict[str, Any]]:
    """Everyone bids once, in turn; ``bids[s]`` is seat ``s``'s bid."""
    events: list[dict[str, Any]] = []
    for _ in range(4):
        seat = match.to_act[0]
        events += match.apply(seat, {"type": "bid", "value": bids[seat]})
    return events


def play_out(match: engine.Match) -> list[dict[str, Any]]:
    """Play the current deal to its end with the timeout moves."""
    events: list[dict[str, Any]] = []
    deal = match.deal_number
    while match.deal_number == deal and match.result is None:
        seat = match.to_act[0]
        action = match.auto_action(seat)
        assert action is not None
        events += match.apply(seat, action)
    return events


def play_script(match: engine.Match, plays: list[list[str]]) -> list[dict[str, Any]]:
    """Play tricks card by card; each trick's cards start with the seat to lead."""
    events: list[dict[str, Any]] = []
    for trick in plays:
        for card in trick:
            events += match.apply(match.to_act[0], {"type": "play", "card": card})
    return events


def refused(match: engine.Match, seat: int, action: object, code: str) -> None:
    """The action is refused with ``code`` and the match is exactly as before."""
    before = match.to_json()
    with pytest.raises(engine.IllegalAction) as caught:
        match.apply(seat, action)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert match.to_json() == before


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]
