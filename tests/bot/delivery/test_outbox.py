"""The outbox coalesces, skips unchanged screens, keeps to the group budget, waits out
"retry later" and never lets an unreachable chat hold anything up (virtual time)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from bot.delivery import Gone, Outbox, RetryLater, Unreachable
from bot.render.model import Screen
from tests.bot.virtual_time import VirtualTime


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
