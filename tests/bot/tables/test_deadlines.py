"""The deadline policy (``bot.tables.deadlines``): which timer a table gets after a change,
when a table counts as abandoned, and how long a failing table waits before a retry."""

from __future__ import annotations

import pytest

import engine
from bot.tables.config import TableConfig
from bot.tables.deadlines import abandon_due, computer_plays, next_deadline, retry_after
from bot.tables.live import LiveTable, Place, Seat

NOW = 5_000.0
CREATED = 4_000.0


def human(user: str) -> Seat:
    return Seat("human", user, f"Player {user}", "en")


def computer() -> Seat:
    return Seat("computer", None, "Rami", "en")


def table(variant: str = "syrian41", *, status: str = "running", **config: object) -> LiveTable:
    """Four human seats and, when running, a fresh match of ``variant``."""
    live = LiveTable(
        id=1,
        place=Place("test", "chat"),
        config=TableConfig(variant=variant, **config),  # type: ignore[arg-type]
        seed=1,
        creator="0",
        status=status,  # type: ignore[arg-type]
        created_at=CREATED,
        updated_at=CREATED,
        last_human_at=CREATED,
        seats=[human(str(seat)) for seat in range(4)],
    )
    if status == "running":
        live.match = engine.new_match(variant, seed=1, options=live.config.engine_options())
    return live


def play_until(live: LiveTable, phase: str) -> engine.Match:
    match = live.match
    assert match is not None
    while match.phase != phase:
        seat = match.to_act[0]
        match.apply(seat, match.auto_action(seat))
        live.seq += 1
    return match


def test_a_lobby_waits_its_time_to_live_from_its_last_change() -> None:
    assert next_deadline(table(status="lobby", lobby_ttl_seconds=600), NOW) == (
        NOW + 600,
        "lobby",
    )


def test_a_rematch_lobby_waits_from_its_opening_whatever_changes_since() -> None:
    lobby = table(status="lobby", rematch_of=7, rematch_seconds=90)
    assert next_deadline(lobby, NOW) == (CREATED + 90, "rematch")
    assert next_deadline(lobby, NOW + 50) == (CREATED + 90, "rematch")


@pytest.mark.parametrize("status", ["finished", "abandoned"])
def test_a_table_that_is_over_has_no_timer(status: str) -> None:
    assert next_deadline(table(status="running"), NOW)[0] is not None
    over = table(status="running")
    over.status = status  # type: ignore[assignment]
    assert next_deadline(over, NOW) == (None, None)


def test_a_human_to_bid_gets_the_bid_time_and_to_play_the_turn_time() -> None:
    live = table(bid_seconds=20, turn_seconds=45)
    assert live.match is not None and live.match.phase == "bidding"
    assert next_deadline(live, NOW) == (NOW + 20, "turn")
    play_until(live, "playing")
    assert next_deadline(live, NOW) == (NOW + 45, "turn")


def test_no_timer_while_only_computers_or_away_humans_are_to_act() -> None:
    live = table()
    assert live.match is not None
    seat = live.match.to_act[0]
    live.seats[seat] = computer()
    assert computer_plays(live, seat)
    assert next_deadline(live, NOW) == (None, None)
    away = human("9")
    away.away = True  # taken over after timeouts: the computer plays it
    live.seats[seat] = away
    assert next_deadline(live, NOW) == (None, None)
    live.seats[seat] = None  # an empty seat is played by a computer too
    assert next_deadline(live, NOW) == (None, None)
    live.seats[seat] = human("9")
    assert not computer_plays(live, seat)
    assert next_deadline(live, NOW)[1] == "turn"


def test_a_doubling_window_keeps_one_deadline_whoever_answers_first() -> None:
    """TX.7: moving the deadline when one seat answers would tell the table it did."""
    live = table("trix_complex", doubling_seconds=30, forced_autoplay=False)
    play_until(live, "doubling")
    opened = next_deadline(live, NOW)
    assert opened == (NOW + 30, "turn")
    live.deadline, live.deadline_kind = opened
    live.window_seq = live.seq
    assert next_deadline(live, NOW + 5) == (NOW + 35, "turn")  # the window has just opened
    match = live.match
    assert match is not None
    seat = match.to_act[0]
    match.apply(seat, match.auto_action(seat))  # one seat answers
    live.seq += 1
    assert match.phase == "doubling"
    assert next_deadline(live, NOW + 5) == opened


def test_a_lone_legal_move_of_every_human_to_act_gets_the_short_forced_delay() -> None:
    """TX.12: only when every human to act has a single legal move."""
    live = table("trix_complex", forced_delay_seconds=1.5, turn_seconds=60)
    match = live.match
    assert match is not None
    while not (
        match.to_act and all(match.forced_action(seat) is not None for seat in match.to_act)
    ):
        seat = match.to_act[0]
        match.apply(seat, match.auto_action(seat))
        live.seq += 1
    assert next_deadline(live, NOW) == (NOW + 1.5, "forced")
    live.config = live.config.model_copy(update={"forced_autoplay": False})
    assert next_deadline(live, NOW)[1] == "turn"


def test_a_table_is_abandoned_only_past_the_time_since_a_human_last_acted() -> None:
    live = table(abandon_after_seconds=3600)
    assert not abandon_due(live, CREATED + 3600)
    assert abandon_due(live, CREATED + 3601)
    live.seats = [computer() for _ in range(4)]  # computers alone are never abandoned
    assert not abandon_due(live, CREATED + 10 * 3600)


def test_retries_back_off_doubling_from_half_a_second_to_a_minute() -> None:
    assert [retry_after(n) for n in range(0, 10)] == [
        0.5,
        0.5,
        1.0,
        2.0,
        4.0,
        8.0,
        16.0,
        32.0,
        60.0,
        60.0,
    ]


def test_a_seat_on_a_page_starts_its_clock_once_the_page_has_shown_the_moves_before() -> None:
    live = table(bid_seconds=20)
    live.shown_until = NOW + 3.5  # the page is still showing the computers' moves
    assert next_deadline(live, NOW) == (NOW + 20, "turn")  # no page: at once
    live.paced_seats = frozenset(live.match.to_act if live.match else ())
    assert next_deadline(live, NOW) == (NOW + 3.5 + 20, "turn")
    live.shown_until = NOW - 1  # shown already: the clock starts now
    assert next_deadline(live, NOW) == (NOW + 20, "turn")
