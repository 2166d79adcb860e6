"""A deal's replay asked for on the page's socket (issue 35, items 1 and 5): given for a deal
that has ended, with every hand as dealt and its analysis, to a seat or a watcher of the
table; the deal being played, one to come, a stranger or garbage get a polite refusal
that names no card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.tables.commands import Press
from bot.tables.live import LiveTable
from engine.players import HeuristicPlayer
from engine.records import DealRecord
from tests.bot.web.pages import cards_named
from tests.bot.web.support import Page, Site, player, site

HUMAN = 301
WATCHER = 302


def tricks_taken(variant: str, deal: DealRecord) -> dict[str, Any]:
    """A small real analysis: the tricks each seat took."""
    taken = [0, 0, 0, 0]
    for trick in deal.tricks:
        taken[trick.winner] += 1
    return {"status": "done", "variant": variant, "tricks": taken}


async def finish_deal(run: Site, table: LiveTable) -> None:
    """The seated person plays (as a heuristic player would) until the deal being played
    has ended; the computers play their own turns."""
    match = table.match
    assert match is not None
    playing = match.deal_number
    while table.match is not None and table.match.deal_number == playing:
        match = table.match
        if 0 in match.to_act:
            action = HeuristicPlayer().decide(match.view(0))
            who = player(HUMAN, f"P{HUMAN}")
            press = Press(table_id=table.id, version=table.seq, action=action, player=who)
            await run.manager.press(press)
        await run.manager.settle()


async def asked(page: Page, deal: object) -> dict[str, Any]:
    await page.ws.send_json({"type": "replay", "deal": deal})
    while True:
        frame = await page.frame()
        if frame["type"] in ("replay", "refused", "error"):
            return frame


async def opened(run: Site, user: int, table: LiveTable) -> Page:
    page = await run.open({"init_data": run.launch(user, table.id)})
    await page.until("welcome")
    await page.state()
    return page


async def test_the_live_deal_is_refused_naming_no_card_and_an_ended_one_is_replayed(
    tmp_path: Path,
) -> None:
    async with site(tmp_path, analyse=tricks_taken) as run:
        table = await run.table([HUMAN])
        seated, watcher = await opened(run, HUMAN, table), await opened(run, WATCHER, table)
        for page in (seated, watcher):
            for deal in (1, 2, 99):  # the deal being played, the next one, one never dealt
                frame = await asked(page, deal)
                assert frame["type"] == "refused" and frame["code"] == "review_not_over"
                assert frame["message"] and cards_named(json.dumps(frame)) == set()
        await finish_deal(run, table)
        record = await run.web.replays.reviews.record(table.id)
        assert record is not None
        while not record.deals[-1].scored:  # cancelled and redealt (T41.6): play on
            await finish_deal(run, table)
            record = await run.web.replays.reviews.record(table.id)
            assert record is not None
        dealt = record.deals[-1]
        state = await watcher.state()
        while state["version"] != table.seq:
            state = await watcher.state()
        assert state["reviewable"] == [deal.number for deal in record.deals]
        frame = await asked(watcher, dealt.number)
        assert frame["type"] == "replay"
        replay = frame["deal"]
        assert replay["deal"] == dealt.number and replay["table"] == table.id
        for seat in range(4):
            assert sorted(c["card"] for c in replay["hands"][seat]) == sorted(dealt.hands[seat])
        assert [p["card"] for p in replay["plays"]] == list(dealt.played)
        assert replay["result"] == state["deal_result"]  # the card the table showed
        assert replay["analysis"] == tricks_taken(table.variant, dealt)
        assert sum(replay["analysis"]["tricks"]) == 13
        # The deal now being played stays hidden.
        frame = await asked(seated, dealt.number + 1)
        assert frame["type"] == "refused" and cards_named(json.dumps(frame)) == set()


async def test_a_watcher_the_group_no_longer_vouches_for_gets_no_replay(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        table = await run.table([HUMAN])
        watcher = await opened(run, WATCHER, table)
        await finish_deal(run, table)
        run.members.strangers.add(str(WATCHER))  # left the group after opening the page
        frame = await asked(watcher, 1)
        assert frame["type"] == "refused" and frame["code"] == "not_member"
        assert cards_named(json.dumps(frame)) == set()
        run.members.strangers.clear()  # back in the group: and no analysis is wired here
        frame = await asked(watcher, 1)
        assert frame["type"] == "replay" and frame["deal"]["analysis"] == {"status": "none"}


async def test_a_replay_frame_that_is_not_a_deal_number_is_a_bad_frame(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        table = await run.table([HUMAN])
        page = await opened(run, HUMAN, table)
        for deal in ("1", 0, -3, 1.5, None, [1]):
            frame = await asked(page, deal)
            assert frame["type"] == "error" and frame["code"] == "bad_frame"
        await page.ws.send_json({"type": "replay", "deal": 1, "seat": 2})
        assert (await page.until("error"))["code"] == "bad_frame"
