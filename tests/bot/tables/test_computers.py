"""Computer seats and takeovers play at the table's difficulty (issue 5: easy = heuristic,
hard = search), and a slow decision never blocks the event loop."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path

import engine
from bot.tables import InMemoryNotifier, Place, TableManager
from bot.tables.computers import Computers, decide
from bot.tables.config import TableConfig
from engine.players import HeuristicPlayer
from storage.database import Database
from tests.bot.tables.conftest import Harness
from tests.bot.tables.test_manager import ALI, full_table, press


async def logged_actions(db: Database, table_id: int) -> list[tuple[int, dict[str, object], str]]:
    rows = await db.fetchall(
        "SELECT seat, action, source FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
    )
    return [(row["seat"], json.loads(row["action"]), row["source"]) for row in rows]


def test_a_table_s_difficulty_defaults_to_easy_and_accepts_hard() -> None:
    assert TableConfig(variant="syrian41").difficulty == "easy"
    assert TableConfig(variant="syrian41", difficulty="hard").difficulty == "hard"


async def test_easy_computers_play_the_heuristic_player_s_moves(harness: Harness) -> None:
    table = await full_table(harness.manager, "tarneeb_solo", humans=0, difficulty="easy")
    await harness.manager.settle()
    assert table.status == "finished" and table.match is not None
    replay = engine.new_match("tarneeb_solo", seed=table.match.seed, options={"target": 31})
    heuristic = HeuristicPlayer()
    moves = await logged_actions(harness.db, table.id)
    assert len(moves) > 50
    for seat, action, source in moves:
        assert source == "computer"
        assert action == heuristic.decide(replay.view(seat))
        replay.apply(seat, action)
    assert replay.result == table.match.result


async def test_a_taken_over_seat_plays_at_the_table_s_difficulty(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41", bid_seconds=20, turn_seconds=20)
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    for _ in range(2):  # T41 timeouts twice in a row: a computer takes the seat over
        while match.to_act != [seat]:
            other = match.to_act[0]
            await press(manager, table, other, match.auto_action(other))
        harness.clock.advance(20)
        await manager.run_due()
    await manager.settle()
    occupant = table.seats[seat]
    assert occupant is not None and occupant.away
    for _ in range(12):  # play the others round until the computer has moved for the seat
        await manager.settle()
        if any(source == "computer" for *_, source in await logged_actions(harness.db, table.id)):
            break
        other = match.to_act[0]
        assert other != seat
        await press(manager, table, other, match.auto_action(other))
    moves = await logged_actions(harness.db, table.id)
    replay = engine.new_match("syrian41", seed=match.seed)
    computer_moves = 0
    for who, action, source in moves:
        if source == "computer":
            assert who == seat
            assert action == HeuristicPlayer().decide(replay.view(who))
            computer_moves += 1
        replay.apply(who, action)
    assert computer_moves >= 1


async def test_hard_computers_search_off_the_event_loop(tmp_path: Path) -> None:
    db = Database(tmp_path / "hard.sqlite", synchronous="NORMAL")
    await db.start()
    seeds = itertools.count(7)
    manager = TableManager(
        db, InMemoryNotifier(), seed_source=seeds.__next__, computers=Computers(rollouts=16)
    )
    await manager.start()
    try:
        table = await manager.create(
            Place("test", "hard"), ALI, {"variant": "trix_complex", "difficulty": "hard"}
        )
        for _ in range(3):
            await manager.add_computer(table.id, ALI.user_id)
        await manager.begin(table.id, ALI.user_id)
        # While the computers think, the loop stays free: a heartbeat keeps ticking.
        ticks = 0
        while table.runner is not None or ticks == 0:
            await asyncio.sleep(0.001)
            ticks += 1
        assert ticks > 1
        match = table.match
        assert match is not None
        moves = await logged_actions(db, table.id)
        replay = engine.new_match("trix_complex", seed=match.seed)
        for seat, action, source in moves:
            if source == "computer":
                view = replay.view(seat)
                assert action == decide("search", match.seed * 4 + seat, view, 16)
            replay.apply(seat, action)
        assert any(source == "computer" for _, _, source in moves)
    finally:
        await manager.close()
        await db.close()
