"""Every deal's end is posted in the group on both platforms: its scores, or — when the
bids were too low (T41.6) — that it was cancelled and why."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.discord.notifier import DiscordNotifier
from bot.render.model import Screen
from bot.tables import Place, PlayerRef, Press, TableManager
from bot.tables.notifier import Notifier
from bot.telegram.notifier import TelegramNotifier
from storage.database import Database
from tests.bot.virtual_time import VirtualTime

PLAYERS = [PlayerRef(user_id=str(100 + i), name=f"P{i}", language="en") for i in range(4)]


class Recorder:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.ids = itertools.count(1)

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        self.sent.append((chat, screen.text))
        return str(next(self.ids))

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self.sent.append((chat, screen.text))  # a deal's table message becomes its sheet


@pytest.mark.parametrize("platform", ["telegram", "discord"])
async def test_a_cancelled_deal_is_posted_with_its_reason(tmp_path: Path, platform: str) -> None:
    sender = Recorder()
    time = VirtualTime()
    async with Database.open(tmp_path / "s.sqlite", synchronous="NORMAL") as db:
        outbox = Outbox(sender, clock=time, sleep=time.sleep)
        notifier: Notifier
        if platform == "telegram":
            notifier = TelegramNotifier(outbox, Contacts(db, platform), lambda: "sahra_bot")
        else:
            notifier = DiscordNotifier(outbox)
        manager = TableManager(db, notifier)
        await manager.start()
        table = await manager.create(
            Place(platform, "-5"), PLAYERS[0], {"variant": "syrian41", "language": "en"}
        )
        for player in PLAYERS[1:]:
            await manager.join(table.id, player)
        await manager.begin(table.id, PLAYERS[0].user_id)
        assert table.match is not None
        for _ in range(4):  # everyone bids 2: 8 in all, under T41.6's 11
            seat = table.match.to_act[0]
            action = {"type": "bid", "value": 2}
            await manager.press(
                Press(table_id=table.id, version=table.seq, action=action, player=PLAYERS[seat])
            )
        await outbox.flush()
        await manager.close()
        await outbox.close()
    group = [text for chat, text in sender.sent if chat == "-5"]
    assert any("Deal 1 cancelled: bids total 8, 11 needed." in text for text in group)
