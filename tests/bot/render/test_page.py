"""The web page's state (bot/render/page.py): every move the engine allows the seat to
act is a control on that seat's page, and no control is one the engine would refuse, in
every phase of every variant (bids, Solo's trump, Trix's contracts and doubling, cards)."""

from __future__ import annotations

import itertools
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


RED = {"H", "D"}


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_hand_alternates_colours_whenever_the_suits_held_allow_it(variant: str) -> None:
    match = engine.new_match(variant, seed=5)
    for _ in range(120):
        if match.result is not None:
            break
        for seat in range(4):
            view = match.view(seat)
            state = page_state(table(variant, "en"), view, you=seat, now=NOW, commands=[])
            suits = list(dict.fromkeys(card["suit"] for card in state["hand"]))
            reds = sum(s in RED for s in suits)
            if abs(reds - (len(suits) - reds)) <= 1:  # an alternation exists
                assert all((a in RED) != (b in RED) for a, b in itertools.pairwise(suits))
        step(match)


def test_only_on_your_turn_to_play_an_illegal_card_says_why() -> None:
    match = engine.new_match("syrian41", seed=3)
    while not (match.phase == "playing" and match.view(None)["trick"]):
        step(match)
    seat = match.to_act[0]
    led = match.view(None)["trick"][0]["card"][1]
    state = page_state(table("syrian41", "en"), match.view(seat), you=seat, now=NOW, commands=[])
    assert state["your_turn"]
    for card in state["hand"]:
        if card["legal"]:
            assert card["why"] is None
        else:  # T41.7: the suit led must be followed
            assert card["suit"] != led and card["why"] == f"Follow {'♠♥♦♣'['SHDC'.index(led)]}"
    waiting = (seat + 1) % 4
    other = page_state(
        table("syrian41", "en"), match.view(waiting), you=waiting, now=NOW, commands=[]
    )
    assert not other["your_turn"] and all(card["why"] is None for card in other["hand"])


def test_tarneeb_41_bidding_shows_the_running_total_against_the_least_needed() -> None:
    match = engine.new_match("syrian41", seed=3)
    step(match)
    step(match)
    view = match.view(0)
    state = page_state(table("syrian41", "en"), view, you=0, now=NOW, commands=[])
    total = sum(b for b in view["bids"] if isinstance(b, int))
    assert state["bidding"] == {
        "total": total,
        "needed": 11,  # T41.6
        "text": f"Bids {total} of 11",
    }
    bids = [d for d in state["decisions"] if d["kind"] == "bid"]
    assert all(d["name"] == f"Bid {d['action']['value']}" for d in bids)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_deals_result_card_has_every_seat_and_the_totals(variant: str) -> None:
    match = engine.new_match(variant, seed=5)
    while not match.view(None).get("history"):
        step(match)
    view = match.view(None)
    state = page_state(table(variant, "en"), view, you=None, now=NOW, commands=[])
    result = state["deal_result"]
    entry = view["history"][-1]
    assert result["deal"] == entry["deal_number"] == 1
    if not entry.get("cancelled"):
        assert [row["score"] for row in result["rows"]] == view["scores"]
    assert (result["teams"] is None) == (view.get("team_scores") is None)
