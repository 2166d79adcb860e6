"""A process that takes a table over redraws the hand of whoever is to act when it says
``resumed``, even if the computers' moves it replayed on loading were published before
the platform was up (no private chat known yet, so no hand could be drawn then)."""

from __future__ import annotations

from pathlib import Path

from bot.delivery import Outbox
from bot.present import Presenter
from bot.tables import LiveTable
from tests.bot.present.support import PLAYERS, Recorder, Surface, running_table


class Starting(Surface):
    """The platform of a process still starting: no private chat is known until ``up``."""

    def __init__(self) -> None:
        super().__init__()
        self.up = False

    def private_chat(self, table: LiveTable, seat: int) -> str | None:
        return super().private_chat(table, seat) if self.up else None


async def test_resumed_redraws_the_hand_of_the_seat_to_act_after_early_computer_moves(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path, "tarneeb_solo", humans=1) as run:
        await run.manager.settle()
        table = run.table
        assert table.match is not None and table.match.to_act == [0]
        # The standby's own presenter and outbox, over a platform not started yet.
        recorder = Recorder(run.time)
        outbox = Outbox(recorder, clock=run.time, sleep=run.time.sleep)
        surface = Starting()
        standby = Presenter(outbox, surface, clock=run.time)
        try:
            # The computers' moves replayed at load reach the presenter before the
            # platform is up: the seat to act is noted, but no hand can be drawn.
            standby.present(table, [{"type": "play", "seat": 3, "card": "2C"}])
            surface.up = True  # the platform started: the contacts are known
            standby.present(table, [{"type": "resumed"}])
            await outbox.flush()
        finally:
            await outbox.close()
        assert [w.chat for w in recorder.private()] == [PLAYERS[0].user_id]
