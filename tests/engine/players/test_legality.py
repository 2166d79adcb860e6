"""Every action a computer player returns is legal, in every phase of every variant.

Whole matches are played by the heuristic player (all four seats), by the heuristic
against the random player, and for a few deals by the search player on a small budget.
Before each action is applied it is checked against ``match.legal_actions(seat)`` — the
engine's own list, not the copy in the view the player was given.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import engine
from engine.players import new_player
from tests.engine.players.support import TARNEEB, VARIANTS, phase_key

HEURISTIC_MATCHES = 20
MIXED_MATCHES = 10
SEARCH_DEALS = 2  # every phase of every variant is met in two (the suite's time is shared)
MAX_DEALS = 400  # a safety net: a heuristic T41 match takes a few dozen deals

# Every kind of decision each variant asks for (the playing phase of Trix split by
# contract, and Trix's forced pass, TX.9).
PHASES = {
    "syrian41": {"bidding", "playing"},
    "tarneeb41_double": {"bidding", "playing"},
    "tarneeb_solo": {"bidding", "trump", "playing"},
    "trix_complex": {
        "contract",
        "doubling",
        "playing:complex",
        "playing:trix:choice",
        "playing:trix:forced-pass",
    },
}


def checked_decision(match: engine.Match, seat: int, player: Any, seen: Counter[str]) -> None:
    """Ask ``player`` for ``seat``'s action, check it is legal, then apply it."""
    legal = match.legal_actions(seat)
    view = match.view(seat)
    assert view["legal_actions"] == legal
    sample = seen["positions"] % 11 == 0  # the costlier checks, on every 11th position
    untouched = json.dumps(view) if sample else None
    action = player.decide(view)
    if sample:
        assert json.dumps(view) == untouched, "a player must not modify the view it is given"
    assert action in legal, (
        f"{player.name} chose {action!r} for seat {seat} in {match.variant} "
        f"({match.phase}, deal {match.deal_number}); legal: {legal!r}"
    )
    if sample:
        assert json.loads(json.dumps(action)) == action  # JSON-ready, like the engine's
    seen[phase_key(match.phase, view, legal)] += 1
    seen["positions"] += 1
    if len(legal) > 1:
        seen["choices"] += 1
    bidding = match.phase == "bidding"
    if bidding and match.variant == "tarneeb41_double" and match.scores[seat] >= 30:
        seen["bidding:score>=30"] += 1  # T41D.2: 2 is not legal here
    if bidding and match.variant == "tarneeb_solo" and all(a["type"] == "bid" for a in legal):
        seen["bidding:forced-dealer"] += 1  # TS.5: the dealer may not pass
    match.apply(seat, action)


def play_match(
    variant: str, seed: int, players: list[Any], seen: Counter[str], max_deals: int = MAX_DEALS
) -> engine.Match:
    match = engine.new_match(variant, seed=seed, options={"first_dealer": seed % 4})
    while match.result is None and match.deal_number <= max_deals:
        for seat in list(match.to_act):  # several seats only in the doubling window
            checked_decision(match, seat, players[seat], seen)
    return match


def scored_deals(match: engine.Match) -> int:
    """Deals played to the end (T41.6 / T41D.3 cancelled deals do not count)."""
    return sum(1 for entry in match.view(None)["history"] if not entry.get("cancelled"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_heuristic_players_play_whole_matches_legally(variant: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(HEURISTIC_MATCHES):
        players = [new_player("heuristic") for _ in range(4)]
        match = play_match(variant, seed, players, seen)
        assert match.result is not None, f"seed {seed}: no result after {MAX_DEALS} deals"
        assert match.phase == "finished"
    assert PHASES[variant] <= set(seen), f"phases never reached: {PHASES[variant] - set(seen)}"
    # Thousands of positions per variant, most of them real choices among several actions.
    assert seen["positions"] >= 8000
    assert seen["choices"] >= 4000
    if variant == "tarneeb41_double":
        assert seen["bidding:score>=30"] > 0  # T41D.2 was exercised
    if variant == "tarneeb_solo":
        assert seen["bidding:forced-dealer"] > 0  # TS.5 was exercised


@pytest.mark.parametrize("variant", VARIANTS)
def test_heuristic_and_random_players_mixed_play_legally(variant: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(MIXED_MATCHES):
        # Alternate which team is random, so both sides face odd play from the other.
        kinds = ["heuristic", "random"] * 2 if seed % 2 else ["random", "heuristic"] * 2
        players = [new_player(kind, seed=seed * 4 + s) for s, kind in enumerate(kinds)]
        match = play_match(variant, seed + 1000, players, seen)
        assert match.result is not None
    assert PHASES[variant] <= set(seen)


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_player_plays_whole_deals_legally(variant: str) -> None:
    """The search player on a small budget, all four seats, then two seats against the
    heuristic: every action legal, for several scored deals."""
    seen: Counter[str] = Counter()
    for lineup in ("search", "mixed"):
        players = [
            new_player("search", seed=s, rollouts=24, min_worlds=4)
            if lineup == "search" or s % 2 == 0
            else new_player("heuristic")
            for s in range(4)
        ]
        match = engine.new_match(variant, seed=77, options={"first_dealer": 2})
        while match.result is None and scored_deals(match) < SEARCH_DEALS:
            for seat in list(match.to_act):
                checked_decision(match, seat, players[seat], seen)
    expected = PHASES[variant]
    if variant == "trix_complex":
        # A forced pass is a single legal action; its presence depends on the deal.
        expected = expected - {"playing:trix:forced-pass"}
    assert expected <= set(seen)


def test_search_player_with_the_default_budget_plays_a_trix_deal_legally() -> None:
    """One Complex deal at the budget the tables use ("hard")."""
    seen: Counter[str] = Counter()
    players = [new_player("search", seed=s) for s in range(4)]
    match = engine.new_match("trix_complex", seed=3)
    match.apply(match.to_act[0], {"type": "contract", "contract": "complex"})
    while match.deal_number == 1:
        for seat in list(match.to_act):
            checked_decision(match, seat, players[seat], seen)
    assert seen["playing:complex"] == 52


@pytest.mark.parametrize("variant", TARNEEB)
def test_every_bid_is_one_the_variant_allows(variant: str) -> None:
    """T41.5 (2..13), T41D.1 (no 6), T41D.2 (no 2 from a score of 30)."""
    bids: Counter[int] = Counter()
    for seed in range(8):
        match = engine.new_match(variant, seed=seed)
        while match.result is None:
            seat = match.to_act[0]
            action = new_player("heuristic").decide(match.view(seat))
            if action["type"] == "bid":
                value = action["value"]
                bids[value] += 1
                assert 2 <= value <= 13
                if variant == "tarneeb41_double":
                    assert value != 6
                    assert not (value == 2 and match.scores[seat] >= 30)
            match.apply(seat, action)
    assert len(bids) >= 4  # the bids vary with the hands
