"""A state frame carries the public moves made since the state that page was sent before
(docs/web-protocol.md, "moves"): three computers answering at once reach a page as three
moves to show one by one, frames folded together lose none, and nothing private is a move."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.present.summary import table_info
from bot.render.moves import page_moves
from bot.tables.commands import Press
from bot.tables.pace import Pace
from bot.web.socket import PageSocket, Visitor
from tests.bot.support import until
from tests.bot.web.support import logged, player, site

HUMAN = 301


def chosen(state: dict[str, Any]) -> dict[str, Any] | None:
    """The page's first offer: a decision, else its first legal card."""
    if state["decisions"]:
        action: dict[str, Any] = state["decisions"][0]["action"]
        return action
    legal = [card["action"] for card in state["hand"] if card["legal"]]
    return legal[0] if legal else None


async def test_every_public_move_since_a_pages_last_state_reaches_it_in_order(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table([HUMAN])  # three computers answer each of the human's moves
        page = await run.open({"init_data": run.launch(HUMAN, table.id)})
        first = await page.until("state")
        assert first["moves"] == []  # a page's first state shows the table as it is
        start, shown, taps = first["state"]["version"], [], 0
        state = first["state"]
        while taps < 30 and table.status == "running":
            action = chosen(state)
            if action is None:
                frame = await page.until("state")
            else:
                await page.ws.send_json(
                    {"type": "move", "version": state["version"], "action": action}
                )
                taps += 1
                run.clock.now += 1  # a person's pace: the socket's allowance refills
                frame = await page.until("state")
            shown += frame["moves"]
            state = frame["state"]
        end = state["version"]
        expected = page_moves(table_info(table), logged_events(tmp_path, table.id, start, end))
        assert shown == expected
        kinds = {move["kind"] for move in shown}
        assert {"say", "play", "trick"} <= kinds
        assert all(move["kind"] != "play" or move["seat"] in range(4) for move in shown)


def logged_events(folder: Path, table_id: int, start: int, end: int) -> list[dict[str, Any]]:
    """The public events of the moves after ``start`` up to ``end``, from the log."""
    match, moves = logged(folder / "web.sqlite", table_id)
    events: list[dict[str, Any]] = []
    for move in moves:
        made = match.apply(move.seat, move.action)
        if start < move.seq <= end:
            events += [event for event in made if "to" not in event]
    return events


class HeldSocket(web.WebSocketResponse):
    """A page's socket whose writes wait until the test lets them through (a slow phone)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []
        self.through = asyncio.Event()

    async def send_str(self, data: str, compress: int | None = None) -> None:
        await self.through.wait()
        self.sent.append(data)


async def test_states_folded_together_still_carry_every_move_between(tmp_path: Path) -> None:
    humans = [HUMAN, 302, 303, 304]
    async with site(tmp_path) as run:
        table = await run.table(humans)
        match = table.match
        assert match is not None
        ws = HeldSocket()
        socket = PageSocket(ws, Visitor("telegram", str(HUMAN), "P301", "en", table.id))
        socket.language = "en"
        socket.start()
        run.web.hub.attach(socket, table)
        run.web.hub.push(table)  # its first state: on its way, held up
        await until(lambda: socket.written_seq == table.seq, "the first state taken up")
        made = []
        for _ in range(2):  # two moves while the page is slow: one state left to send
            seat = match.to_act[0]
            action = match.legal_actions(seat)[0]
            made.append((seat, action))
            await run.manager.press(
                Press(
                    table_id=table.id,
                    version=table.seq,
                    action=action,
                    player=player(humans[seat], f"P{humans[seat]}"),
                )
            )
        ws.through.set()
        await until(lambda: len(ws.sent) == 2, "the folded state written")
        frame = json.loads(ws.sent[1])
        assert frame["state"]["version"] == table.seq
        assert [(m["seat"], m["text"]) for m in frame["moves"]] == [
            (seat, f"Bid {action['value']}") for seat, action in made
        ]
        await socket.close()


async def test_a_seat_with_its_page_open_gets_the_presentation_back_on_its_clock(
    tmp_path: Path,
) -> None:
    async with site(tmp_path, pace=Pace()) as run:
        table = await run.table([HUMAN])
        page = await run.open({"init_data": run.launch(HUMAN, table.id)})
        state = (await page.until("state"))["state"]
        await until(lambda: table.paced_seats == frozenset({0}), "the seat noted on a page")
        while not state["your_turn"]:
            state = await page.state()
        run.clock.now += 1
        action, tapped = chosen(state), state["version"]
        await page.ws.send_json({"type": "move", "version": tapped, "action": action})
        while not (state["your_turn"] and state["version"] > tapped):
            state = await page.state()
        # The computers' answers take the page longer to show than the second that went by.
        assert table.shown_until > run.clock.now
        seconds = (
            table.config.bid_seconds if state["phase"] == "bidding" else table.config.turn_seconds
        )
        assert table.deadline == pytest.approx(table.shown_until + seconds)
