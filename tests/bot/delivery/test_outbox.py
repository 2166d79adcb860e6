"""The outbox coalesces, skips unchanged screens, keeps to the group, private and
bot-wide budgets at an even cadence (ramping up after a start), writes the most urgent
first, drops late or surplus replies, draws lazy screens when they are written, retires
old copies, waits out every "retry later" in that chat alone, retries network errors,
drops only what can never be written, never lets an unreachable chat hold anything up,
restarts a crashed worker (after a growing pause) with its chat's writes still pending,
tells its memory which messages it will edit (and is restored from it), and forgets idle
chats (virtual or simulated time)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Hashable
from dataclasses import dataclass, field

import pytest

from bot.delivery import (
    GROUP_INTERVAL,
    REPLY,
    RESULT,
    TABLE,
    Gone,
    Outbox,
    Refused,
    RetryLater,
    Transient,
    Unreachable,
)
from bot.render.model import Screen
from storage.errors import StorageError
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
    edited: list[tuple[str, str]] = field(default_factory=list)  # message, text
    failures: list[Exception | None] = field(default_factory=list)  # the next calls (None: ok)
    next_id: int = 0

    def _fail(self) -> None:
        if self.failures:
            failure = self.failures.pop(0)
            if failure is not None:
                raise failure

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        self._fail()
        self.next_id += 1
        self.sent.append((self.time.now, "send", chat, screen.text))
        return str(self.next_id)

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self._fail()
        self.sent.append((self.time.now, "edit", chat, screen.text))
        self.edited.append((message, screen.text))


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
    box, sender, time = outbox(group_interval=0, ramp_up=False)  # the window check alone
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
    box, sender, time = outbox(ramp_up=False)
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


async def test_a_failing_unreachable_report_is_logged_and_the_chat_s_next_write_still_goes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    reporting, stored = asyncio.Event(), asyncio.Event()

    async def report(chat: str) -> None:  # the storage behind the report is down
        reporting.set()
        await stored.wait()
        raise StorageError("OperationalError: database is locked")

    box, sender, _ = outbox(on_unreachable=report)
    sender.failures.append(Unreachable("403"))
    box.post("dm", "hand", Screen("your cards"), group=False)
    await reporting.wait()
    # The player opens the chat while the report is being stored: a new hand is queued,
    # and no later write comes to start another worker for it.
    box.post("dm", "hand", Screen("your new cards"), group=False)
    stored.set()
    with caplog.at_level(logging.ERROR, logger="sahra.outbox"):
        await box.flush()
    assert texts(sender) == ["your new cards"]
    failures = [r.getMessage() for r in caplog.records if "outbox_worker_failed" in r.getMessage()]
    assert len(failures) == 1 and "chat=dm failures=1" in failures[0]
    assert "error=StorageError where=test_outbox.py:" in failures[0]
    assert "locked" not in caplog.text  # its type and place, never its text


async def test_a_crashed_worker_pauses_then_sends_its_chat_s_pending_writes_in_order(
    caplog: pytest.LogCaptureFixture,
) -> None:
    time = VirtualTime()
    faults = [RuntimeError("bug")]

    async def sleep(seconds: float) -> None:  # the first pause between two writes crashes
        if faults:
            raise faults.pop()
        await time.sleep(seconds)

    sender = FakeSender(time)
    box = Outbox(sender, clock=time, sleep=sleep)
    for index in range(3):
        box.post("dm", ("reply", index), Screen(f"reply {index}"), group=False)
    with caplog.at_level(logging.ERROR, logger="sahra.outbox"):
        await box.flush()
    assert texts(sender) == ["reply 0", "reply 1", "reply 2"]
    # The crash came at t=0, before the second write's wait: the worker paused one backoff
    # (1 s) before it went on, then kept the private chat's one write a second.
    assert [at for at, *_ in sender.sent] == [0.0, 1.0, 2.0]
    assert caplog.text.count("event=outbox_worker_failed chat=dm") == 1


async def test_a_worker_that_keeps_crashing_is_restarted_ever_more_slowly() -> None:
    reported: list[float] = []

    async def report(chat: str) -> None:  # storage down, and the table keeps publishing
        reported.append(time.now)
        if len(reported) < 5:
            box.show("dm", "hand", Screen(f"hand {len(reported)}"), group=False)
        raise StorageError("down")

    box, sender, time = outbox(on_unreachable=report, max_backoff=4.0)
    sender.failures.extend([Unreachable("403")] * 5)
    box.show("dm", "hand", Screen("hand 0"), group=False)
    await box.flush()
    # Pauses of 1, 2, 4, 4 s between the crashes: doubling, capped, never a busy loop.
    assert reported == [0.0, 1.0, 3.0, 7.0, 11.0]
    assert sender.sent == []


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
    box, sender, time = simulated(ramp_up=False)
    sender.failures.append(RetryLater(30))
    box.post("group", "table", Screen("slow group"), group=True)
    box.post("other", "table", Screen("other group"), group=True)
    box.post("dm", "hand", Screen("a hand"), group=False)
    await time.run(until=100)
    written = {text: at for at, _, _, text in sender.sent}
    assert written == {"other group": 0.0, "a hand": 0.0, "slow group": 30.0}


async def test_the_newest_screen_goes_when_the_wait_ends() -> None:
    box, sender, time = simulated(ramp_up=False)
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


# ---------------------------------------------------------------------- even pacing


async def test_group_writes_are_never_closer_than_the_group_interval() -> None:
    box, sender, _ = outbox(ramp_up=False)
    for index in range(12):
        box.post("group", ("sheet", index), Screen(f"sheet {index}"), group=True)
    await box.flush()
    assert len(sender.sent) == 12
    assert GROUP_INTERVAL == 3.5
    gap = box.min_gap("group")
    assert gap is not None and gap >= 3.5
    times = [at for at, *_ in sender.sent]
    assert all(b - a >= 3.5 for a, b in itertools.pairwise(times))


async def test_a_ten_minute_flood_of_shows_is_written_evenly_and_ends_on_the_newest() -> None:
    box, sender, time = simulated()
    shown: list[str] = []

    async def flood() -> None:
        for index in range(2400):  # a screen every quarter second for ten minutes
            text = f"state {index}"
            shown.append(text)
            box.show("group", "table", Screen(text), group=True)
            box.show("dm", "hand", Screen(text), group=False)
            await time.sleep(0.25)

    task = asyncio.create_task(flood())
    await time.run(until=700)
    await task
    gap = box.min_gap("group")
    assert gap is not None and gap >= 3.5
    assert box.writes_in_window("group") < 20  # 18 at most: never a burst up to the limit
    group = [(at, text) for at, _, chat, text in sender.sent if chat == "group"]
    assert len(group) >= 600 // 3.5 - 2  # an even cadence: the whole budget, spent steadily
    assert group[-1][1] == shown[-1]  # the newest screen always reaches the chat
    private = [at for at, _, chat, _ in sender.sent if chat == "dm"]
    assert all(b - a >= 1.0 for a, b in itertools.pairwise(private))


async def test_a_group_s_first_write_after_a_start_waits_one_interval() -> None:
    box, sender, time = simulated()
    assert box.started == 0.0
    box.post("group", "table", Screen("table"), group=True)
    box.post("dm", "hand", Screen("hand"), group=False)
    await time.run(until=10)
    await box.flush()
    written = {chat: at for at, _, chat, _ in sender.sent}
    assert written == {"dm": 0.0, "group": 3.5}  # private chats keep their own pacing


async def test_the_ramp_up_counts_from_when_the_outbox_was_made() -> None:
    time = VirtualTime(now=100.0)
    sender = FakeSender(time)
    box = Outbox(sender, clock=time, sleep=time.sleep)
    time.now = 102.0
    box.post("group", "table", Screen("table"), group=True)
    await box.flush()
    assert [at for at, *_ in sender.sent] == [103.5]
    time.now = 500.0
    box.post("other", "table", Screen("table"), group=True)  # long after the start
    await box.flush()
    assert sender.sent[-1][0] == 500.0


async def test_without_ramp_up_a_group_s_first_write_goes_at_once() -> None:
    box, sender, _ = outbox(ramp_up=False)
    box.post("group", "table", Screen("table"), group=True)
    await box.flush()
    assert [at for at, *_ in sender.sent] == [0.0]


# ---------------------------------------------------------------------- priorities


def texts(sender: FakeSender, chat: str | None = None) -> list[str]:
    return [text for _, _, target, text in sender.sent if chat is None or target == chat]


async def test_a_result_goes_before_a_table_and_a_table_before_a_reply() -> None:
    box, sender, _ = outbox()
    box.post("group", ("reply", 1), Screen("reply"), group=True, keep=False, priority=REPLY)
    box.show("group", "table", Screen("table"), group=True)  # TABLE is the default
    box.post("group", ("sheet", 1), Screen("result"), group=True, keep=False, priority=RESULT)
    await box.flush()
    assert (RESULT, TABLE, REPLY) == (0, 1, 2)
    assert texts(sender) == ["result", "table", "reply"]


async def test_a_table_post_queued_after_a_result_goes_after_it() -> None:
    box, sender, _ = outbox()
    box.post("group", ("sheet", 1), Screen("deal 1 result"), group=True, priority=RESULT)
    box.post("group", ("table", 2), Screen("deal 2"), group=True)
    await box.flush()
    assert texts(sender) == ["deal 1 result", "deal 2"]


async def test_a_result_queued_later_overtakes_waiting_tables_and_replies() -> None:
    box, sender, time = simulated(ramp_up=False)
    box.show("group", "table", Screen("table 1"), group=True)
    box.post("group", ("reply", 1), Screen("reply"), group=True, keep=False, priority=REPLY)
    box.post("group", ("hand", 1), Screen("hand"), group=True)
    await time.run(until=1.0)  # the table went at 0; the others wait for 3.5
    box.post("group", ("sheet", 1), Screen("result"), group=True, keep=False, priority=RESULT)
    await time.run(until=100)
    assert texts(sender) == ["table 1", "result", "hand", "reply"]
    assert [at for at, *_ in sender.sent] == [0.0, 3.5, 7.0, 10.5]


async def test_coalescing_keeps_the_more_urgent_priority() -> None:
    box, sender, _ = outbox()
    box.show("group", "table", Screen("table"), group=True)
    box.show("group", "sheet", Screen("result"), group=True, priority=RESULT)
    box.show("group", "sheet", Screen("result, corrected"), group=True, priority=REPLY)
    await box.flush()
    assert texts(sender) == ["result, corrected", "table"]


async def test_a_retried_write_goes_first_among_its_priority_only() -> None:
    box, sender, time = simulated(group_interval=0, ramp_up=False)
    sender.failures.append(RetryLater(5))
    box.post("group", ("table", 1), Screen("table 1"), group=True)
    box.post("group", ("table", 2), Screen("table 2"), group=True)
    await time.run(until=1.0)
    box.post("group", ("sheet", 1), Screen("result"), group=True, keep=False, priority=RESULT)
    await time.run(until=100)
    assert texts(sender) == ["result", "table 1", "table 2"]


# ---------------------------------------------------------------------- replies


async def test_a_reply_that_waited_past_its_expiry_is_dropped_unsent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    box, sender, _ = outbox(ramp_up=False)
    box.show("group", "table", Screen("table"), group=True)
    box.post(
        "group", ("reply", 1), Screen("late"), group=True, keep=False, priority=REPLY, expires=2
    )
    box.post(
        "group",
        ("reply", 2),
        Screen("in time"),
        group=True,
        keep=False,
        priority=REPLY,
        expires=10,
    )
    with caplog.at_level(logging.INFO, logger="sahra.outbox"):
        await box.flush()
    assert texts(sender) == ["table", "in time"]  # the second write could go at 3.5 only
    assert [r.getMessage() for r in caplog.records if "expired" in r.getMessage()] == [
        "event=write_expired chat=group"
    ]


async def test_a_chat_keeps_at_most_three_replies_waiting() -> None:
    box, sender, _ = outbox()
    box.show("group", "table", Screen("table"), group=True)
    for index in range(5):
        box.post(
            "group",
            ("reply", index),
            Screen(f"reply {index}"),
            group=True,
            keep=False,
            priority=REPLY,
        )
    await box.flush()
    assert texts(sender) == ["table", "reply 2", "reply 3", "reply 4"]  # the oldest dropped


async def test_the_newest_coalesced_screen_and_callback_win() -> None:
    box, sender, _ = outbox()
    first: list[Screen] = []
    second: list[Screen] = []
    box.show("dm", "hand", Screen("old"), group=False, on_sent=first.append)
    box.show("dm", "hand", Screen("new"), group=False, on_sent=second.append)
    await box.flush()
    assert texts(sender) == ["new"]
    assert (first, second) == ([], [Screen("new")])


async def test_a_failing_callback_does_not_stop_the_chat(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(screen: Screen) -> None:
        raise RuntimeError("boom")

    box, sender, _ = outbox()
    box.post("dm", ("hand", 1), Screen("one"), group=False, on_sent=broken)
    box.post("dm", ("hand", 2), Screen("two"), group=False)
    with caplog.at_level(logging.INFO, logger="sahra.outbox"):
        await box.flush()
    assert texts(sender) == ["one", "two"]
    assert any("on_sent_failed" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------------- retiring


async def test_a_new_post_retires_the_key_s_old_copy() -> None:
    box, sender, _ = outbox()
    box.show("group", "hand", Screen("cards", ((),)), group=True)
    await box.flush()
    box.post("group", "hand", Screen("cards below"), group=True, retire=Screen("moved below"))
    await box.flush()
    assert [(op, text) for _, op, _, text in sender.sent] == [
        ("send", "cards"),
        ("send", "cards below"),
        ("edit", "moved below"),
    ]
    assert sender.edited == [("1", "moved below")]  # the old message, not the new one
    assert box.message_id("group", "hand") == "2"
    times = [at for at, *_ in sender.sent]
    assert all(b - a >= 3.5 for a, b in itertools.pairwise(times))  # it spends budget too


async def test_a_first_post_has_no_old_copy_to_retire() -> None:
    box, sender, _ = outbox()
    box.post("dm", "hand", Screen("cards"), group=False, retire=Screen("moved below"))
    await box.flush()
    assert texts(sender) == ["cards"]


async def test_a_retire_edit_that_fails_is_dropped_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    box, sender, _ = outbox()
    for failure in (Gone(), Refused("Bad Request: message can't be edited")):
        box.show("dm", "hand", Screen("cards"), group=False)
        await box.flush()
        sender.failures.extend([None, failure])  # the post goes, the retire edit fails
        box.post("dm", "hand", Screen("new cards"), group=False, retire=Screen("old"))
        with caplog.at_level(logging.INFO, logger="sahra.outbox"):
            await box.flush()
        box.show("dm", "hand", Screen("after"), group=False)
        await box.flush()
        assert texts(sender)[-2:] == ["new cards", "after"]
        sender.sent.clear()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


# ---------------------------------------------------------------------- memory


@dataclass
class FakeMemory:
    calls: list[tuple[object, ...]] = field(default_factory=list)
    failing: bool = False

    async def remember(self, chat: str, key: Hashable, message: str, group: bool) -> None:
        if self.failing:
            raise OSError("disk full")
        self.calls.append(("remember", chat, key, message, group))

    async def forget(self, chat: str, key: Hashable) -> None:
        if self.failing:
            raise OSError("disk full")
        self.calls.append(("forget", chat, key))


async def test_the_memory_is_told_of_new_messages_and_of_forgotten_ones() -> None:
    memory = FakeMemory()
    box, _sender, _ = outbox(memory=memory)
    box.show("group", ("table", 7), Screen("lobby"), group=True)
    box.post("group", ("sheet", 7), Screen("sheet"), group=True, keep=False)  # never edited
    await box.flush()
    box.show("group", ("table", 7), Screen("playing"), group=True)  # an edit: same message
    await box.flush()
    box.show("group", ("table", 7), Screen("result"), group=True, keep=False)  # its last
    await box.flush()
    assert memory.calls == [
        ("remember", "group", ("table", 7), "1", True),
        ("forget", "group", ("table", 7)),
    ]


async def test_a_vanished_message_is_forgotten_and_its_replacement_remembered() -> None:
    memory = FakeMemory()
    box, sender, _ = outbox(memory=memory)
    box.show("dm", "hand", Screen("one"), group=False)
    await box.flush()
    sender.failures.append(Gone())
    box.show("dm", "hand", Screen("two"), group=False)
    await box.flush()
    assert memory.calls == [
        ("remember", "dm", "hand", "1", False),
        ("forget", "dm", "hand"),
        ("remember", "dm", "hand", "2", False),
    ]


async def test_an_unreachable_chat_forgets_every_key() -> None:
    async def note(chat: str) -> None:
        pass

    memory = FakeMemory()
    box, sender, _ = outbox(memory=memory, on_unreachable=note)
    box.show("dm", "hand", Screen("cards"), group=False)
    box.show("dm", "notes", Screen("notes"), group=False)
    await box.flush()
    sender.failures.append(Unreachable("403"))
    box.show("dm", "hand", Screen("more"), group=False)
    await box.flush()
    assert sorted(c for c in memory.calls if c[0] == "forget") == [
        ("forget", "dm", "hand"),
        ("forget", "dm", "notes"),
    ]


async def test_a_dropped_last_write_forgets_its_message() -> None:
    memory = FakeMemory()
    box, sender, _ = outbox(memory=memory)
    box.show("dm", "hand", Screen("cards"), group=False)
    await box.flush()
    sender.failures.append(Refused("Bad Request"))
    box.show("dm", "hand", Screen("result"), group=False, keep=False)
    await box.flush()
    assert memory.calls[-1] == ("forget", "dm", "hand")
    assert box.message_id("dm", "hand") is None


async def test_memory_failures_are_logged_and_the_writes_go_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    box, sender, _ = outbox(memory=FakeMemory(failing=True))
    with caplog.at_level(logging.INFO, logger="sahra.outbox"):
        box.show("dm", "hand", Screen("secret cards"), group=False)
        box.show("dm", "other", Screen("more"), group=False)
        await box.flush()
    assert texts(sender) == ["secret cards", "more"]
    failed = [r.getMessage() for r in caplog.records if "memory_failed" in r.getMessage()]
    assert failed == [
        "event=memory_failed op=remember chat=dm key='hand' error=OSError",
        "event=memory_failed op=remember chat=dm key='other' error=OSError",
    ]
    assert not any("secret" in message for message in failed)


async def test_a_restored_message_is_edited_not_posted_again() -> None:
    memory = FakeMemory()
    box, sender, _ = outbox(memory=memory, ramp_up=False)
    box.restore([("group", ("table", 7), "41", True), ("dm", ("hand", 7), "42", False)])
    assert box.message_id("group", ("table", 7)) == "41"
    box.show("group", ("table", 7), Screen("the table"), group=True)
    box.show("dm", ("hand", 7), Screen("the hand"), group=False)
    await box.flush()
    assert sorted(sender.edited) == [("41", "the table"), ("42", "the hand")]
    assert [op for _, op, *_ in sender.sent] == ["edit", "edit"]
    assert memory.calls == []  # the same messages: nothing new to remember


async def test_a_restored_chat_is_forgotten_once_its_messages_are() -> None:
    box, _, time = outbox()
    box.restore([("group", ("table", 7), "41", True)])
    time.now += 3600
    assert box.tracked_chats() == 1  # its message may still be edited
    box.show("group", ("table", 7), Screen("stopped"), group=True, keep=False)
    await box.flush()
    time.now += 60
    assert box.tracked_chats() == 0
