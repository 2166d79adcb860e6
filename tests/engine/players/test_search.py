"""The search player's own choices: which cards it weighs at all."""

from __future__ import annotations

from engine.cards import FULL_MASK, parse_card
from engine.players.search import _distinct
from tests.engine.players.support import playing_knowledge


def mask(codes: str) -> int:
    return sum(1 << parse_card(code) for code in codes.split())


def test_a_card_on_the_table_separates_the_cards_above_it_from_those_below() -> None:
    """Fourth to a club trick led with the king: the ace wins it, the queen does not, so
    they are not the same card even though nothing unseen lies between them (a bug that
    had "hard" weigh Q for A, and duck). A card of a finished trick still joins its
    neighbours: with J gone earlier, T and Q are one card."""
    hand = mask("6C TC QC AC 3D")
    trick = [(1, parse_card("KC")), (2, parse_card("2C")), (3, parse_card("3C"))]
    played = mask("JC KC 2C 3C")  # the jack went in an earlier trick
    know = playing_knowledge(
        hand, played, [5, 4, 4, 4], trick=trick, tricks_won=[1, 0, 0, 0], bids=[3, 3, 3, 2]
    )
    assert know.out & hand == 0 and know.out | hand | know.played == FULL_MASK
    clubs = [parse_card(code) for code in ("6C", "TC", "QC", "AC")]
    kept = _distinct(clubs, know)
    assert [parse_card("AC") in kept, parse_card("6C") in kept] == [True, True]
    assert parse_card("TC") in kept and parse_card("QC") not in kept  # J gone: T ≡ Q
