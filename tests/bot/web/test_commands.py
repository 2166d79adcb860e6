"""A table command from a page carries the version it was offered at: two quick taps of
Add computer send two frames, and the second is refused as stale (one computer joins)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.web.support import GROUP, player, site

CREATOR = 901


async def test_two_quick_taps_of_add_computer_on_the_page_add_one_computer(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.manager.create(GROUP, player(CREATOR, "P901"), {"variant": "syrian41"})
        page = await run.open({"init_data": run.launch(CREATOR, table.id)})
        await page.until("welcome")
        state = await page.state()
        assert "add_computer" in [c["command"] for c in state["commands"]]
        tap = {"type": "command", "command": "add_computer", "version": state["version"]}
        await page.ws.send_json(tap)
        await page.ws.send_json(tap)  # the second tap, before the table answered
        refused = await page.until("refused")
        assert refused["code"] == "stale" and refused["message"]
        computers = [seat for seat in table.seats if seat is not None and seat.kind == "computer"]
        assert len(computers) == 1
        redrawn = await page.state()
        assert redrawn["version"] > state["version"]
        assert sum(seat["computer"] for seat in redrawn["seats"]) == 1
