"""A lobby's commands are not repeated by a second tap: every change of a lobby moves its
version, which its buttons and pages carry, and a command this person already had carried
out since the screen they tapped was drawn is refused as stale. Other people's changes in
between do not make a tap stale, and a command typed by name is never stale."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables import Place, Refusal
from bot.tables.table_commands import NobodyElse, run
from tests.bot.league import support as league
from tests.bot.league.support import scripted_match
from tests.bot.tables.conftest import PLAYERS, Harness
from tests.bot.tables.test_rematch import owners

ALI, BADR, CARLA, DANA = PLAYERS[:4]
CHAT = Place("test", "lobby-versions")


async def test_every_change_of_a_lobby_moves_its_version_and_a_restart_keeps_it(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await manager.create(CHAT, ALI, {"variant": "syrian41"})
    versions = [table.version]
    await manager.join(table.id, BADR)
    versions.append(table.version)
    await manager.add_computer(table.id, ALI.user_id)
    versions.append(table.version)
    await manager.leave(table.id, BADR.user_id)
    versions.append(table.version)
    assert versions == sorted(set(versions)) and len(versions) == 4
    await harness.restart()
    assert harness.manager.table(table.id).version == versions[-1]


async def test_two_taps_of_add_computer_drawn_at_one_version_add_one_computer(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await manager.create(CHAT, ALI, {"variant": "syrian41"})
    drawn = table.version
    taps = [
        run(manager, table.id, "add_computer", ALI, NobodyElse(), drawn),
        run(manager, table.id, "add_computer", ALI, NobodyElse(), drawn),
    ]
    outcomes = await asyncio.gather(*taps, return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, Refusal)]
    assert [r.code for r in refused] == ["stale"]
    assert sum(seat is not None and seat.kind == "computer" for seat in table.seats) == 1
    # Drawn again after the change, the same button adds the next one.
    await run(manager, table.id, "add_computer", ALI, NobodyElse(), table.version)
    assert sum(seat is not None and seat.kind == "computer" for seat in table.seats) == 2


async def test_a_tap_drawn_before_someone_else_changed_the_lobby_still_counts(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await manager.create(CHAT, ALI, {"variant": "syrian41"})
    drawn = table.version  # the group's message, not yet redrawn after the joins below
    await run(manager, table.id, "join", BADR, NobodyElse(), drawn)
    await run(manager, table.id, "join", CARLA, NobodyElse(), drawn)
    await run(manager, table.id, "add_computer", ALI, NobodyElse(), drawn)
    assert table.free_seats() == []


async def test_a_command_typed_by_name_is_never_stale(harness: Harness) -> None:
    manager = harness.manager
    table = await manager.create(CHAT, ALI, {"variant": "syrian41"})
    await run(manager, table.id, "add_computer", ALI, NobodyElse())
    await run(manager, table.id, "add_computer", ALI, NobodyElse())  # /addbot twice: two
    assert len(table.free_seats()) == 1


async def test_a_second_swap_of_partners_drawn_at_the_same_version_is_refused(
    harness: Harness,
) -> None:
    manager = harness.manager
    old = await scripted_match(manager)
    lobby = await manager.rematch(old.id, league.BADR)
    drawn = lobby.version
    swapped = owners(lobby)
    await run(manager, lobby.id, "swap", league.BADR, NobodyElse(), drawn)
    assert owners(lobby) != swapped
    swapped = owners(lobby)
    with pytest.raises(Refusal) as second:  # the double tap would swap them back
        await run(manager, lobby.id, "swap", league.BADR, NobodyElse(), drawn)
    assert second.value.code == "stale" and owners(lobby) == swapped
