"""Parsing the action dicts of the contract into compact tuples.

Anything that is not a well-formed action — ``None``, a string, a dict with an unknown
``type`` or a missing or mistyped field — is refused with ``bad_action`` before any rule is
consulted, so garbage can never reach a variant's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import parse_card, suit_index
from engine.errors import IllegalAction

BID: Final = "bid"
PASS: Final = "pass"
TRUMP: Final = "trump"
CONTRACT: Final = "contract"
DOUBLE: Final = "double"
PLAY: Final = "play"

CONTRACTS: Final = ("complex", "trix")

# (kind, payload): bid → int, pass → None, trump → suit int, contract → str,
# double → tuple of card ints, play → card int.
Parsed = tuple[str, object]


def _bad(message: str) -> IllegalAction:
    return IllegalAction("bad_action", message)


def parse_action(action: object) -> Parsed:
    """Validate the shape of an action dict and return ``(kind, payload)``."""
    if not isinstance(action, dict):
        raise _bad("an action must be a dict such as {'type': 'play', 'card': 'QH'}")
    kind = action.get("type")
    if kind == PLAY:
        try:
            return PLAY, parse_card(action.get("card"))
        except ValueError:
            raise _bad(f"not a card: {action.get('card')!r}") from None
    if kind == BID:
        value = action.get("value")
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(f"a bid needs an integer value, not {value!r}")
        return BID, value
    if kind == PASS:
        return PASS, None
    if kind == TRUMP:
        try:
            return TRUMP, suit_index(action.get("suit"))
        except ValueError:
            raise _bad(f"not a suit: {action.get('suit')!r}") from None
    if kind == CONTRACT:
        contract = action.get("contract")
        if contract not in CONTRACTS:
            raise _bad(f"a contract is 'complex' or 'trix', not {contract!r}")
        return CONTRACT, contract
    if kind == DOUBLE:
        cards = action.get("cards")
        if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
            raise _bad("a double needs a list of cards")
        try:
            parsed = tuple(sorted({parse_card(code) for code in cards}))
        except (ValueError, TypeError):
            raise _bad(f"not a list of cards: {cards!r}") from None
        if len(parsed) != len(cards):
            raise _bad("a card is listed twice")
        return DOUBLE, parsed
    raise _bad(f"unknown action type {kind!r}")
