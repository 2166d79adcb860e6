"""Two processes that both hold a table (a lease handed over while the old holder had not
yet noticed it lost it): the log's unique move numbers let only one of them apply a move
at a given number; the other catches up with the log and refuses its press as drawn on an
old screen. Nothing is applied twice or out of order."""

from __future__ import annotations

import pytest

from bot.tables import InMemoryNotifier, Press, Refusal, TableManager
from tests.bot.tables.conftest import Harness
from tests.bot.tables.test_manager import full_table, human_at


async def test_a_move_applied_by_another_process_fences_this_ones_press(
    harness: Harness,
) -> None:
    if harness.backend.url is None:
        pytest.skip("two processes on one database: PostgreSQL")
    table = await full_table(harness.manager, "tarneeb_solo", humans=4)
    other_db = harness.backend.make()
    await other_db.start()
    other = TableManager(other_db, InMemoryNotifier(), clock=harness.clock)
    try:
        await other.start()  # it loaded the table too: two processes think they own it
        theirs = other.table(table.id)
        assert theirs.seq == table.seq
        match = table.match
        assert match is not None
        seat = match.to_act[0]
        legal = match.legal_actions(seat)
        version = table.seq
        player = human_at(table, seat)
        await harness.manager.press(
            Press(table_id=table.id, version=version, action=legal[0], player=player)
        )
        with pytest.raises(Refusal) as caught:  # the same number, from the other process
            await other.press(
                Press(table_id=table.id, version=version, action=legal[-1], player=player)
            )
        assert caught.value.code == "stale"
        assert theirs.seq == table.seq == version + 1  # caught up with the log
        stored = await harness.manager.store.load_table(table.id)
        assert stored is not None
        assert [a.seq for a in stored.actions] == list(range(1, version + 2))
        assert stored.actions[-1].action == legal[0]
    finally:
        await other.close()
        await other_db.close()
