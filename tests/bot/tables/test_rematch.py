"""Rematch in one tap (``bot/tables/rematch.py``): the same place, game and seats; the
presser confirmed, the others with one tap each; computers kept; after the wait computers
take the unconfirmed seats and the table says so; partners may swap; confirmations
survive a restart."""

from __future__ import annotations

from bot.tables import LiveTable
from tests.bot.league.support import (
    ALI,
    BADR,
    CARLA,
    DANA,
    EVE,
    scripted_match,
    with_computers,
)
from tests.bot.tables.conftest import Harness
from tests.bot.tables.test_manager import refused


def owners(table: LiveTable) -> list[str | None]:
    return [seat.owner if seat is not None else None for seat in table.seats]


def ready(table: LiveTable) -> list[bool]:
    return [seat is not None and seat.ready for seat in table.seats]


async def test_a_rematch_opens_where_the_match_was_with_everyone_in_their_seats(
    harness: Harness,
) -> None:
    manager = harness.manager
    old = await scripted_match(manager)
    new = await manager.rematch(old.id, BADR)
    assert new.id != old.id and new.place == old.place and new.status == "lobby"
    assert new.config.variant == old.config.variant and new.config.rematch_of == old.id
    assert owners(new) == owners(old)
    assert ready(new) == [False, True, False, False]  # the presser is confirmed
    assert new.deadline == new.created_at + new.config.rematch_seconds
    assert new.deadline_kind == "rematch"


async def test_the_match_starts_when_the_last_human_confirms(harness: Harness) -> None:
    manager = harness.manager
    old = await scripted_match(manager)
    new = await manager.rematch(old.id, ALI)
    await manager.ready(new.id, BADR.user_id)
    await manager.rematch(old.id, CARLA)  # a second tap of Rematch confirms too
    assert new.status == "lobby"
    await manager.ready(new.id, DANA.user_id)
    assert new.status == "running" and new.match is not None
    assert owners(new) == owners(old)
    events = [e["type"] for e in harness.notifier.events()]
    assert "rematch_filled" not in events


async def test_computers_are_kept_and_a_lone_human_starts_at_once(harness: Harness) -> None:
    manager = harness.manager
    old = await with_computers(manager, "tarneeb_solo", humans=1, chat="solo")
    new = await manager.rematch(old.id, ALI)
    assert new.status == "running"  # nobody else to wait for
    assert [s.kind if s else None for s in new.seats] == ["human"] + ["computer"] * 3
    assert [s.name for s in new.seats if s] == [s.name for s in old.seats if s]
    assert new.config.target == old.config.target


async def test_after_the_wait_computers_take_the_unconfirmed_seats_and_the_table_says_so(
    harness: Harness,
) -> None:
    manager = harness.manager
    old = await scripted_match(manager)
    new = await manager.rematch(old.id, ALI)
    await manager.ready(new.id, CARLA.user_id)
    harness.clock.advance(new.config.rematch_seconds - 1)
    await manager.run_due()
    assert new.status == "lobby"  # not yet
    harness.clock.advance(2)
    await manager.run_due()
    assert new.status == "running"
    assert [s.kind if s else None for s in new.seats] == ["human", "computer", "human", "computer"]
    filled = harness.notifier.events()
    assert {"type": "rematch_filled", "seats": [1, 3]} in filled
    await manager.settle()


async def test_partners_swap_by_rotating_the_seats_after_the_first_t41_1(
    harness: Harness,
) -> None:
    manager = harness.manager
    old = await scripted_match(manager)
    new = await manager.rematch(old.id, ALI)
    await manager.ready(new.id, CARLA.user_id)
    a, b, c, d = owners(old)
    await manager.swap_partners(new.id, DANA.user_id)
    assert owners(new) == [a, c, d, b]  # Ali now partners Dana
    assert ready(new) == [True, True, False, False]  # confirmations go with the players
    await manager.swap_partners(new.id, ALI.user_id)
    await manager.swap_partners(new.id, ALI.user_id)
    assert owners(new) == [a, b, c, d]  # three swaps: every pairing, then back


async def test_bad_rematch_presses_are_refused_and_change_nothing(harness: Harness) -> None:
    manager = harness.manager
    solo = await with_computers(manager, "tarneeb_solo", humans=2, chat="solo")
    await refused(manager.rematch(solo.id, EVE), "rematch_not_player")
    lobby = await manager.rematch(solo.id, ALI)
    await refused(manager.swap_partners(lobby.id, ALI.user_id), "no_partners")
    await refused(manager.ready(lobby.id, EVE.user_id), "not_seated")
    await refused(manager.ready(lobby.id, ALI.user_id), "already_ready")
    await manager.ready(lobby.id, BADR.user_id)
    assert lobby.status == "running"
    await refused(manager.rematch(solo.id, BADR), "rematch_started")
    await refused(manager.rematch(lobby.id, ALI), "rematch_not_over")  # still playing
    await manager.stop(lobby.id, ALI.user_id)


async def test_confirmations_survive_a_restart(harness: Harness) -> None:
    old = await scripted_match(harness.manager)
    new = await harness.manager.rematch(old.id, ALI)
    await harness.manager.ready(new.id, DANA.user_id)
    await harness.restart(down_for=5)
    loaded = harness.manager.table(new.id)
    assert loaded.status == "lobby" and ready(loaded) == [True, False, False, True]
    assert loaded.deadline == new.deadline and loaded.deadline_kind == "rematch"
    await harness.manager.ready(new.id, BADR.user_id)
    await harness.manager.ready(new.id, CARLA.user_id)
    assert loaded.status == "running"
