"""Updates of different chats are handled at once, updates of one chat in order, and a
chat's lane is freed once it is idle: the processor alone, then the real bot while
Telegram is slow to answer one of its calls."""

from __future__ import annotations

import asyncio
import datetime as dtm
import random

from telegram import CallbackQuery, Chat, Message, Update, User

from bot.telegram.updates import ChatOrderedProcessor, lane_of
from tests.bot.support import eventually
from tests.bot.telegram.fake_api import Message as FakeMessage
from tests.bot.telegram.harness import GROUP, World

ALI, BADR, CARLA = 301, 302, 303
WHEN = dtm.datetime(2025, 1, 1, tzinfo=dtm.UTC)


def message_in(chat_id: int, update_id: int = 1) -> Update:
    chat = Chat(chat_id, Chat.PRIVATE if chat_id > 0 else Chat.SUPERGROUP)
    return Update(update_id, message=Message(update_id, WHEN, chat, text="/help"))


async def test_updates_of_different_chats_run_at_once() -> None:
    processor = ChatOrderedProcessor()
    release = asyncio.Event()
    done: list[int] = []

    async def slow() -> None:
        await release.wait()
        done.append(1)

    async def quick() -> None:
        done.append(2)

    first = asyncio.create_task(processor.process_update(message_in(1), slow()))
    await asyncio.wait_for(processor.process_update(message_in(2), quick()), timeout=1)
    assert done == [2]  # chat 2 did not wait for chat 1
    release.set()
    await first
    assert done == [2, 1]


async def test_updates_of_one_chat_run_one_at_a_time_in_arrival_order() -> None:
    processor = ChatOrderedProcessor()
    rng = random.Random(7)
    running: list[int] = []
    finished: list[int] = []

    async def handle(number: int) -> None:
        running.append(number)
        assert len(running) == 1, running  # never two of one chat at once
        await asyncio.sleep(rng.random() / 1000)
        running.remove(number)
        finished.append(number)

    await asyncio.gather(
        *(processor.process_update(message_in(GROUP, n), handle(n)) for n in range(60))
    )
    assert finished == list(range(60))


async def test_a_chat_s_lane_is_freed_when_it_is_idle() -> None:
    processor = ChatOrderedProcessor()

    async def nothing() -> None:
        await asyncio.sleep(0)

    await asyncio.gather(
        *(processor.process_update(message_in(-chat, chat), nothing()) for chat in range(5000))
    )
    assert processor.lanes() == 0


async def test_an_update_cancelled_while_waiting_leaves_no_lane_and_no_warning() -> None:
    processor = ChatOrderedProcessor()
    release = asyncio.Event()

    async def wait() -> None:
        await release.wait()

    async def never() -> None:
        raise AssertionError("a cancelled update must not run")

    first = asyncio.create_task(processor.process_update(message_in(5), wait()))
    second = asyncio.create_task(processor.process_update(message_in(5, 2), never()))
    # Cancelled only once it waits in the lane behind the first (running) update.
    await eventually(lambda: (lane := processor._lanes.get(5)) is not None and lane.updates == 2)
    assert not second.done()
    second.cancel()
    release.set()
    await first
    await asyncio.gather(second, return_exceptions=True)
    assert processor.lanes() == 0  # and "coroutine was never awaited" is an error here


def test_a_button_under_an_inline_message_takes_its_user_s_lane() -> None:
    user = User(ALI, "Ali", is_bot=False)
    inline = Update(
        9, callback_query=CallbackQuery("q", user, "sahra", inline_message_id="i", data="x")
    )
    assert lane_of(inline) == ALI == lane_of(message_in(ALI))
    assert lane_of(message_in(GROUP)) == GROUP
    assert lane_of(object()) is None


async def test_a_press_is_answered_while_another_chat_waits_on_telegram(world: World) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    table = world.table()
    world.fake.members[(GROUP, BADR)] = "administrator"
    held = world.fake.held["getChatMember"] = asyncio.Event()
    world.fake.command(GROUP, BADR, "/stop")  # waits on getChatMember
    try:
        await eventually(lambda: any(c.method == "getChatMember" for c in world.fake.calls))
        # The same group's next command waits its turn; another chat's press does not.
        joined = world.fake.command(GROUP, CARLA, "/join")
        stale = FakeMessage(CARLA, 1, "an old hand", [])
        query, _ = world.fake.press(CARLA, stale, "zz")
        answer = await world.fake.answered(query, timeout=5)
        assert answer.get("text")  # answered (an out-of-date button) while /stop waits
        assert table.status == "lobby" and table.seat_of(str(CARLA)) is None
    finally:
        held.set()
    await world.deliver(joined)
    # /join came after /stop in that group, so it found no table to join.
    assert table.status == "stopped" and table.seat_of(str(CARLA)) is None
    assert world.bot is not None
    processor = world.bot.application.update_processor
    assert isinstance(processor, ChatOrderedProcessor)
    await eventually(lambda: processor.lanes() == 0)
