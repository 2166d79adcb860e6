"""The web page's state (bot/render/page.py): every move the engine allows the seat to
act is a control on that seat's page, and no control is one the engine would refuse, in
every phase of every variant (bids, Solo's trump, Trix's contracts and doubling, cards)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.render.page import page_state
from tests.bot.render.support import NOW, VARIANTS, step, table

STEPS = 400  # past the first deal's auction, trump or contract, doubling and tricks
KINDS = {
    "syrian41": {"bid", "play"},
    "tarneeb41_double": {"bid", "play"},
    "tarneeb_solo": {"bid", "pass", "trump", "play"},
    "trix_complex": {"contract", "double", "play"},
}


def controls(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves the page lets its player make: enabled cards and decision buttons."""
    cards = [card["action"] for card in state["hand"] if card["legal"]]
    return cards + [decision["action"] for decision in state["decisions"]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_legal_move_is_a_control_and_every_control_a_legal_move(variant: str) -> None:
    match = engine.new_match(variant, seed=11)
    seen: set[str] = set()
    for _ in range(STEPS):
        if match.result is not None:
            break
        seat = match.to_act[0]
        view = match.view(seat)
        state = page_state(table(variant, "en"), view, you=seat, now=NOW, commands=[])
        legal = view["legal_actions"]
        offered = controls(state)
        for action in legal:
            seen.add(action["type"])
            if action["type"] == "double":  # TX.7: any of these cards may be marked
                assert state["doubling"] is not None
                marks = {card["card"] for card in state["doubling"]["cards"]}
                assert set(action["cards"]) <= marks
            else:
                assert action in offered, (match.phase, action)
        assert all(control in legal for control in offered), match.phase
        drawn = [card["card"] for card in state["hand"]]
        assert sorted(drawn) == sorted(view["hand"])
        suits = [code[1] for code in drawn]
        assert suits == sorted(suits, key=suits.index)  # each suit together
        step(match)
    assert KINDS[variant] <= seen, seen
