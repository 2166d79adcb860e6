"""Timers that tell the truth: Discord's client counts the deadline down itself; on
Telegram no number is shown (one that never moves would lie)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.discord.notifier import relative_time
from tests.bot.present.support import Surface, running_table


async def test_discord_shows_the_deadline_as_a_timestamp_its_client_counts_down(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path, humans=4, surface=Surface(timer=relative_time)) as run:
        screen = run.presenter.group_screen(run.table)
        deadline = run.table.deadline
    assert deadline is not None
    assert f"<t:{int(deadline)}:R>" in screen.text


async def test_telegram_shows_no_countdown_number(tmp_path: Path) -> None:
    async with running_table(tmp_path, humans=4) as run:
        await run.outbox.flush()
        texts = [w.screen.text for w in run.recorder.writes]
    assert texts
    assert not any(re.search(r"\d+:\d\d", text) for text in texts)
    assert not any("left" in text for text in texts)
