"""Who may watch a table (issue 32, item 5): a person seated plays; anyone else watches only
if they are a member of the table's chat. On Telegram that is asked with getChatMember
through the process's own PTB bot (here against the fake Bot API), remembered briefly; a
stranger is refused before they see anything, and nobody seated is asked about.

Measured before: a user in no group got another group's full table state, and at a third
group's lobby was offered "join" and was seated; the bot made no getChatMember call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from telegram import Bot

from bot.render.i18n import t
from bot.runner import _offer_web
from bot.tables.live import Place
from bot.telegram.app import build
from bot.telegram.members import MEMBER_SECONDS, STRANGER_SECONDS, TelegramMembers
from bot.web.socket import Visitor
from storage.database import Database
from tests.bot.support import until
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.web.support import GROUP, TOKEN, Page, Site, player, site

CHAT = int(GROUP.chat)
SEATED = [201, 202]
STRANGER = 777
WATCHER = 888


@pytest.fixture(autouse=True)
def _timedelta_periods(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # as production runs PTB


@pytest.fixture
async def telegram() -> AsyncIterator[FakeBotAPI]:
    fake = FakeBotAPI()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()


@pytest.fixture
async def run(tmp_path: Path, telegram: FakeBotAPI) -> AsyncIterator[Site]:
    """The web table with Telegram's own check wired, through a bot nobody initialized
    (as on a process that serves pages without the ``telegram`` role)."""
    bot = Bot(TOKEN, base_url=telegram.url)
    async with site(tmp_path) as served:
        served.web.gate.members["telegram"] = TelegramMembers(bot, clock=served.clock)
        try:
            yield served
        finally:
            await bot.shutdown()


def asked(fake: FakeBotAPI) -> list[int]:
    """The users getChatMember was asked about, in order."""
    return [int(call.params["user_id"]) for call in fake.calls if call.method == "getChatMember"]


async def refused(page: Page) -> dict[str, Any]:
    """The page's only frame: a fatal refusal; then the socket closes (no state came)."""
    frame = await page.frame()
    assert frame["type"] == "error" and frame["fatal"] is True, frame
    with pytest.raises(ConnectionError):
        await page.frame()
    return frame


async def test_a_stranger_is_refused_with_not_member_and_sees_nothing(
    run: Site, telegram: FakeBotAPI
) -> None:
    table = await run.table(SEATED)
    telegram.members[CHAT, STRANGER] = "left"
    page = await run.open({"init_data": run.launch(STRANGER, table.id)})
    frame = await refused(page)
    assert frame["code"] == "not_member"
    assert frame["message"] == t("ar", "web_denied_not_member")  # a new page speaks Arabic
    assert asked(telegram) == [STRANGER]
    methods = [call.method for call in telegram.calls]
    assert methods == ["getMe", "getChatMember"]  # the uninitialized bot was made ready


@pytest.mark.parametrize(
    "status", ["left", "kicked", "restricted_left", "not_found", "bot_not_in_chat"]
)
async def test_who_is_not_in_the_group_is_refused(
    run: Site, telegram: FakeBotAPI, status: str
) -> None:
    table = await run.table(SEATED)
    telegram.members[CHAT, STRANGER] = status
    page = await run.open({"init_data": run.launch(STRANGER, table.id)})
    assert (await refused(page))["code"] == "not_member"


@pytest.mark.parametrize("status", ["member", "administrator", "creator", "restricted"])
async def test_a_member_of_the_group_who_is_not_seated_watches(
    run: Site, telegram: FakeBotAPI, status: str
) -> None:
    table = await run.table(SEATED)
    telegram.members[CHAT, WATCHER] = status
    page = await run.open({"init_data": run.launch(WATCHER, table.id)})
    assert (await page.until("welcome"))["seat"] is None
    state = await page.state()
    assert state["you"] is None and state["hand"] == [] and state["decisions"] == []
    assert asked(telegram) == [WATCHER]


async def test_a_seated_player_is_never_asked_about(run: Site, telegram: FakeBotAPI) -> None:
    table = await run.table(SEATED)
    for seat, user in enumerate(SEATED):
        page = await run.open({"init_data": run.launch(user, table.id)})
        assert (await page.until("welcome"))["seat"] == seat
        await page.until("state")
        await page.ws.close()
    assert asked(telegram) == []


async def test_a_stranger_at_a_lobby_is_refused_before_being_offered_a_seat(
    run: Site, telegram: FakeBotAPI
) -> None:
    lobby = await run.manager.create(GROUP, player(201, "P201"), {"variant": "syrian41"})
    telegram.members[CHAT, STRANGER] = "left"
    page = await run.open({"init_data": run.launch(STRANGER, lobby.id)})
    assert (await refused(page))["code"] == "not_member"
    assert lobby.seat_of(str(STRANGER)) is None and len(lobby.free_seats()) == 3
    page = await run.open({"init_data": run.launch(WATCHER, lobby.id)})
    await page.until("welcome")
    commands = [entry["command"] for entry in (await page.state())["commands"]]
    assert "join" in commands  # a member of the group may sit down


async def test_answers_are_remembered_briefly(run: Site, telegram: FakeBotAPI) -> None:
    table = await run.table(SEATED)
    for _ in range(3):  # a member's reconnects: one question
        page = await run.open({"init_data": run.launch(WATCHER, table.id)})
        await page.until("state")
        await page.ws.close()
    assert asked(telegram) == [WATCHER]
    telegram.members[CHAT, STRANGER] = "left"
    page = await run.open({"init_data": run.launch(STRANGER, table.id)})
    assert (await refused(page))["code"] == "not_member"
    del telegram.members[CHAT, STRANGER]  # they join the group
    page = await run.open({"init_data": run.launch(STRANGER, table.id)})
    assert (await refused(page))["code"] == "not_member"  # the refusal is remembered…
    assert asked(telegram) == [WATCHER, STRANGER]
    run.clock.now += STRANGER_SECONDS + 1  # …briefly
    page = await run.open({"init_data": run.launch(STRANGER, table.id)})
    assert (await page.until("welcome"))["seat"] is None
    telegram.members[CHAT, WATCHER] = "kicked"  # removed from the group
    run.clock.now += MEMBER_SECONDS - STRANGER_SECONDS
    page = await run.open({"init_data": run.launch(WATCHER, table.id)})
    assert (await refused(page))["code"] == "not_member"
    assert asked(telegram) == [WATCHER, STRANGER, STRANGER, WATCHER]


async def test_a_session_is_asked_about_too(run: Site, telegram: FakeBotAPI) -> None:
    """A watcher's session outlives their membership only as long as the answer is kept."""
    table = await run.table(SEATED)
    page = await run.open({"init_data": run.launch(WATCHER, table.id)})
    session = (await page.until("welcome"))["session"]
    await page.ws.close()
    telegram.members[CHAT, WATCHER] = "left"
    run.clock.now += MEMBER_SECONDS + 1
    page = await run.open({"session": session})
    assert (await refused(page))["code"] == "not_member"


async def test_a_telegram_table_with_no_check_wired_is_not_watched(run: Site) -> None:
    table = await run.table(SEATED)
    del run.web.gate.members["telegram"]
    page = await run.open({"init_data": run.launch(WATCHER, table.id)})
    assert (await refused(page))["code"] == "not_member"
    page = await run.open({"init_data": run.launch(SEATED[0], table.id)})
    assert (await page.until("welcome"))["seat"] == 0  # the players still play


async def test_the_terminal_s_own_table_needs_no_check(run: Site) -> None:
    """``sahra play --web``: served on 127.0.0.1 to the terminal's player alone."""
    place = Place("console", "you", "syrian41")
    table = await run.manager.create(place, player(1, "You"), {"variant": "syrian41"})
    visitor = Visitor("console", "2", "Someone", "en", table.id)
    page = await run.open({"session": run.web.gate.session(visitor, table.id)})
    assert (await page.until("welcome"))["seat"] is None


async def test_the_runner_wires_the_process_s_own_bot(
    run: Site, telegram: FakeBotAPI, tmp_path: Path
) -> None:
    async with Database.open(tmp_path / "bot.sqlite") as db:
        bot = build(TOKEN, db, api_url=telegram.url)
        settings: Any = SimpleNamespace(web_url="https://table.example.org", telegram_webapp=None)
        _offer_web(run.web, settings, [bot])
        members = run.web.gate.members["telegram"]
        assert isinstance(members, TelegramMembers) and members.bot is bot.application.bot
        await bot.application.shutdown()


async def test_one_question_for_many_pages_at_once_and_none_kept_when_unanswered(
    telegram: FakeBotAPI,
) -> None:
    """A reconnect storm asks once per person; Telegram's flood control refuses for now,
    and the next page asks again."""
    bot = Bot(TOKEN, base_url=telegram.url)
    members = TelegramMembers(bot)
    try:
        telegram.held["getChatMember"] = asyncio.Event()
        pages = [asyncio.create_task(members.is_member(GROUP, str(WATCHER))) for _ in range(5)]
        # The first page's question reached Telegram (held there): the others, started
        # before it, wait on that question.
        await until(lambda: asked(telegram) == [WATCHER], "the question held at Telegram")
        telegram.held.pop("getChatMember").set()
        assert await asyncio.gather(*pages) == [True] * 5
        assert asked(telegram) == [WATCHER]
        telegram.fail_next.append(("getChatMember", 1))  # 429: no answer to keep
        assert not await members.is_member(GROUP, str(STRANGER))
        assert await members.is_member(GROUP, str(STRANGER))
        assert asked(telegram) == [WATCHER, STRANGER, STRANGER]
        assert not await members.is_member(Place("telegram", "not-a-chat"), str(WATCHER))
    finally:
        await bot.shutdown()
