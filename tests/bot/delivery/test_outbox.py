"""The outbox coalesces, skips unchanged screens, keeps to the group, private and
bot-wide budgets, waits out every "retry later" in that chat alone, retries network
errors, drops only what can never be written, never lets an unreachable chat hold
anything up, and forgets idle chats (virtual or simulated time)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from dataclasses import dataclass, field

import pytest

from bot.delivery import Gone, Outbox, Refused, RetryLater, Transient, Unreachable
from bot.render.model import Screen
from tests.bot.virtual_time import VirtualTime


@dataclass
class SimTime:
    """A clock whose sleeps really wait, until ``run`` moves time to the earliest waker:
    a chat paused for 30 s stays paused while the others write at t=0 (virtual time,
    where each sleep jumps the one shared clock, cannot show that)."""

    now: float = 0.0
    _sleepers: list[tuple[float, int, asyncio.Future[None]]] = field(default_factory=list)
    _order: itertools.count[int] = field(default_factory=itertools.count)

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._order), future))
        await future

    async def idle(self) -> None:
        for _ in range(20):  # let every runnable task reach its next sleep
            await asyncio.sleep(0)

    async def run(self, until: float) -> None:
        """Advance to ``until``, waking each sleeper at its time."""
        await self.idle()
        while self._sleepers and self._sleepers[0][0] <= until:
            wake, _, future = heapq.heappop(self._sleepers)
            self.now = wake
            future.set_result(None)
            await self.idle()
        self.now = until


@dataclass
class FakeSender:
    time: VirtualTime
    sent: list[tuple[float, str, str, str]] = field(default_factory=list)  # time, op, chat, text
    failures: list[Exception] = field(default_factory=list)  # raised by the next calls
    next_id: int = 0

    def _fail(self) -> None:
        if self.failures:
            raise self.failures.pop(0)

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        self._fail()
        self.next_id += 1
        self.sent.append((self.time.now, "send", chat, screen.text))
        return str(self.next_id)

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self._fail()
        self.sent.append((self.time.now, "edit", chat, screen.text))


def outbox(**kwargs: object) -> tuple[Outbox, FakeSender, VirtualTime]:
    time = VirtualTime()
    sender = FakeSender(time)
    box = Outbox(sender, clock=time, sleep=time.sleep, **kwargs)  # type: ignore[arg-type]
    return box, sender, time


def simulated(**kwargs: object) -> tuple[Outbox, FakeSender, SimTime]:
    time = SimTime()
    sender = FakeSender(time)  # type: ignore[arg-type]
    box = Outbox(sender, clock=time, sleep=time.sleep, **kwargs)  # type: ignore[arg-type]
    return box, sender, time


async def test_updates_of_one_message_coalesce_to_the_latest_screen() -> None:
    box, sender, _ = outbox()
    for index in range(100):
        box.show("group", "table", Screen(f"state {index}"), group=True)
    await box.flush()
    assert [text for *_, text in sender.sent] == ["state 99"]  # one write for 100 changes


async def test_an_unchanged_screen_is_not_written_again() -> None:
    box, sender, _ = outbox()
    box.show("dm", "hand", Screen("same"), group=False)
    await box.flush()
    box.show("dm", "hand", Screen("same"), group=False)
    await box.flush()
    assert len(sender.sent) == 1


async def test_a_group_never_gets_more_than_20_writes_a_minute() -> None:
    box, sender, time = outbox()
    for index in range(90):  # 90 score sheets that must all be delivered
        box.post("group", ("sheet", index), Screen(f"sheet {index}"), group=True)
        box.show("group", "table", Screen(f"table {index}"), group=True)
    await box.flush()
    sheets = [text for _, op, _, text in sender.sent if text.startswith("sheet")]
    assert sheets == [f"sheet {index}" for index in range(90)]
    assert box.writes_in_window("group") == 20
    times = [at for at, *_ in sender.sent]
    for start in times:
        assert sum(1 for at in times if start <= at < start + 60) <= 20
    assert time.now >= 60 * (len(sender.sent) // 20 - 1)


async def test_private_chats_are_paced_but_not_held_by_the_group_budget() -> None:
    box, sender, _ = outbox()
    for index in range(5):
        box.post("dm", ("hand", index), Screen(f"hand {index}"), group=False)
    await box.flush()
    times = [at for at, *_ in sender.sent]
    assert all(b - a >= 1.0 for a, b in itertools.pairwise(times))


async def test_retry_later_is_waited_out_and_the_write_is_made() -> None:
    box, sender, time = outbox()
    sender.failures.append(RetryLater(7))
    box.post("group", "table", Screen("hello"), group=True)
    await box.flush()
    assert [(at, op) for at, op, *_ in sender.sent] == [(7.0, "send")]
    assert time.now == 7.0


async def test_an_unreachable_chat_is_reported_and_its_writes_dropped() -> None:
    unreachable: list[str] = []

    async def note(chat: str) -> None:
        unreachable.append(chat)

    box, sender, _ = outbox(on_unreachable=note)
    sender.failures.append(Unreachable("403"))
    box.post("dm", "hand", Screen("your cards"), group=False)
    box.post("dm", "other", Screen("more"), group=False)
    box.post("group", "table", Screen("table"), group=True)
    await box.flush()
    assert unreachable == ["dm"]
    assert [(chat, text) for _, _, chat, text in sender.sent] == [("group", "table")]


async def test_a_vanished_message_is_posted_anew() -> None:
    box, sender, _ = outbox()
    box.show("group", "table", Screen("one"), group=True)
    await box.flush()
    sender.failures.append(Gone())
    box.show("group", "table", Screen("two"), group=True)
    await box.flush()
    assert [(op, text) for _, op, _, text in sender.sent] == [("send", "one"), ("send", "two")]
    assert box.message_id("group", "table") == "2"


async def test_a_message_never_edited_again_is_not_remembered() -> None:
    box, sender, _ = outbox()
    box.post("group", ("sheet", 1), Screen("deal 1"), group=True, keep=False)
    box.show("group", "table", Screen("playing"), group=True)
    await box.flush()
    assert box.message_id("group", ("sheet", 1)) is None
    assert box.message_id("group", "table") == "2"
    box.show("group", "table", Screen("the result"), group=True, keep=False)  # its last write
    await box.flush()
    assert box.message_id("group", "table") is None
    assert [(op, text) for _, op, _, text in sender.sent][-1] == ("edit", "the result")


async def test_a_retry_later_pauses_only_that_chat() -> None:
    box, sender, time = simulated()
    sender.failures.append(RetryLater(30))
    box.post("group", "table", Screen("slow group"), group=True)
    box.post("other", "table", Screen("other group"), group=True)
    box.post("dm", "hand", Screen("a hand"), group=False)
    await time.run(until=100)
    written = {text: at for at, _, _, text in sender.sent}
    assert written == {"other group": 0.0, "a hand": 0.0, "slow group": 30.0}


async def test_the_newest_screen_goes_when_the_wait_ends() -> None:
    box, sender, time = simulated()
    sender.failures.append(RetryLater(30))
    box.post("group", "table", Screen("deal 2 starts"), group=True)
    await time.run(until=10)
    box.show("group", "table", Screen("first card played"), group=True)
    box.show("group", "table", Screen("second card played"), group=True)
    await time.run(until=100)
    # The failed post never appeared: one new message, with the newest screen.
    assert [(at, op, text) for at, op, _, text in sender.sent] == [
        (30.0, "send", "second card played")
    ]


async def test_a_retry_later_keeps_the_chat_s_order() -> None:
    box, sender, time = simulated()
    sender.failures.append(RetryLater(5))
    box.post("group", ("sheet", 1), Screen("score sheet"), group=True, keep=False)
    box.post("group", "table", Screen("next deal"), group=True)
    await time.run(until=100)
    assert [text for *_, text in sender.sent] == ["score sheet", "next deal"]


async def test_every_retry_later_is_waited_out_and_nothing_is_dropped() -> None:
    box, sender, time = outbox()
    sender.failures.extend(RetryLater(3) for _ in range(12))  # the old outbox gave up at 5
    box.post("group", "table", Screen("hello"), group=True)
    await box.flush()
    assert [text for *_, text in sender.sent] == ["hello"]
    assert time.now >= 36


async def test_network_errors_are_retried_after_a_growing_capped_pause() -> None:
    box, sender, time = simulated(backoff=1.0, max_backoff=8.0)
    sender.failures.extend(Transient("timed out") for _ in range(6))
    box.post("dm", "hand", Screen("your cards"), group=False)
    await time.run(until=1000)
    # Pauses of 1, 2, 4, 8, 8, 8 s after the six failures.
    assert [(at, text) for at, _, _, text in sender.sent] == [(31.0, "your cards")]


async def test_a_refused_write_is_logged_once_and_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    box, sender, _ = outbox()
    sender.failures.append(Refused("Bad Request: message is too long"))
    box.post("group", ("reply", 1), Screen("x" * 5000), group=True, keep=False)
    box.post("group", "table", Screen("the table"), group=True)
    with caplog.at_level(logging.INFO, logger="sahra.outbox"):
        await box.flush()
    assert [text for *_, text in sender.sent] == ["the table"]
    refused = [r.getMessage() for r in caplog.records if "write_refused" in r.getMessage()]
    assert refused == ["event=write_refused chat=group error=Bad Request: message is too long"]


async def test_the_whole_bot_keeps_to_its_budget_across_chats() -> None:
    box, sender, _ = outbox()
    for index in range(100):  # a hundred players' hands at the same moment
        box.post(f"dm{index}", "hand", Screen(f"hand {index}"), group=False)
    await box.flush()
    times = sorted(at for at, *_ in sender.sent)
    assert len(times) == 100
    for start in times:
        assert sum(1 for at in times if start <= at < start + 1.0) <= 30
    assert times[-1] >= 3.0  # 100 writes at 30 a second take at least three seconds


async def test_an_outbox_without_a_bot_wide_budget_is_held_by_none() -> None:
    box, sender, _ = outbox(bot_limit=None)
    for index in range(100):
        box.post(f"dm{index}", "hand", Screen(f"hand {index}"), group=False)
    await box.flush()
    assert {at for at, *_ in sender.sent} == {0.0}


async def test_an_idle_chat_is_forgotten_once_its_budget_window_passes() -> None:
    box, _, time = outbox()
    box.post("group", ("reply", 1), Screen("a reply"), group=True, keep=False)
    box.post("dm", ("reply", 1), Screen("welcome"), group=False, keep=False)
    box.show("busy", "table", Screen("a live table"), group=True)  # will be edited again
    await box.flush()
    assert box.tracked_chats() == 3
    time.now += 1.0  # the private chat's spacing has passed, the groups' minute not yet
    assert box.tracked_chats() == 2
    time.now += 59.0
    assert box.tracked_chats() == 1  # the live table's message is still to be edited
    box.show("busy", "table", Screen("the result"), group=True, keep=False)  # its last
    await box.flush()
    time.now += 60.0
    assert box.tracked_chats() == 0
    assert box.message_id("busy", "table") is None


async def test_ten_thousand_short_tables_leave_no_chat_behind() -> None:
    box, _, time = outbox(bot_limit=None)
    for table in range(10_000):
        group, player = f"group{table % 500}", f"player{table}"
        box.show(group, ("table", table), Screen("lobby"), group=True)
        box.show(player, ("hand", table), Screen("cards"), group=False)
        box.show(group, ("table", table), Screen("result"), group=True, keep=False)
        box.show(player, ("hand", table), Screen("result"), group=False, keep=False)
        if table % 100 == 99:
            await box.flush()
    await box.flush()
    time.now += 24 * 3600
    assert box.tracked_chats() == 0


async def test_a_blocked_chat_keeps_no_message_to_edit() -> None:
    async def note(chat: str) -> None:
        pass

    box, sender, time = outbox(on_unreachable=note)
    box.show("dm", ("hand", 1), Screen("cards"), group=False)
    await box.flush()
    sender.failures.append(Unreachable("403: bot was blocked by the user"))
    box.show("dm", ("hand", 1), Screen("more cards"), group=False)
    await box.flush()
    time.now += 2
    assert box.message_id("dm", ("hand", 1)) is None
    assert box.tracked_chats() == 0
