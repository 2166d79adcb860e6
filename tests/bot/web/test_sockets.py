"""The web table's sockets through the real table manager: each seat sees only its own
cards, a move from a page is a press through the one apply path, refusals change nothing,
and bad launch data, bad frames, other sites and floods are turned away."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.tables.commands import Press
from bot.tables.live import LiveTable
from bot.web import server
from engine.players import HeuristicPlayer
from tests.bot.support import until
from tests.bot.web.support import CARD, Page, Site, player, site

HUMANS = [201, 202, 203, 204]


async def opened(run: Site, user: int, table: int) -> tuple[Page, dict[str, Any], dict[str, Any]]:
    page = await run.open({"init_data": run.launch(user, table)})
    welcome = await page.until("welcome")
    return page, welcome, await page.state()


async def test_each_page_is_seated_by_its_verified_user_and_holds_only_its_own_cards(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        match = table.match
        assert match is not None
        for seat, user in enumerate(HUMANS):
            page, welcome, state = await opened(run, user, table.id)
            assert welcome["seat"] == seat and state["you"] == seat
            assert sorted(card["card"] for card in state["hand"]) == sorted(match.hand(seat))
            others = {code for s in range(4) if s != seat for code in match.hand(s)}
            assert not others & set(CARD.findall(str(state).replace("'", '"')))
            await page.ws.close()


async def test_a_person_not_seated_watches_the_public_view(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS[:1])
        _page, welcome, state = await opened(run, 999, table.id)
        assert welcome["seat"] is None and state["you"] is None
        assert state["hand"] == [] and state["decisions"] == []
        assert state["seats"][0]["name"] == "P201"


async def test_a_move_from_the_page_is_applied_and_reaches_every_other_page(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        match = table.match
        assert match is not None
        pages = {seat: (await opened(run, user, table.id))[0] for seat, user in enumerate(HUMANS)}
        seat = match.to_act[0]
        action = match.legal_actions(seat)[0]
        version = table.seq
        await pages[seat].ws.send_json({"type": "move", "version": version, "action": action})
        for other in range(4):
            state = await pages[other].state()
            assert state["version"] == version + 1
        assert table.seq == version + 1


async def test_a_stale_move_is_refused_with_a_fresh_state_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        match = table.match
        assert match is not None
        seat = match.to_act[0]
        page, _, _ = await opened(run, HUMANS[seat], table.id)
        version = table.seq
        action = match.legal_actions(seat)[0]
        # A button drawn at another version than the table's (here, one that never was).
        await page.ws.send_json({"type": "move", "version": version + 1, "action": action})
        refused = await page.until("refused")
        assert refused["code"] == "stale" and refused["message"]
        assert (await page.state())["version"] == version
        assert table.seq == version
        await page.ws.send_json({"type": "move", "version": version, "action": action})
        assert (await page.state())["version"] == version + 1


@pytest.mark.parametrize(
    "hello",
    [
        {"init_data": "user=%7B%22id%22%3A201%7D&auth_date=1&hash=00"},  # forged
        {"init_data": "garbage"},
        {"link": "not-a-token"},
        {"session": "x.y"},
    ],
)
async def test_forged_launch_data_links_and_sessions_are_refused_with_a_message(
    tmp_path: Path, hello: dict[str, Any]
) -> None:
    async with site(tmp_path) as run:
        await run.table(HUMANS[:1])
        page = await run.open(hello)
        error = await page.until("error")
        assert error["fatal"] and error["message"]
        assert error["code"] in ("bad_launch", "bad_link", "bad_session")
        with pytest.raises(ConnectionError):
            await page.frame()


async def test_launch_data_for_another_bot_or_too_old_is_refused(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS[:1])
        for init_data in (
            run.launch(201, table.id, token="654321:another-bot"),
            run.launch(201, table.id, age=3 * 24 * 3600),
        ):
            page = await run.open({"init_data": init_data})
            assert (await page.until("error"))["code"] == "bad_launch"


async def test_the_session_resumes_the_same_seat_without_the_launch_data(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        page, welcome, _ = await opened(run, HUMANS[2], table.id)
        await page.ws.close()
        again = await run.open({"session": welcome["session"]})
        assert (await again.until("welcome"))["seat"] == 2
        assert (await again.state())["you"] == 2


async def test_garbage_frames_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        page, _, _ = await opened(run, HUMANS[0], table.id)
        version = table.seq
        for garbage in (
            "{",
            "[]",
            '{"type":"move"}',
            '{"type":"move","version":1,"action":{"type":"play","card":"ZZ"}}',
            "x" * 5000,
        ):
            await page.ws.send_str(garbage)
            error = await page.until("error")
            assert error["code"] == "bad_frame" and not error["fatal"]
        await page.ws.send_bytes(b"\x00\x01")
        assert (await page.until("error"))["code"] == "bad_frame"
        assert table.seq == version


async def test_a_socket_from_another_site_is_refused(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await run.open({"session": "x"}, Origin="https://evil.example")
        assert refused.value.status == 403


async def test_a_flood_from_one_page_is_cut_off(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        page, _, _ = await opened(run, HUMANS[0], table.id)
        for _ in range(200):
            await page.ws.send_json({"type": "ping"})
        codes = []
        with pytest.raises(ConnectionError):
            while True:
                frame = await page.frame()
                if frame["type"] == "error":
                    codes.append(frame["code"])
        assert codes == ["too_many"]


async def test_pages_are_told_of_moves_made_elsewhere(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        match = table.match
        assert match is not None
        watcher, _, before = await opened(run, 999, table.id)
        seat = match.to_act[0]
        await run.manager.press(
            Press(
                table_id=table.id,
                version=table.seq,
                action=match.legal_actions(seat)[0],
                player=player(HUMANS[seat], "x"),
            )
        )
        after = await watcher.state()
        assert after["version"] == before["version"] + 1 == table.seq
        # Told of the move, a watcher is still shown no card a hand hides.
        public = set(CARD.findall(json.dumps(match.view(None))))
        hidden = {code for s in range(4) for code in match.hand(s)} - public
        assert after["hand"] == [] and not hidden & set(CARD.findall(json.dumps(after)))


class Platform:
    """The table's platform as the router sees it: told which seats are on pages."""

    def __init__(self) -> None:
        self.told: list[frozenset[int]] = []

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        pass

    def pages_changed(self, table: LiveTable, seats: frozenset[int]) -> None:
        self.told.append(seats)


async def test_the_platform_is_told_which_seats_play_on_a_page_and_when_one_closes(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        platform = Platform()
        run.router.add("telegram", platform)
        table = await run.table(HUMANS)
        first, _, _ = await opened(run, HUMANS[0], table.id)
        watcher, _, _ = await opened(run, 999, table.id)
        second, _, _ = await opened(run, HUMANS[2], table.id)
        assert platform.told[-1] == {0, 2}
        await first.ws.close()
        await watcher.ws.close()
        await until(lambda: platform.told[-1] == {2}, "the closed pages told")
        await second.ws.close()


async def test_stopping_the_server_closes_every_page_at_once_as_going_away(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        pages = [(await opened(run, user, table.id))[0] for user in HUMANS[:2]]
        await asyncio.wait_for(run.web.stop(), 5)  # open pages do not hold the shutdown up
        for page in pages:
            message = await page.ws.receive(timeout=5)
            while message.type == aiohttp.WSMsgType.TEXT:  # states sent before the stop
                message = await page.ws.receive(timeout=5)
            assert message.type == aiohttp.WSMsgType.CLOSE
            assert message.data == aiohttp.WSCloseCode.GOING_AWAY


async def test_a_finished_match_offers_rematch_and_the_page_follows_to_the_new_table(
    tmp_path: Path,
) -> None:
    """The match result comes with **Rematch**; asking for it from the page opens the
    rematch at the same place and the page is moved to it, seated as before (TableManager
    deals it once every human seat is ready)."""
    async with site(tmp_path) as run:
        table = await run.table(HUMANS[:1], "tarneeb_solo")
        seat = table.seat_of(str(HUMANS[0]))
        assert seat is not None
        page, _, _ = await opened(run, HUMANS[0], table.id)
        while table.status == "running":
            match = table.match
            assert match is not None
            if seat in match.to_act:
                action = HeuristicPlayer().decide(match.view(seat))
                press = Press(
                    table_id=table.id, version=table.seq, action=action, player=player(201, "P201")
                )
                await run.manager.press(press)
            await run.manager.settle()
        state = await page.state()
        while state["version"] != table.seq:
            state = await page.state()
        assert state["result"] and state["result"]["text"]
        assert [c["command"] for c in state["commands"]] == ["rematch"]
        await page.ws.send_json({"type": "command", "command": "rematch"})
        state = await page.state()
        rematch = run.manager.table_at(table.place)
        assert rematch is not None and rematch.config.rematch_of == table.id
        assert state["table"] == rematch.id and state["you"] == seat
        # The only human asked: the computers are ready, so the rematch is dealt at once.
        assert rematch.status == "running"
        while not state["hand"]:  # the lobby's last state, then the deal's
            state = await page.state()
        assert state["table"] == rematch.id and len(state["hand"]) == 13


async def test_a_socket_that_never_says_hello_is_closed_with_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "HELLO_SECONDS", 0.2)
    async with site(tmp_path) as run:
        ws = await run.http.ws_connect(run.url + "/ws")
        error = await Page(ws).until("error", timeout=5)
        assert error["code"] == "no_hello" and not error["fatal"] and error["message"]
        assert (await ws.receive(5)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)


async def test_one_person_holds_at_most_eight_pages_and_a_ninth_closes_the_oldest(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        table = await run.table(HUMANS)
        pages = [
            (await opened(run, HUMANS[0], table.id))[0] for _ in range(server.PAGES_PER_PERSON)
        ]
        newest, _, _ = await opened(run, HUMANS[0], table.id)
        error = await pages[0].until("error")
        assert error["code"] == "too_many_pages" and error["fatal"]
        assert run.web.hub.sockets() == server.PAGES_PER_PERSON
        other, welcome, _ = await opened(run, HUMANS[1], table.id)  # others are not counted
        assert welcome["seat"] == 1
        await newest.ws.close()
        await other.ws.close()
