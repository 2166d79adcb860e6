"""The league over a real manager and SQLite file: finished matches are counted once, in
order, into ratings, stats and history; stopped tables never; a rebuild gives exactly the
same ratings; a chat's leaderboard shows only its own matches; a match's record only to
its players, only once it is over."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from bot.league.ratings import START
from bot.league.service import MIN_MATCHES, League, counting
from bot.render.league import shown
from bot.tables import Place, Refusal
from storage.store import Store
from tests.bot.league.support import (
    ALI,
    BADR,
    CARLA,
    DANA,
    EVE,
    SCRIPT_SCORES,
    play_to_end,
    scripted_match,
    with_computers,
)
from tests.bot.tables.conftest import Harness
from tests.bot.tables.test_manager import full_table

PLATFORM = "test"
ROOT = Path(__file__).resolve().parents[3]


async def test_a_finished_match_is_counted_once_with_outcomes_figures_and_ratings(
    harness: Harness,
) -> None:
    table = await scripted_match(harness.manager)
    league = counting(harness.manager)
    await league.settle()
    counted = await league.games.counted(table.id)
    assert [(p.user_id, p.outcome, p.score) for p in counted] == [
        (ALI.user_id, "win", SCRIPT_SCORES[0]),
        (BADR.user_id, "loss", SCRIPT_SCORES[1]),
        (CARLA.user_id, "win", SCRIPT_SCORES[2]),
        (DANA.user_id, "loss", SCRIPT_SCORES[3]),
    ]
    assert all(p.family == "tarneeb" and p.rating_before == 1000 for p in counted)
    assert counted[0].rating_after == counted[2].rating_after > 1000  # partners: one team
    # Three scored deals each; Ali's bids 2, 13 and 9 (T41D.2): see the script.
    assert counted[0].figures["deals"] == 3
    assert counted[0].figures["bid_total"] == 2 + 13 + 9
    ratings = {r.user_id: r for _, _, r in await league.games.all_ratings()}
    assert (ratings[ALI.user_id].matches, ratings[ALI.user_id].wins) == (1, 1)
    assert (ratings[BADR.user_id].matches, ratings[BADR.user_id].wins) == (1, 0)
    assert await league.catch_up() == 0  # counted once


async def test_stopped_tables_and_expired_lobbies_are_never_counted(harness: Harness) -> None:
    manager = harness.manager
    running = await full_table(manager, "syrian41", humans=4, place="stopped")
    await manager.stop(running.id, ALI.user_id)
    lobby = await manager.create(
        Place(PLATFORM, "expired"), ALI, {"variant": "syrian41", "lobby_ttl_seconds": 10}
    )
    harness.clock.advance(11)
    await manager.run_due()
    assert lobby.status == "expired"
    await counting(manager).settle()
    assert await counting(manager).catch_up() == 0
    assert await counting(manager).games.all_ratings() == []
    assert await counting(manager).history(PLATFORM, "stopped") == []
    assert await counting(manager).stats(PLATFORM, ALI.user_id) == []


async def test_a_leaver_takes_the_loss_and_the_computer_finishes_for_them(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await full_table(manager, "tarneeb_solo", humans=2, place="left")
    await manager.leave(table.id, BADR.user_id)  # a computer plays Badr's seat from now on
    await play_to_end(manager, table)
    assert table.status == "finished"
    await counting(manager).settle()
    counted = {p.user_id: p for p in await counting(manager).games.counted(table.id)}
    assert counted[BADR.user_id].outcome == "left"
    ratings = {r.user_id: r for _, _, r in await counting(manager).games.all_ratings()}
    assert ratings[BADR.user_id].mu < START[0]
    assert ratings[BADR.user_id].wins == 0
    assert set(ratings) == {ALI.user_id, BADR.user_id}  # computers are never rated


async def test_rebuilding_gives_exactly_the_same_ratings(harness: Harness) -> None:
    manager = harness.manager
    await scripted_match(manager, "one")
    await with_computers(manager, "tarneeb_solo", humans=2, chat="two")
    await scripted_match(manager, "one")
    await counting(manager).settle()
    before = await counting(manager).games.all_ratings()
    players = {t: await counting(manager).games.counted(t) for t in (1, 2, 3)}
    assert await counting(manager).rebuild() == 3
    assert await counting(manager).games.all_ratings() == before
    assert {t: await counting(manager).games.counted(t) for t in (1, 2, 3)} == players


async def waiting_again(harness: Harness) -> tuple[list[int], object]:
    """Four matches of shared players counted by one process, then forgotten so that they
    all wait again; their ids and what that one process had counted."""
    manager = harness.manager
    tables = [await scripted_match(manager, chat) for chat in ("one", "two", "one")]
    tables.append(await with_computers(manager, "tarneeb_solo", humans=2, chat="solo"))
    await counting(manager).settle()
    games = counting(manager).games
    ids = [table.id for table in tables]
    alone = (await games.all_ratings(), [await games.counted(t) for t in ids])
    await games.reset()
    return ids, alone


async def test_two_processes_counting_at_once_count_each_match_exactly_once(
    harness: Harness,
) -> None:
    """Two leagues, each on its own connections to one database, count the same waiting
    matches at once: each match is counted by one of them, and the ratings, figures and
    rating changes are those one process counting alone gives (no update lost, none
    applied twice)."""
    ids, alone = await waiting_again(harness)
    other = harness.backend.make()
    await other.start()
    try:
        counts = await asyncio.gather(
            League(Store(harness.db)).catch_up(), League(Store(other)).catch_up()
        )
    finally:
        await other.close()
    games = counting(harness.manager).games
    assert sum(counts) == len(ids)
    assert (await games.all_ratings(), [await games.counted(t) for t in ids]) == alone
    assert await games.waiting() == []


def count_in_processes(address: str, processes: int) -> list[str]:
    """``processes`` workers count the league at once; what each printed last."""
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.bot.league.count_worker", address],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    try:
        for worker in workers:  # every one has opened the database before any counts
            assert worker.stdout is not None and worker.stdout.readline() == "ready\n"
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write("go\n")
            worker.stdin.flush()
        outputs = [worker.communicate(timeout=60)[0].strip() for worker in workers]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    assert all(worker.returncode == 0 for worker in workers)
    return outputs


async def test_two_os_processes_counting_at_once_count_each_match_exactly_once(
    harness: Harness,
) -> None:
    ids, alone = await waiting_again(harness)
    outputs = await asyncio.to_thread(count_in_processes, harness.backend.address, 2)
    games = counting(harness.manager).games
    assert sum(int(line.split()[1]) for line in outputs) == len(ids)
    assert (await games.all_ratings(), [await games.counted(t) for t in ids]) == alone


async def test_a_match_finished_before_a_restart_is_counted_at_the_next_start(
    harness: Harness,
) -> None:
    await scripted_match(harness.manager)
    await counting(harness.manager).settle()
    await counting(harness.manager).games.reset()  # as if the process died before counting
    await harness.restart()
    await counting(harness.manager).settle()
    assert len(await counting(harness.manager).games.counted(1)) == 4


async def test_a_chat_s_leaderboard_needs_five_matches_there_and_shows_only_its_own(
    harness: Harness,
) -> None:
    manager = harness.manager
    for _ in range(MIN_MATCHES):
        await scripted_match(manager, "home")
    await scripted_match(manager, "away")
    await counting(manager).settle()
    board = await counting(manager).top(PLATFORM, "home", "tarneeb")
    assert [entry.user_id for entry in board[:2]] in (
        [ALI.user_id, CARLA.user_id],
        [CARLA.user_id, ALI.user_id],
    )  # the winning partners first
    assert {entry.user_id for entry in board} == {p.user_id for p in (ALI, BADR, CARLA, DANA)}
    assert all(entry.matches == MIN_MATCHES for entry in board)  # the other chat's is not here
    assert [e.wins for e in board] == [MIN_MATCHES, MIN_MATCHES, 0, 0]
    assert shown(board[0].mu, board[0].sigma) > shown(board[-1].mu, board[-1].sigma)
    assert await counting(manager).top(PLATFORM, "away", "tarneeb") == []  # one match there
    assert await counting(manager).top(PLATFORM, "home", "solo") == []
    here = await counting(manager).stats(PLATFORM, ALI.user_id, "away")
    everywhere = await counting(manager).stats(PLATFORM, ALI.user_id)
    assert [(s.matches, s.wins, place) for s, place in here] == [(1, 1, None)]
    assert [(s.matches, s.wins) for s, _ in everywhere] == [(MIN_MATCHES + 1, MIN_MATCHES + 1)]
    assert everywhere[0][1] is not None and everywhere[0][1][0] in (1, 2)
    history = await counting(manager).history(PLATFORM, "home")
    assert [past.table_id for past in history] == [5, 4, 3, 2, 1]  # newest first
    assert history[0].names == [p.name for p in (ALI, BADR, CARLA, DANA)]
    assert history[0].winners == [0, 2] and history[0].scores == SCRIPT_SCORES


async def test_the_record_is_only_for_the_players_once_the_match_is_over(
    harness: Harness,
) -> None:
    manager = harness.manager
    running = await full_table(manager, "syrian41", humans=2, place="live")
    with pytest.raises(Refusal) as early:
        await counting(manager).record(PLATFORM, running.id, ALI.user_id)
    assert early.value.code == "record_not_over"  # hidden cards stay hidden
    done = await scripted_match(manager, "done")
    with pytest.raises(Refusal) as stranger:
        await counting(manager).record(PLATFORM, done.id, EVE.user_id)
    assert stranger.value.code == "record_not_player"
    with pytest.raises(Refusal) as elsewhere:
        await counting(manager).record("other", done.id, ALI.user_id)
    assert elsewhere.value.code == "unknown_table"
    record, names = await counting(manager).record(PLATFORM, done.id, ALI.user_id)
    assert names == [p.name for p in (ALI, BADR, CARLA, DANA)]
    assert len(record.deals) == 3 and list(record.scores) == SCRIPT_SCORES
