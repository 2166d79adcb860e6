"""The league's screens (leaderboard, stats, history) and the rematch lobby, in Arabic and
English: every figure shown, one rating number, the ids the record command takes."""

from __future__ import annotations

import pytest

from bot.render.i18n import t
from bot.render.league import history_text, leaderboard_text, shown, stats_text
from bot.render.lobby import lobby_screen
from bot.render.model import SeatInfo
from storage.league import BoardEntry, FamilyStats, PastMatch
from tests.bot.render.support import LANGUAGES, plain, table

BOARD = [
    BoardEntry("1", "Ali", 31.0, 2.5, 14, 10),
    BoardEntry("2", "ليلى", 27.5, 3.0, 9, 5),
    BoardEntry("3", "Dina", 24.0, 4.0, 5, 1),
]
STATS = [
    (
        FamilyStats(
            "tarneeb", 14, 10, 0, 1, {"deals": 40, "bids_made": 30, "bid_total": 136}, 31.0, 2.5
        ),
        (1, 3),
    ),
    (
        FamilyStats(
            "solo",
            3,
            1,
            0,
            0,
            {"deals": 20, "declared": 5, "declared_made": 3, "declared_bid_total": 41}
            | {"kaboot": 1},
            24.0,
            6.0,
        ),
        None,
    ),
    (
        FamilyStats(
            "trix",
            2,
            0,
            1,
            0,
            {"kingdoms_owned": 2, "kingdom_points": -130, "doubles_won": 3, "doubles_lost": 1},
            25.0,
            7.0,
        ),
        None,
    ),
]
HISTORY = [
    PastMatch(42, "syrian41", 1_796_000_000.0, ["Ali", "Badr", "ليلى", "Dina"],
              [False, True, False, False], [0, 2], False, [45, 12, 3, 20]),
    PastMatch(41, "tarneeb_solo", 1_795_990_000.0, ["Ali", "Badr", "ليلى", "Dina"],
              [False, False, False, False], [1], False, [10, 31, 5, -4]),
]  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_leaderboard_ranks_with_one_number_matches_and_wins(language: str) -> None:
    text = plain(leaderboard_text(language, "tarneeb", BOARD, 5))
    lines = text.splitlines()
    assert lines[0] == plain(t(language, "top_title", game=t(language, "family_tarneeb")))
    for place, entry in enumerate(BOARD, 1):
        line = lines[place]
        assert line.startswith(f"{place}. {entry.name} — {shown(entry.mu, entry.sigma)}")
        assert f" {entry.matches} · " in line and line.endswith(f" {entry.wins}")
    assert "5" in lines[-1]  # how many matches a player needs to be listed


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_empty_leaderboard_says_how_many_matches_it_takes(language: str) -> None:
    text = plain(leaderboard_text(language, "trix", [], 5))
    assert text.splitlines()[1] == plain(t(language, "top_empty", count=5))


@pytest.mark.parametrize("language", LANGUAGES)
def test_stats_give_each_game_s_figures(language: str) -> None:
    text = plain(stats_text(language, "Ali", STATS, here=True))
    assert "71%" in text  # 10 wins of 14
    assert "75%" in text and "3.4" in text  # bids made 30/40, average bid 136/40
    assert "60%" in text and "8.2" in text  # solo: 3 of 5 contracts made, 41/5
    assert "−65.0" in text  # Trix: −130 over two owned kingdoms
    assert plain(t(language, "stats_rank", rank=1, of=3)) in text
    assert plain(t(language, "stats_left", count=1)) in text
    assert text.splitlines()[0] == plain(t(language, "stats_title_here", name="Ali"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_history_lists_each_match_with_its_id_winners_and_scores(language: str) -> None:
    text = plain(history_text(language, HISTORY, "/record"))
    lines = text.splitlines()
    assert lines[1].startswith("#42 · 2026-11-30 00:53 UTC · ")
    team_a, team_b = (plain(t(language, key)) for key in ("team_a", "team_b"))
    assert lines[1].endswith(f" · {team_a} 48 · {team_b} 32")  # seats 0 + 2, 1 + 3
    assert lines[2].startswith("#41 ") and "31" in lines[2]
    assert "/record" in lines[-1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rematch_lobby_shows_who_confirmed_and_offers_ready_and_swap(language: str) -> None:
    seats = (
        SeatInfo("Ali", ready=True),
        SeatInfo("Badr", computer=True),
        SeatInfo("ليلى"),
        SeatInfo("Dina", ready=True),
    )
    info = table("syrian41", language, seats=seats, status="lobby", rematch_of=7)
    screen = lobby_screen(info)
    text = plain(screen.text)
    assert "✅" in text and "⏳" in text and "🤖" in text
    assert plain(t(language, "rematch_waiting", count=1, seconds=60)) in text
    assert [b.action["type"] for b in screen.buttons()] == ["ready", "swap", "leave", "rules"]
    solo = lobby_screen(table("tarneeb_solo", language, seats=seats, status="lobby", rematch_of=7))
    assert "swap" not in [b.action["type"] for b in solo.buttons()]
