"""Lone legal moves: played by the table only where the rules say so (TX.12, Trix), and a
press of the lone move is the player's own whether it comes before or after the delay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.tables import LiveTable, Press, TableConfig, TableManager
from tests.bot.tables.conftest import Harness
from tests.bot.tables.test_manager import full_table, human_at, press, refused

# Long enough that the loop's real timer (armed from the fake clock) never fires during a
# test: these tests fire deadlines themselves with ``run_due``.
DELAY = 10.0


async def reach_lone_move(
    manager: TableManager, table: LiveTable, *, card: bool = False, seed: int = 1
) -> int:
    """Press random legal moves (always in time) until the seat to act has exactly one
    legal move (a card when ``card``); that seat."""
    match = table.match
    assert match is not None
    rng = random.Random(seed)
    for _ in range(1000):
        assert table.status == "running"
        seat = match.to_act[0]
        forced = match.forced_action(seat)
        if forced is not None and (not card or forced["type"] == "play"):
            return seat
        await press(manager, table, seat, rng.choice(match.legal_actions(seat)))
    raise AssertionError("no lone legal move came up")


async def action_rows(harness: Harness, table: LiveTable) -> list[tuple[int, int, Any, str]]:
    rows = await harness.db.fetchall(
        "SELECT seq, seat, action, source FROM actions WHERE table_id = ? ORDER BY seq",
        (table.id,),
    )
    return [(seq, seat, json.loads(action), source) for seq, seat, action, source in rows]


# ---------------------------------------------------------------- the setting's default


def test_forced_autoplay_defaults_to_the_rules_on_only_for_trix_tx_12() -> None:
    defaults = {
        variant: TableConfig(variant=variant).forced_autoplay
        for variant in ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")
    }
    assert defaults == {
        "syrian41": False,
        "tarneeb41_double": False,
        "tarneeb_solo": False,
        "trix_complex": True,  # TX.12
    }
    assert TableConfig(variant="syrian41", forced_autoplay=True).forced_autoplay is True
    assert TableConfig(variant="trix_complex", forced_autoplay=False).forced_autoplay is False


def test_a_stored_config_keeps_its_explicit_forced_autoplay() -> None:
    old = '{"variant": "syrian41", "forced_autoplay": true}'  # stored before the default
    assert TableConfig.model_validate_json(old).forced_autoplay is True
    resolved = TableConfig(variant="syrian41")
    stored = json.loads(resolved.model_dump_json())
    assert stored["forced_autoplay"] is False  # what is written is already resolved
    assert TableConfig.model_validate(stored) == resolved


# ---------------------------------------------------------------- who plays a lone move


async def test_syrian41_lone_card_waits_for_the_normal_turn_timer(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41", turn_seconds=60)
    seat = await reach_lone_move(manager, table, card=True)
    assert table.deadline_kind == "turn"
    assert table.deadline == harness.clock.now + 60
    before = table.seq
    harness.clock.advance(table.config.forced_delay_seconds + 1)
    await manager.run_due()
    assert table.seq == before  # not played for them
    assert not [row for row in await action_rows(harness, table) if row[3] == "forced"]
    # The lone card is theirs to play, with the version the button was drawn at.
    match = table.match
    assert match is not None
    lone = match.forced_action(seat)
    await press(manager, table, seat, lone)
    assert table.seq == before + 1
    assert (await action_rows(harness, table))[-1] == (before + 1, seat, lone, "human")


async def test_tx_12_trix_complex_lone_move_is_played_after_the_delay(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "trix_complex", forced_delay_seconds=DELAY)
    assert table.config.forced_autoplay is True  # TX.12: the default for Trix
    seat = await reach_lone_move(manager, table)
    match = table.match
    assert match is not None
    lone = match.forced_action(seat)
    assert table.deadline_kind == "forced"
    assert table.deadline == harness.clock.now + DELAY
    before = table.seq
    harness.clock.advance(DELAY - 0.5)
    await manager.run_due()
    assert table.seq == before  # the player may act before the delay ends
    harness.clock.advance(0.5)
    await manager.run_due()
    assert table.seq == before + 1
    assert (await action_rows(harness, table))[before] == (before + 1, seat, lone, "forced")


async def test_explicit_forced_autoplay_plays_the_lone_card_in_syrian41(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41", forced_autoplay=True, forced_delay_seconds=DELAY)
    seat = await reach_lone_move(manager, table, card=True)
    match = table.match
    assert match is not None
    lone = match.forced_action(seat)
    assert table.deadline_kind == "forced"
    before = table.seq
    harness.clock.advance(DELAY)
    await manager.run_due()
    assert (await action_rows(harness, table))[before] == (before + 1, seat, lone, "forced")


# ---------------------------------------------------------------- a press of the lone move


async def test_a_press_of_the_lone_move_after_it_was_played_is_accepted_without_change(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await full_table(manager, "trix_complex", forced_delay_seconds=DELAY)
    seat = await reach_lone_move(manager, table)
    match = table.match
    assert match is not None
    lone = match.forced_action(seat)
    assert lone is not None
    drawn_at = table.seq  # the version the player's button carries
    harness.clock.advance(DELAY)
    await manager.run_due()  # TX.12: the table plays it first
    assert table.seq == drawn_at + 1
    logged = await action_rows(harness, table)
    published = len(harness.notifier.published)
    harness.clock.advance(0.3)
    tap = Press(table_id=table.id, version=drawn_at, action=lone, player=human_at(table, seat))
    assert await manager.press(tap) == []  # the player's own move, not "out of date"
    assert table.seq == drawn_at + 1
    assert await action_rows(harness, table) == logged  # nothing applied twice
    assert len(harness.notifier.published) == published
    assert table.last_human_at == harness.clock.now  # the player is present
    # Any other press drawn at that version is still out of date.
    other = next(s for s in range(4) if s != seat)
    await refused(
        manager.press(
            Press(table_id=table.id, version=drawn_at, action=lone, player=human_at(table, other))
        ),
        "stale",
    )
    wrong = {"type": "play", "card": "2C"} if lone != {"type": "play", "card": "2C"} else {}
    await refused(manager.press(tap.model_copy(update={"action": wrong})), "stale")
    # Once the next move is applied, the replayed press is stale again.
    await press(manager, table, match.to_act[0], match.auto_action(match.to_act[0]))
    await refused(manager.press(tap), "stale")


async def test_a_press_of_the_lone_move_before_the_delay_is_applied_once(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await full_table(manager, "trix_complex", forced_delay_seconds=DELAY)
    match = table.match
    assert match is not None
    for attempt in range(1, 50):
        seat = await reach_lone_move(manager, table, seed=attempt)
        lone = match.forced_action(seat)
        drawn_at = table.seq
        assert table.deadline_kind == "forced"
        await press(manager, table, seat, lone)  # in time: the version is current
        if table.deadline_kind != "forced":
            break  # the next seat has a choice: any forced move now would be a replay
    else:
        pytest.fail("no lone move followed by a choice")
    assert table.seq == drawn_at + 1
    harness.clock.advance(DELAY)
    await manager.run_due()  # the lone move's timer is gone: nothing more is played
    assert table.seq == drawn_at + 1
    rows = await action_rows(harness, table)
    assert rows[drawn_at] == (drawn_at + 1, seat, lone, "human")
    assert not [row for row in rows if row[3] == "forced"]
