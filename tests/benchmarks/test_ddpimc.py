"""The double-dummy yardstick plays legal cards from its view alone, bids as "easy", and
the arena measures margins and bids made per side with it."""

from __future__ import annotations

import engine
from benchmarks.arena import play_match
from benchmarks.ddpimc import DoubleDummyPimc
from engine.players import new_player


def test_the_yardstick_plays_a_deal_legally_and_bids_as_easy() -> None:
    match = engine.new_match("tarneeb41_double", seed=5)
    yardstick = DoubleDummyPimc(seed=1, worlds=3)
    easy = new_player("heuristic")
    plays = 0
    while match.result is None and plays < 52:
        seat = match.to_act[0]
        view = match.view(seat)
        action = yardstick.decide(view)
        assert action in match.legal_actions(seat)
        if view["phase"] == "bidding":
            assert action == easy.decide(view)  # only card play differs from "easy"
        else:
            plays += 1
        match.apply(seat, action)
    assert plays == 52


def test_a_match_reports_margins_per_deal_and_bids_made_per_side() -> None:
    outcome = play_match(
        "syrian41", ("heuristic+heuristic", "heuristic"), 2, [True, False] * 2, {}
    )
    assert outcome.margins and outcome.deals >= len(outcome.margins)
    for made, bids in outcome.bids.values():
        assert bids > 0 and 0 <= made <= bids
    assert "heuristic+heuristic" in outcome.times
