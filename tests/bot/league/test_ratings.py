"""Rating updates (``bot/league/ratings.py``): partners as a team, Solo as four players,
computers at fixed ratings that never move, and a leaver who takes the loss."""

from __future__ import annotations

import pytest

from bot.league.ratings import COMPUTER_RATINGS, START, SeatRating, computer, rate
from bot.render.league import shown

NEW = SeatRating(*START)


def test_a_new_player_is_shown_1000() -> None:
    assert shown(*START) == 1000


def test_partners_are_rated_as_a_team_t41_1() -> None:
    new = rate(True, [NEW] * 4, winners=[0, 2], draw=False, scores=[41, 3, 12, -5])
    assert new[0] == new[2] and new[1] == new[3]  # one team, one update
    assert new[0] is not None and new[1] is not None
    assert new[0][0] > START[0] > new[1][0]
    assert all(sigma < START[1] for _, sigma in filter(None, new))  # everyone is surer


def test_a_team_draw_moves_nobody_s_mu_between_equals_tx_11() -> None:
    new = rate(True, [NEW] * 4, winners=[], draw=True, scores=[0, 0, 0, 0])
    assert all(mu == pytest.approx(START[0]) for mu, _ in filter(None, new))


def test_solo_ranks_four_players_by_their_final_scores_ts_9() -> None:
    new = rate(False, [NEW] * 4, winners=[1], draw=False, scores=[20, 31, -4, 20])
    mus = [rated[0] for rated in new if rated is not None]
    assert mus[0] == pytest.approx(mus[3])  # 20 and 20 tie for second
    assert mus[1] > mus[0] > mus[2]


def test_computers_keep_their_fixed_rating_and_still_rate_the_humans() -> None:
    easy = computer("easy")
    assert (easy.mu, easy.sigma) == COMPUTER_RATINGS["easy"] and not easy.human
    new = rate(True, [NEW, easy, NEW, easy], winners=[0, 2], draw=False, scores=[41, 0, 5, 0])
    assert new[1] is None and new[3] is None  # never updated
    assert new[0] is not None and new[0][0] > START[0]


def test_beating_hard_computers_is_worth_more_than_beating_easy_ones() -> None:
    easy, hard = computer("easy"), computer("hard")
    over_easy = rate(True, [NEW, easy, NEW, easy], [0, 2], False, [41, 0, 5, 0])[0]
    over_hard = rate(True, [NEW, hard, NEW, hard], [0, 2], False, [41, 0, 5, 0])[0]
    assert over_easy is not None and over_hard is not None
    assert over_hard[0] > over_easy[0]


def test_a_leaver_takes_the_loss_even_when_the_computer_won_for_them() -> None:
    leaver = SeatRating(*START, left=True)
    new = rate(True, [leaver, NEW, NEW, NEW], winners=[0, 2], draw=False, scores=[41, 0, 5, 0])
    assert new[0] is not None and new[2] is not None
    assert new[0][0] < START[0]  # rated as if their side lost
    assert new[2][0] > START[0]  # the partner who stayed is rated by what happened


def test_a_solo_leaver_comes_last_whatever_the_score() -> None:
    leaver = SeatRating(*START, left=True)
    new = rate(False, [NEW, leaver, NEW, NEW], winners=[1], draw=False, scores=[10, 31, 5, 8])
    rated = [r for r in new if r is not None]
    # Down as much as the one who really came last, though the computer won for them.
    assert rated[1][0] == pytest.approx(rated[2][0])
    assert rated[1][0] < START[0]
    assert rated[1][0] < min(rated[0][0], rated[3][0])


def test_the_same_match_rates_the_same_every_time() -> None:
    seats = [SeatRating(27.0, 5.0), computer("hard"), SeatRating(22.0, 7.0, left=True), NEW]
    first = rate(True, seats, [1, 3], False, [10, 41, 2, 9])
    assert rate(True, seats, [1, 3], False, [10, 41, 2, 9]) == first
