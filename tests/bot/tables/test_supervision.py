"""Background work never stalls a table: a computer that raises, a write that fails, a
log that cannot be read, a notifier that throws — each is logged, the table rolls back
to its log and goes on. And a live table always has a timer or a runner."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest

import engine
from bot.tables import LiveTable, Place, Refusal, TableManager
from bot.tables.computers import Computers
from storage.errors import StorageError
from tests.bot.support import CARD_IN_LOG, configured_logs, eventually, play_a_card_not_held
from tests.bot.tables.conftest import Harness
from tests.bot.tables.test_manager import ALI, BADR, full_table, press, refused


class FailingComputers(Computers):
    """A computer player that raises on every decision."""

    async def decide(self, difficulty: Any, seed: int, view: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("bug in the player")


def failing_commits(manager: TableManager, count: int, reads: int = 0) -> list[int]:
    """Make the next ``count`` commits and the next ``reads`` table loads fail; returns
    how many of each are left to fail."""
    store = manager.store
    real_commit, real_load = store.commit, store.load_table
    left = [count, reads]

    async def commit(changes: Any) -> None:
        if left[0] > 0:
            left[0] -= 1
            raise StorageError("OperationalError: disk I/O error")
        await real_commit(changes)

    async def load_table(table_id: int) -> Any:
        if left[1] > 0:
            left[1] -= 1
            raise StorageError("OperationalError: unable to open database file")
        return await real_load(table_id)

    store.commit = commit  # type: ignore[method-assign]
    store.load_table = load_table  # type: ignore[method-assign]
    return left


async def replayed(harness: Harness, table: LiveTable) -> engine.Match:
    rows = await harness.db.fetchall(
        "SELECT seq, seat, action FROM actions WHERE table_id = ? ORDER BY seq", (table.id,)
    )
    assert [row["seq"] for row in rows] == list(range(1, len(rows) + 1))
    match = engine.new_match(table.variant, seed=table.seed, options=table.config.engine_options())
    for row in rows:
        match.apply(row["seat"], json.loads(row["action"]))
    return match


async def test_a_computer_that_raises_plays_the_rules_timeout_move(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.manager.computers = FailingComputers()
    harness.manager.scheduler.computers = harness.manager.computers
    with caplog.at_level(logging.ERROR, "sahra.tables"):
        table = await full_table(harness.manager, "tarneeb_solo", humans=0)
        await harness.manager.settle()
    assert table.status == "finished"
    assert "event=computer_failed" in caplog.text
    assert "bug in the player" not in caplog.text  # one line: the error's type, no traceback
    assert (await replayed(harness, table)).result == table.match.result  # type: ignore[union-attr]


async def test_failed_writes_of_computer_moves_roll_back_and_the_table_goes_on(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    manager = harness.manager
    table = await full_table(manager, "trix_complex", humans=0)  # started: computers play
    await manager.settle()
    assert table.status == "finished"
    # A second table whose first two background commits fail.
    with caplog.at_level(logging.ERROR, "sahra.tables"):
        other = await manager.create(Place("test", "second"), ALI, {"variant": "tarneeb_solo"})
        await manager.leave(other.id, ALI.user_id)  # lobby: the seat empties
        for _ in range(4):
            await manager.add_computer(other.id, ALI.user_id)
        await manager.begin(other.id, None)
        left = failing_commits(manager, 2)  # before the runner's first commit
        await eventually(lambda: other.status == "finished", timeout=20)
        await manager.settle()  # the last move's commit (memory is ahead until it lands)
    assert left == [0, 0]
    assert caplog.text.count(f"event=write_failed table={other.id} ") == 2, caplog.text
    assert (await replayed(harness, other)).to_json() == other.match.to_json()  # type: ignore[union-attr]
    assert manager.unarmed() == []


async def test_a_failed_human_move_is_refused_changes_nothing_and_keeps_the_timer(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41")
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    before = (table.seq, match.to_json(), table.deadline)
    failing_commits(manager, 1)
    await refused(press(manager, table, seat, match.auto_action(seat)), "storage")
    assert table.match is not None
    assert (table.seq, table.match.to_json(), table.deadline) == before
    assert table.timer is not None and manager.unarmed() == []
    await press(manager, table, seat, table.match.auto_action(seat))  # the retry is taken
    assert table.seq == before[0] + 1


async def test_an_unreadable_log_refuses_commands_until_a_reload_succeeds(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41")
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    seq = table.seq
    action = match.auto_action(seat)
    left = failing_commits(manager, 1, reads=1)
    await refused(press(manager, table, seat, action), "storage")
    assert table.needs_reload and table.timer is not None  # a retry is armed
    await refused(manager.leave(table.id, ALI.user_id), "storage")  # nothing until reloaded
    assert left == [0, 0]  # the store works again: the retry reloads the table
    await eventually(lambda: not table.needs_reload, timeout=5)
    assert table.seq == seq and table.match is not None
    await press(manager, table, seat, table.match.auto_action(seat))
    assert table.seq == seq + 1 and manager.unarmed() == []


async def test_a_runner_that_raises_is_logged_once_reloaded_and_rearmed(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    manager = harness.manager
    committer = manager.committer
    real_stage = committer.stage
    calls = [0]

    def stage(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == 3:
            raise RuntimeError("bug in the apply path")
        return real_stage(*args, **kwargs)

    committer.stage = stage  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, "sahra.tables"):
        table = await full_table(manager, "syrian41", humans=0)
        await eventually(lambda: table.status == "finished", timeout=20)
        await manager.settle()  # the last move's commit (memory is ahead until it lands)
    assert caplog.text.count("event=runner_failed") == 1
    assert (await replayed(harness, table)).result == table.match.result  # type: ignore[union-attr]


async def test_a_notifier_that_raises_never_stalls_play(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken:
        async def publish(self, table: LiveTable, events: list[Any]) -> None:
            raise ConnectionError("chat API down")

    harness.manager.notifier = Broken()
    with caplog.at_level(logging.ERROR, "sahra.tables"):
        table = await full_table(harness.manager, "tarneeb_solo", humans=0)
        await harness.manager.settle()
    assert table.status == "finished"
    assert "event=publish_failed" in caplog.text


async def test_a_notifier_failing_on_a_card_logs_where_it_failed_but_not_the_card(
    harness: Harness,
) -> None:
    class Broken:
        async def publish(self, table: LiveTable, events: list[Any]) -> None:
            play_a_card_not_held()  # a real engine refusal: "you do not hold 2C"

    harness.manager.notifier = Broken()
    with configured_logs("json") as stream:
        table = await full_table(harness.manager, "tarneeb_solo", humans=0)
        await harness.manager.settle()
    assert table.status == "finished"
    logged = stream.getvalue()
    failed = [
        data
        for data in map(json.loads, logged.splitlines())
        if data.get("event") == "publish_failed"
    ]
    assert failed and {data["error"] for data in failed} == {"IllegalAction"}, failed[:1]
    assert failed[0]["where"].startswith("trickplay.py:")
    assert not CARD_IN_LOG.search(logged), logged[:2000]


async def test_a_live_table_always_has_a_timer_or_a_runner(harness: Harness) -> None:
    manager = harness.manager
    table = await full_table(manager, "trix_complex", humans=2)
    checks = 0
    while table.status == "running":
        await manager.settle()
        assert manager.unarmed() == []
        checks += 1
        match = table.match
        assert match is not None
        if not match.to_act:
            break
        seat = match.to_act[0]
        if table.seats[seat] is not None and table.seats[seat].kind == "human":  # type: ignore[union-attr]
            await press(manager, table, seat, match.auto_action(seat))
    assert table.status == "finished" and checks > 50
    lobby = await manager.create(Place("test", "lobby"), BADR, {"variant": "syrian41"})
    assert manager.unarmed() == [] and lobby.timer is not None


# ---------------------------------------------------------------- races


async def test_concurrent_creates_at_one_place_open_one_table(harness: Harness) -> None:
    manager = harness.manager
    place = Place("test", "race")
    outcomes = await asyncio.gather(
        *(manager.create(place, player, {"variant": "syrian41"}) for player in (ALI, BADR)),
        return_exceptions=True,
    )
    tables = [o for o in outcomes if isinstance(o, LiveTable)]
    refusals = [o for o in outcomes if isinstance(o, Refusal)]
    assert len(tables) == 1 and [r.code for r in refusals] == ["place_taken"]
    rows = await harness.db.fetchall("SELECT count(*) FROM tables WHERE chat = 'race'")
    assert rows[0][0] == 1


async def test_a_place_taken_in_the_database_is_refused_politely(harness: Harness) -> None:
    place = Place("test", "elsewhere")
    await harness.manager.create(place, ALI, {"variant": "syrian41"})
    # A second process on the same file does not hold that table in memory.
    other = TableManager(harness.db, harness.notifier, clock=harness.clock)
    other.registry.next_id = 100
    await refused(other.create(place, BADR, {"variant": "syrian41"}), "place_taken")
    assert other.registry.sizes() == {"tables": 0, "places": 0, "opening": 0}
    # The place is free again for this process once the conflict is gone.
    await other.create(Place("test", "free"), BADR, {"variant": "syrian41"})
    await other.close()


async def test_a_create_that_cannot_be_written_is_refused_and_leaves_nothing(
    harness: Harness,
) -> None:
    manager = harness.manager
    failing_commits(manager, 1)
    place = Place("test", "fails")
    await refused(manager.create(place, ALI, {"variant": "syrian41"}), "storage")
    assert manager.table_at(place) is None
    table = await manager.create(place, ALI, {"variant": "syrian41"})
    assert manager.table_at(place) is table


async def test_a_table_whose_log_cannot_replay_does_not_keep_the_others_down(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    good = await full_table(harness.manager, "syrian41", place="good")
    bad = await full_table(harness.manager, "syrian41", place="bad")
    assert good.match is not None and bad.match is not None
    seat = bad.match.to_act[0]
    await press(harness.manager, bad, seat, bad.match.auto_action(seat))
    corrupt = json.dumps({"type": "bid", "value": 99})  # a bid no rule allows
    await harness.db.write(("UPDATE actions SET action = ? WHERE table_id = ?", (corrupt, bad.id)))
    with caplog.at_level(logging.ERROR, "sahra.tables"):
        await harness.restart()
    assert "event=table_load_failed" in caplog.text
    assert [t.id for t in harness.manager.live_tables()] == [good.id]


async def test_a_reload_whose_log_no_longer_replays_keeps_the_table_refused_and_armed(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = harness.manager
    table = await full_table(manager, "syrian41")
    assert table.match is not None
    seat = table.match.to_act[0]
    action = table.match.auto_action(seat)
    failing_commits(manager, 1)

    def broken(*args: Any) -> None:
        raise RuntimeError("action log gap")

    monkeypatch.setattr("bot.tables.commits.refresh", broken)
    await refused(press(manager, table, seat, action), "storage")
    assert table.needs_reload and manager.unarmed() == []
    monkeypatch.undo()  # the log replays again: the retry reloads the table
    await eventually(lambda: not table.needs_reload, timeout=5)
    assert table.seq == 0 and manager.unarmed() == []
