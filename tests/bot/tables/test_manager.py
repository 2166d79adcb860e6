"""The table manager through its public methods, on a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.tables import LiveTable, Place, PlayerRef, Press, Refusal, TableManager
from tests.bot.support import eventually
from tests.bot.tables.conftest import PLAYERS, Harness

ALI, BADR, CARLA, DANA, EVE, FARAH = PLAYERS
VARIANTS = ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")


async def full_table(
    manager: TableManager,
    variant: str = "syrian41",
    humans: int = 4,
    place: str = "chat",
    **config: Any,
) -> LiveTable:
    """A started table with ``humans`` human seats (ALI first) and computers after them."""
    table = await manager.create(
        Place("test", place), ALI, {"variant": variant, **config}, join=humans > 0
    )
    for player in PLAYERS[1:humans]:
        await manager.join(table.id, player)
    for _ in range(4 - humans):
        await manager.add_computer(table.id, ALI.user_id)
    await manager.begin(table.id, ALI.user_id)
    return table


def human_at(table: LiveTable, seat: int) -> PlayerRef:
    occupant = table.seats[seat]
    assert occupant is not None and occupant.owner is not None
    return next(p for p in PLAYERS if p.user_id == occupant.owner)


async def press(manager: TableManager, table: LiveTable, seat: int, action: Any) -> list[Any]:
    return await manager.press(
        Press(table_id=table.id, version=table.seq, action=action, player=human_at(table, seat))
    )


async def refused(coroutine: Any, code: str) -> Refusal:
    with pytest.raises(Refusal) as caught:
        await coroutine
    assert caught.value.code == code
    return caught.value


# ---------------------------------------------------------------- lobby


async def test_a_lobby_fills_seats_and_starts_with_four(harness: Harness) -> None:
    manager = harness.manager
    table = await manager.create(Place("test", "c1"), ALI, {"variant": "syrian41"})
    assert table.status == "lobby" and table.seat_of(ALI.user_id) == 0
    assert await manager.join(table.id, BADR, seat=2) == 2  # pick a partner's seat
    await refused(manager.join(table.id, BADR), "already_seated")
    await refused(manager.join(table.id, CARLA, seat=2), "seat_taken")
    await refused(manager.begin(table.id, ALI.user_id), "not_enough_players")
    assert await manager.add_computer(table.id, ALI.user_id) == 1
    assert await manager.join(table.id, CARLA) == 3
    await refused(manager.join(table.id, DANA), "table_full")
    await manager.begin(table.id, BADR.user_id)
    assert table.status == "running" and table.match is not None
    await refused(manager.join(table.id, EVE), "not_in_lobby")


async def test_one_live_table_per_place_and_bad_options_are_refused(harness: Harness) -> None:
    manager = harness.manager
    await manager.create(Place("test", "c1", "topic-1"), ALI, {"variant": "syrian41"})
    await refused(
        manager.create(Place("test", "c1", "topic-1"), BADR, {"variant": "syrian41"}),
        "place_taken",
    )
    other_topic = await manager.create(
        Place("test", "c1", "topic-2"), BADR, {"variant": "trix_complex"}
    )
    assert other_topic.status == "lobby"
    for bad in (
        {"variant": "poker"},
        {"variant": "syrian41", "target": 31},
        {"variant": "tarneeb_solo", "target": 40},
        {"variant": "syrian41", "turn_seconds": 1},
        {"variant": "syrian41", "colour": "red"},
    ):
        await refused(manager.create(Place("test", "c9"), ALI, bad), "bad_option")
    solo = await manager.create(Place("test", "c2"), ALI, {"variant": "tarneeb_solo"})
    assert solo.config.target == 31


async def test_leaving_a_lobby_frees_the_seat(harness: Harness) -> None:
    manager = harness.manager
    table = await manager.create(Place("test", "c1"), ALI, {"variant": "syrian41"})
    await manager.join(table.id, BADR)
    await manager.leave(table.id, BADR.user_id)
    assert table.seats[1] is None
    await refused(manager.leave(table.id, BADR.user_id), "not_seated")


async def test_a_lobby_expires_after_inactivity(harness: Harness) -> None:
    manager = harness.manager
    table = await manager.create(
        Place("test", "c1"), ALI, {"variant": "syrian41", "lobby_ttl_seconds": 60}
    )
    harness.clock.advance(59)
    await manager.run_due()
    assert table.status == "lobby"
    harness.clock.advance(2)
    await manager.run_due()
    assert table.status == "expired"
    assert manager.table_at(Place("test", "c1")) is None
    await refused(manager.join(table.id, BADR), "unknown_table")
    again = await manager.create(Place("test", "c1"), BADR, {"variant": "syrian41"})
    assert again.id != table.id


# ---------------------------------------------------------------- playing


async def play_by_humans(
    harness: Harness, table: LiveTable, rng: random.Random, limit: int
) -> None:
    """Every human presses a random legal action with the current version."""
    manager = harness.manager
    for _ in range(limit):
        await manager.settle()
        if table.status != "running":
            return
        match = table.match
        assert match is not None
        seat = match.to_act[0]
        occupant = table.seats[seat]
        assert occupant is not None and not occupant.computer_plays
        await press(manager, table, seat, rng.choice(match.legal_actions(seat)))


@pytest.mark.parametrize("variant", ["tarneeb_solo", "trix_complex"])
async def test_whole_matches_are_played_through_the_manager(
    harness: Harness, variant: str
) -> None:
    table = await full_table(harness.manager, variant, humans=2)
    rng = random.Random(7)
    match = table.match
    assert match is not None
    while table.status == "running":
        await harness.manager.settle()
        if table.status != "running":
            break
        seat = match.to_act[0]
        # The two humans play the timeout moves, which end these variants' matches.
        action = (
            match.auto_action(seat)
            if rng.random() < 0.9
            else rng.choice(match.legal_actions(seat))
        )
        await press(harness.manager, table, seat, action)
    assert table.status == "finished" and match.result is not None
    rows = await harness.db.fetchall(
        "SELECT count(*), max(seq) FROM actions WHERE table_id = ?", (table.id,)
    )
    assert rows[0][0] == rows[0][1] == table.seq
    results = await harness.db.fetchall(
        "SELECT status, winners FROM results WHERE table_id = ?", (table.id,)
    )
    assert results[0]["status"] == "finished"


async def test_a_tarneeb41_double_match_finishes_with_stacked_decks(harness: Harness) -> None:
    # The T41D.5 script of the engine tests: team A qualifies after three deals.
    from tests.bot.league.support import SCRIPT_SCORES, scripted_match

    table = await scripted_match(harness.manager)
    assert table.match is not None and table.match.scores == SCRIPT_SCORES
    assert table.status == "finished" and table.match.result == {"winners": [0, 2], "draw": False}


async def test_computers_fill_seats_and_play_whole_matches(harness: Harness) -> None:
    tables = [
        await full_table(harness.manager, v, humans=0, place=v)
        for v in ("syrian41", "tarneeb_solo", "trix_complex")
    ]
    await harness.manager.settle()
    for table in tables:
        assert table.status == "finished"
        assert table.match is not None and table.match.result is not None


# ---------------------------------------------------------------- refusals


async def test_bad_presses_are_refused_and_change_nothing(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41")
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    before = (table.seq, match.to_json())
    other = (seat + 1) % 4
    cases = [
        (
            Press(table_id=999, version=0, action={"type": "bid", "value": 3}, player=ALI),
            "unknown_table",
        ),
        (
            Press(
                table_id=table.id,
                version=table.seq,
                action={"type": "bid", "value": 3},
                player=EVE,
            ),
            "not_seated",
        ),
        (
            Press(
                table_id=table.id,
                version=table.seq,
                action={"type": "bid", "value": 3},
                player=human_at(table, other),
            ),
            "not_your_turn",
        ),
        (
            Press(
                table_id=table.id,
                version=table.seq + 1,
                action={"type": "bid", "value": 3},
                player=human_at(table, seat),
            ),
            "stale",
        ),
        (
            Press(
                table_id=table.id,
                version=table.seq,
                action={"type": "bid", "value": 14},
                player=human_at(table, seat),
            ),
            "illegal",
        ),
        (
            Press(
                table_id=table.id,
                version=table.seq,
                action={"type": "fly"},
                player=human_at(table, seat),
            ),
            "illegal",
        ),
    ]
    for bad, code in cases:
        error = await refused(manager.press(bad), code)
        assert error.message
        assert (table.seq, match.to_json()) == before
    illegal = await refused(
        manager.press(
            Press(
                table_id=table.id,
                version=table.seq,
                action={"type": "bid", "value": 1},
                player=human_at(table, seat),
            )
        ),
        "illegal",
    )
    assert illegal.detail == "bid_out_of_range"
    rows = await harness.db.fetchall("SELECT count(*) FROM actions")
    assert rows[0][0] == 0


async def test_duplicate_and_concurrent_presses_of_one_button_apply_once(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41")
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    button = Press(
        table_id=table.id,
        version=table.seq,
        action={"type": "bid", "value": 3},
        player=human_at(table, seat),
    )
    results = await asyncio.gather(
        *(manager.press(button) for _ in range(5)), return_exceptions=True
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refusals = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(refusals) == 4
    assert {r.code for r in refusals} == {"stale"}
    assert table.seq == 1
    rows = await harness.db.fetchall("SELECT count(*) FROM actions")
    assert rows[0][0] == 1


async def test_nothing_is_published_before_its_commit(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41")
    seen: list[int] = []

    class CheckingNotifier:
        async def publish(self, published: LiveTable, events: list[Any]) -> None:
            rows = await harness.db.fetchall(
                "SELECT count(*) FROM actions WHERE table_id = ?", (published.id,)
            )
            seen.append(rows[0][0])
            assert rows[0][0] == published.seq

    manager.notifier = CheckingNotifier()
    match = table.match
    assert match is not None
    for _ in range(6):
        seat = match.to_act[0]
        await press(manager, table, seat, match.auto_action(seat))
    assert seen == [1, 2, 3, 4, 5, 6]


async def test_tables_do_not_wait_for_each_other(harness: Harness) -> None:
    manager = harness.manager
    slow = await full_table(manager, "syrian41", place="slow")
    fast = await full_table(manager, "syrian41", place="fast")
    gate, held = asyncio.Event(), asyncio.Event()

    class GatedNotifier:
        async def publish(self, table: LiveTable, events: list[Any]) -> None:
            if table.id == slow.id:
                held.set()
                await gate.wait()

    manager.notifier = GatedNotifier()
    slow_match, fast_match = slow.match, fast.match
    assert slow_match is not None and fast_match is not None
    seat = slow_match.to_act[0]
    stuck = asyncio.create_task(press(manager, slow, seat, slow_match.auto_action(seat)))
    await asyncio.wait_for(held.wait(), 10)  # the slow table's move is stuck in its publish
    seat = fast_match.to_act[0]
    await asyncio.wait_for(press(manager, fast, seat, fast_match.auto_action(seat)), 2)
    assert fast.seq == 1 and not stuck.done()
    gate.set()
    await stuck
    assert slow.seq == 1


# ---------------------------------------------------------------- timers and takeovers


async def test_a_timeout_plays_the_rules_move_and_two_in_a_row_hand_the_seat_over(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41", turn_seconds=30, bid_seconds=20)
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    expected = match.auto_action(seat)
    assert table.deadline == harness.clock.now + 20 and table.deadline_kind == "turn"
    harness.clock.advance(19)
    await manager.run_due()
    assert table.seq == 0
    harness.clock.advance(1)
    await manager.run_due()
    assert table.seq == 1
    rows = await harness.db.fetchall("SELECT seat, action, source FROM actions")
    assert (rows[0]["seat"], rows[0]["source"]) == (seat, "timeout")
    assert engine_action(rows[0]["action"]) == expected
    occupant = table.seats[seat]
    assert occupant is not None and occupant.timeouts == 1 and not occupant.away
    # Play round to the same seat, then let it time out again: a computer takes over.
    while match.to_act != [seat]:
        other = match.to_act[0]
        await press(manager, table, other, match.auto_action(other))
    harness.clock.advance(60)
    await manager.run_due()
    assert occupant.away and occupant.timeouts == 2
    assert {
        "type": "seat_taken_over",
        "seat": seat,
        "reason": "timeouts",
    } in harness.notifier.events(table.id)
    await manager.settle()
    # The computer now plays that seat whenever it is its turn; the owner reclaims it.
    await manager.reclaim(table.id, human_at(table, seat).user_id)
    assert not occupant.away and occupant.timeouts == 0
    await refused(manager.reclaim(table.id, human_at(table, seat).user_id), "not_away")


def engine_action(text: str) -> Any:
    import json

    return json.loads(text)


async def test_a_human_move_resets_the_timeout_count(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41", bid_seconds=20)
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    harness.clock.advance(21)
    await manager.run_due()
    occupant = table.seats[seat]
    assert occupant is not None and occupant.timeouts == 1
    while match.to_act != [seat]:
        other = match.to_act[0]
        await press(manager, table, other, match.auto_action(other))
    await press(manager, table, seat, match.auto_action(seat))
    assert occupant.timeouts == 0


async def test_tx_12_lone_moves_are_played_after_the_delay(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "trix_complex", forced_delay_seconds=2)
    match = table.match
    assert match is not None
    rng = random.Random(3)
    forced_seen = 0
    for _ in range(400):
        if table.status != "running":
            break
        seat = match.to_act[0]
        if table.deadline_kind == "forced":
            assert match.forced_action(seat) is not None
            harness.clock.advance(2)
            before = table.seq
            await manager.run_due()
            assert table.seq > before
            forced_seen += 1
            continue
        await press(manager, table, seat, rng.choice(match.legal_actions(seat)))
    assert forced_seen > 0
    rows = await harness.db.fetchall("SELECT count(*) FROM actions WHERE source = 'forced'")
    assert rows[0][0] >= forced_seen


async def test_an_idle_running_table_is_abandoned_and_recorded(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(
        manager,
        "syrian41",
        humans=1,
        abandon_after_seconds=600,
        bid_seconds=60,
        turn_seconds=60,
        timeouts_before_takeover=20,
    )
    await manager.settle()
    for _ in range(20):
        harness.clock.advance(60)
        await manager.run_due()
        await manager.settle()
        if table.status != "running":
            break
    assert table.status == "abandoned"
    rows = await harness.db.fetchall("SELECT status FROM results WHERE table_id = ?", (table.id,))
    assert rows[0]["status"] == "abandoned"


async def test_only_the_creator_or_an_admin_stops_a_table(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41")
    await refused(manager.stop(table.id, BADR.user_id), "not_allowed")
    await manager.stop(table.id, BADR.user_id, is_admin=True)
    assert table.status == "stopped"
    assert manager.table_at(table.place) is None


async def test_a_player_can_sit_at_several_tables(harness: Harness) -> None:
    manager = harness.manager
    first = await full_table(manager, "syrian41", place="one")
    second = await full_table(manager, "trix_complex", place="two")
    assert first.seat_of(ALI.user_id) == second.seat_of(ALI.user_id) == 0


# ---------------------------------------------------------------- restart


@pytest.mark.parametrize("variant", VARIANTS)
async def test_a_restart_replays_every_table_to_the_same_state(
    harness: Harness, variant: str
) -> None:
    table = await full_table(harness.manager, variant, humans=4)
    match = table.match
    assert match is not None
    rng = random.Random(11)
    for _ in range(70):
        seat = match.to_act[0]
        await press(harness.manager, table, seat, rng.choice(match.legal_actions(seat)))
    state, seq, deadline = match.to_json(), table.seq, table.deadline
    lobby = await harness.manager.create(Place("test", "lobby"), EVE, {"variant": "syrian41"})
    await harness.restart()
    restored = harness.manager.table(table.id)
    assert restored.match is not None and restored.match.to_json() == state
    assert restored.seq == seq and restored.deadline == deadline
    assert harness.manager.table(lobby.id).status == "lobby"
    assert harness.manager.table_at(Place("test", "chat")) is restored
    seat = restored.match.to_act[0]
    await press(harness.manager, restored, seat, restored.match.legal_actions(seat)[0])
    assert restored.seq == seq + 1


async def test_an_expired_deadline_fires_at_once_after_a_restart(harness: Harness) -> None:
    table = await full_table(harness.manager, "syrian41", bid_seconds=30)
    seat = table.match.to_act[0] if table.match else -1
    await harness.restart(down_for=31)  # the bot was down past the deadline
    restored = harness.manager.table(table.id)
    # Due at once: the timeout already ran, runs now, or its timer is due now (not in 30 s).
    timer = restored.timer
    now = asyncio.get_running_loop().time()
    assert restored.seq == 1 or restored.runner is not None or (timer and timer.when() <= now)
    await eventually(lambda: restored.seq == 1)
    await harness.manager.settle()
    assert restored.seq == 1
    rows = await harness.db.fetchall(
        "SELECT seat, source FROM actions WHERE table_id = ?", (table.id,)
    )
    assert [(row["seat"], row["source"]) for row in rows] == [(seat, "timeout")]


async def test_a_press_s_immediate_answer_is_drawn_only_once_the_checks_pass(
    harness: Harness,
) -> None:
    """``on_accepted`` is the one place a frontend draws its answer to a press: under the
    lock, after the seat, version and turn checks, before the move; False withdraws the
    press and changes nothing; a drawing that fails never loses the move."""
    manager = harness.manager
    table = await full_table(manager, "syrian41")
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    action = match.legal_actions(seat)[0]
    seen: list[tuple[int, int, int]] = []

    async def draw(answer: bool) -> Any:
        async def accepted(live: LiveTable, at: int) -> bool:
            assert live.lock.locked()  # under the table's lock, before the move
            seen.append((live.id, at, live.seq))
            return answer

        return accepted

    other = human_at(table, (seat + 1) % 4)
    wrong_turn = Press(table_id=table.id, version=table.seq, action=action, player=other)
    await refused(manager.press(wrong_turn, on_accepted=await draw(True)), "not_your_turn")
    stale = Press(table_id=table.id, version=table.seq + 5, action=action, player=ALI)
    await refused(manager.press(stale, on_accepted=await draw(True)), "stale")
    assert seen == []  # a refused press draws nothing
    mine = Press(table_id=table.id, version=table.seq, action=action, player=human_at(table, seat))
    seq = table.seq
    assert await manager.press(mine, on_accepted=await draw(False)) == []
    assert seen == [(table.id, seat, seq)] and table.seq == seq  # withdrawn: nothing changed

    async def broken(live: LiveTable, at: int) -> bool:
        raise RuntimeError("a drawing failed")

    assert await manager.press(mine, on_accepted=broken)  # the move is made all the same
    assert table.seq == seq + 1


async def test_a_press_s_answer_that_hangs_costs_the_answer_not_the_move(
    harness: Harness,
) -> None:
    manager = harness.manager
    manager.accepted_seconds = 0.05  # Discord allows 3 s; a test need not wait them
    table = await full_table(manager, "syrian41")
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    mine = Press(
        table_id=table.id,
        version=table.seq,
        action=match.legal_actions(seat)[0],
        player=human_at(table, seat),
    )

    async def hangs(live: LiveTable, at: int) -> bool:
        await asyncio.Event().wait()  # a network that never answers
        return True

    seq = table.seq
    assert await manager.press(mine, on_accepted=hangs)
    assert table.seq == seq + 1 and not table.lock.locked()
