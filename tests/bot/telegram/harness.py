"""The real PTB Application polling the fake Bot API, over a real SQLite file; the outbox
runs on virtual time, so the group's 20-writes-a-minute budget costs no real seconds and
its writes can be counted by their (virtual) timestamps. A world with ``real_time`` runs
the outbox on the real clock instead, for a test that must watch one chat wait while
the others do not."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from bot.render.codes import decode
from bot.render.hand import DOUBLE_PICK
from bot.tables import LiveTable, Place
from bot.tables.computers import Computers
from bot.telegram.app import TelegramBot, build, start, stop
from engine.players import HeuristicPlayer
from tests.bot.support import PlatformWorld, eventually
from tests.bot.telegram.fake_api import FakeBotAPI, Message

GROUP = -100777


@dataclass
class World(PlatformWorld):
    fake: FakeBotAPI = field(default_factory=FakeBotAPI)
    bot: TelegramBot | None = None
    real_time: bool = False

    async def boot(self) -> TelegramBot:
        self.bot = build(
            "123:TEST",
            await self.open_db(),
            api_url=self.fake.url,
            outbox_clock=None if self.real_time else self.time,
            outbox_sleep=None if self.real_time else self.time.sleep,
            computers=Computers(),
            poll_timeout=1,
        )
        if self.real_time:  # real seconds: a short cadence keeps these tests quick
            self.bot.outbox.group_interval = 0.2
        self.watch_public()
        await start(self.bot, poll_timeout=1)
        return self.bot

    async def stop_bot(self) -> None:
        await stop(self.bot)

    async def deliver(self, update_id: int) -> None:
        """Wait until the bot has fetched, handled and settled one update."""
        assert self.bot is not None
        await eventually(lambda: self.fake.acked > update_id)
        await self.bot.application.update_queue.join()
        await self.settle()

    async def say(self, chat: int, user: int, text: str, thread: int | None = None) -> None:
        await self.deliver(self.fake.command(chat, user, text, thread=thread))

    async def press(self, user: int, message: Message, data: str) -> dict[str, object]:
        query_id, update_id = self.fake.press(user, message, data)
        await self.deliver(update_id)
        return await self.fake.answered(query_id)

    def table(self, thread: int | None = None, chat: int = GROUP) -> LiveTable:
        table = self.table_or_none(thread, chat)
        assert table is not None
        return table

    def table_or_none(self, thread: int | None = None, chat: int = GROUP) -> LiveTable | None:
        """The live table in that place, if there is one."""
        assert self.bot is not None
        return self.bot.manager.table_at(Place("telegram", str(chat), str(thread or "")))

    def assert_group_got_only_checked_screens(self) -> None:
        assert not self.leaks, self.leaks[0]
        for call in self.fake.writes_to(GROUP):
            assert self.watch is not None and call.params["text"] in self.watch.texts


def playable(message: Message) -> list[str]:
    """The callback data of the buttons a player may press now (no toggles, no noops)."""
    found = []
    for row in message.keyboard:
        for button in row:
            data = button.get("callback_data")
            decoded = decode(data) if data else None
            if decoded and decoded[2]["type"] not in ("noop", DOUBLE_PICK):
                found.append(data)
    return found


async def play_out(
    world: World, users: dict[int, int], rng: random.Random, stop_after: int | None = None
) -> int:
    """Press DM buttons for the human seats (``seat -> user id``) until the match ends (or
    ``stop_after`` presses); checks the group for hidden cards after every press."""
    table = world.table()
    presses = 0
    deadline = time.monotonic() + 240
    while table.status == "running" and (stop_after is None or presses < stop_after):
        assert time.monotonic() < deadline, "the match did not finish in time"
        assert not world.leaks, world.leaks[0]
        match = table.match
        assert match is not None
        humans = [seat for seat in match.to_act if seat in users]
        if not humans:
            await world.settle()
            await asyncio.sleep(0.01)
            continue
        seat = humans[0]
        user = users[seat]
        message = world.fake.latest_with_buttons(user)
        assert message is not None, "the player has no hand message"
        choices = playable(message)
        assert choices, f"no button to press in {message.text!r}"
        # The player presses what a sensible player would (random presses can keep a
        # Tarneeb 41 match going for ever: a team needs both partners above 0, T41.9);
        # that button must be among the ones in their private chat.
        wanted = HeuristicPlayer().decide(match.view(seat)) if rng.random() < 0.9 else None
        chosen = [data for data in choices if decode(data)[2] == wanted]  # type: ignore[index]
        before = table.seq
        answer = await world.press(user, message, chosen[0] if chosen else rng.choice(choices))
        assert "text" not in answer or not answer["text"], answer
        assert table.seq > before or match.phase == "doubling"
        presses += 1
    world.assert_group_got_only_checked_screens()
    return presses
