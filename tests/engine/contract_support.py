"""What both contract suites (Tarneeb and Trix) use: card codes, decks, small helpers."""

from __future__ import annotations

import json
import random
from typing import Any

import engine

Action = dict[str, Any]

Event = dict[str, Any]

SEATS = (0, 1, 2, 3)

VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)

SUITS = "CDHS"

RANKS = "23456789TJQKA"

CODES = tuple(rank + suit for suit in SUITS for rank in RANKS)


def shuffled_deck(seed: int) -> list[str]:
    deck = list(CODES)
    random.Random(seed).shuffle(deck)
    return deck


def card_order(code: str) -> tuple[int, int]:
    return SUITS.index(code[1]), RANKS.index(code[0])


def spellings(code: str) -> list[str]:
    """Input spellings the contract accepts for one card: lower case and ``10`` for ten."""
    forms = [code, code.lower(), code[0].lower() + code[1], code[0] + code[1].lower()]
    if code[0] == "T":
        forms += ["10" + code[1], "10" + code[1].lower()]
    return forms


def hands_of(match: engine.Match) -> list[list[str]]:
    return [match.hand(seat) for seat in SEATS]


def restore(match: engine.Match) -> engine.Match:
    return engine.Match.from_json(match.to_json())


def bad_decks() -> dict[str, object]:
    deck = shuffled_deck(99)
    no_2c = [code for code in deck if code != "2C"]
    return {
        "51 cards": deck[:51],
        "53 cards": [*deck, deck[0]],
        "duplicate": [*deck[:51], deck[0]],
        "duplicate by spelling": [*no_2c, "10h" if "TH" in no_2c else "th"],
        "empty": [],
        "rank 1": [*no_2c, "1C"],
        "rank 11": [*no_2c, "11C"],
        "unknown suit": [*no_2c, "2X"],
        "garbage code": [*no_2c, "ZZ"],
        "empty code": [*no_2c, ""],
        "int": [*no_2c, 0],
        "None": [*no_2c, None],
        "one string": "".join(deck),
        "104 cards": deck + deck,
    }


BAD_DECKS = bad_decks()


# Every view has at least these keys (engine-api.md, "View keys").
CONTRACT_VIEW_KEYS = {
    "variant",
    "phase",
    "deal_number",
    "dealer",
    "turn",
    "hand",
    "hand_sizes",
    "scores",
    "team_scores",
    "trump",
    "shown_card",
    "bids",
    "trick",
    "last_trick",
    "tricks_won",
    "result",
}


def json_ready(value: object) -> bool:
    return bool(json.loads(json.dumps(value)) == value)
