"""The arena runs matches between player types and reports every figure (timings and win
rates are printed, never asserted as targets)."""

from __future__ import annotations

import json

import pytest

from benchmarks.arena import DEEP_CARDS, arrangements, main, make_player, play_match
from engine.players import SearchPlayer, new_player


def test_sides_are_swapped_over_the_same_deals() -> None:
    assert arrangements("syrian41") == [[True, False, True, False], [False, True, False, True]]
    assert [seats.index(True) for seats in arrangements("tarneeb_solo")] == [0, 1, 2, 3]


def test_a_match_reports_its_winner_scores_and_decision_times() -> None:
    outcome = play_match(
        "trix_complex", ("heuristic", "random"), 3, [True, False, True, False], {}
    )
    assert outcome.deals == 8 and not outcome.capped
    assert outcome.won in (0.0, 0.5, 1.0)
    assert outcome.score_a == -outcome.score_b  # TX.10: a kingdom totals 0
    assert len(outcome.times["heuristic"]) > 50 and len(outcome.times["random"]) > 50


def test_a_tiny_arena_prints_one_json_line_with_every_figure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--variants", "tarneeb_solo", "--seeds", "1", "--baseline-seeds", "1"]
    assert main([*argv, "--rollouts", "4", "--min-worlds", "2", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    for pairing in ("heuristic_vs_random", "search_vs_heuristic"):
        assert 0.0 <= figures[f"tarneeb_solo_{pairing}"] <= 1.0
        assert figures[f"tarneeb_solo_{pairing}_matches"] == 4
        low, high = figures[f"tarneeb_solo_{pairing}_low"], figures[f"tarneeb_solo_{pairing}_high"]
        assert 0.0 <= low <= figures[f"tarneeb_solo_{pairing}"] <= high <= 1.0
    assert figures["decision_p95_ms"] == figures["tarneeb_solo_decision_p95_ms"] > 0
    assert any("search vs heuristic" in line for line in lines)


def test_the_solo_and_trix_reference_is_hard_without_its_time_limit() -> None:
    deep = make_player("deepsearch", 3, {"rollouts": 40, "min_worlds": 2})
    assert isinstance(deep, SearchPlayer)
    hard = new_player("search", 3, rollouts=40, min_worlds=2)
    assert isinstance(hard, SearchPlayer)
    assert deep.rollouts == 4 * hard.rollouts
    assert deep.exact_cards == DEEP_CARDS > hard.exact_cards
    assert deep.exact_worlds > hard.exact_worlds
