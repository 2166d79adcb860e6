"""Whole matches played fast and known in advance, for the league and rematch tests."""

from __future__ import annotations

import random

from bot.tables import LiveTable, Place, TableManager
from engine.dealing import seeded_first_dealer
from tests.bot.tables.conftest import PLAYERS
from tests.bot.tables.test_manager import full_table, press
from tests.engine.scripts import one_suit_deck

ALI, BADR, CARLA, DANA, EVE, FARAH = PLAYERS
# The T41D.5 script of the engine tests: team A (seats 0 and 2) qualifies after three
# deals, the final scores [42, -6, 10, -7].
SCRIPT_BIDS = ([2, 2, 7, 3], [13, 2, 2, 2], [9, 2, 2, 2])
SCRIPT_SCORES = [42, -6, 10, -7]


async def scripted_match(manager: TableManager, chat: str = "c") -> LiveTable:
    """Ali, Badr, Carla and Dana (seats 0 to 3) play a Tarneeb 41 doubled match that team
    A wins in three deals."""
    seed = next(s for s in range(100) if seeded_first_dealer(s) == 0)
    decks = [one_suit_deck(0, 2), one_suit_deck(1, 0), one_suit_deck(2, 0)]
    table = await manager.create(
        Place("test", chat), ALI, {"variant": "tarneeb41_double"}, decks=decks, seed=seed
    )
    for player in (BADR, CARLA, DANA):
        await manager.join(table.id, player)
    await manager.begin(table.id, ALI.user_id)
    await finish_script(manager, table)
    return table


async def finish_script(manager: TableManager, table: LiveTable) -> None:
    match = table.match
    assert match is not None
    for bids in SCRIPT_BIDS:
        for _ in range(4):
            seat = match.to_act[0]
            await press(manager, table, seat, {"type": "bid", "value": bids[seat]})
        while table.status == "running" and match.phase == "playing":
            seat = match.to_act[0]
            await press(manager, table, seat, match.auto_action(seat))
    assert table.status == "finished" and match.scores == SCRIPT_SCORES


async def with_computers(
    manager: TableManager, variant: str = "tarneeb_solo", humans: int = 2, chat: str = "solo"
) -> LiveTable:
    """A match of ``humans`` humans (Ali first) and computers, played to its end with the
    rules' timeout moves (quick)."""
    table = await full_table(manager, variant, humans=humans, place=chat)
    await play_to_end(manager, table)
    return table


async def play_to_end(manager: TableManager, table: LiveTable, seed: int = 3) -> None:
    rng = random.Random(seed)
    while table.status == "running":
        await manager.settle()
        match = table.match
        if table.status != "running" or match is None:
            break
        humans = [s for s in match.to_act if not table.seats[s].computer_plays]  # type: ignore[union-attr]
        if not humans:
            continue
        seat = humans[0]
        action = match.auto_action(seat) if rng.random() < 0.9 else None
        await press(manager, table, seat, action or rng.choice(match.legal_actions(seat)))
    await manager.settle()
