"""A Trix Complex contract played to its score by four browser pages on the real web table
(the application object over a real table manager): the contract is chosen, TX.7's
doubling window answered, every card tapped, and no page ever sent another seat's card."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.bot.web.pages import (
    caught_up,
    choice,
    hidden_cards_seen,
    launch_url,
    open_page,
    play_until,
    players_context,
)
from tests.bot.web.support import TOKEN, site
from tests.browser import chromium

HUMANS = [401, 402, 403, 404]
MARKUP = "<img src=x onerror=alert(1)>"  # a name is text: shown as typed, never run


async def test_four_pages_play_a_trix_complex_contract_by_clicking(tmp_path: Path) -> None:
    async with site(tmp_path) as run, chromium() as browser:
        run.clock.now = time.time()  # launch data is signed at the real time
        table = await run.table(HUMANS, "trix_complex", names={HUMANS[1]: MARKUP})
        context = await players_context(browser)
        dialogs: list[str] = []  # from the first page on: a name drawn at once runs at once

        async def dialog_opened(dialog: Any) -> None:
            dialogs.append(dialog.message)
            await dialog.dismiss()  # a dialog left open would hold its page up

        context.on("dialog", dialog_opened)
        players = [
            await open_page(context, launch_url(run.url, TOKEN, user, table.id), seat)
            for seat, user in enumerate(HUMANS)
        ]
        states = [await caught_up(player) for player in players]
        assert [state["you"] for state in states] == [player.seat for player in players]
        for player in players:
            await player.page.get_by_text(MARKUP).first.wait_for(timeout=5000)
            assert await player.page.locator("#table img").count() == 0
        assert any(choice(state) for state in states)
        seen_doubling: list[int] = []

        async def noted() -> None:
            seen_doubling.extend(p.seat for p in players if p.state().get("doubling"))

        def contract_scored() -> bool:
            return bool(players[0].state().get("sheet"))

        taps = await play_until(players, contract_scored, noted)
        assert taps >= 52
        assert seen_doubling  # the contract's TX.7 window was offered, and answered
        assert hidden_cards_seen(players, tmp_path / "web.sqlite", table.id) == []
        assert dialogs == []
        for player in players:
            assert player.frames.errors == []
