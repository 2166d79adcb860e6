"""The public watch the platform tests rely on (``tests/bot/support.py``) sees a hidden
card wherever a public screen could show it: in its text, on a button's label, in a screen
the outbox draws only when it writes it, and in a ``retire`` screen."""

from __future__ import annotations

from pathlib import Path

from bot.delivery import Outbox
from bot.render.i18n import card_label
from bot.render.model import Button, Screen
from bot.tables import InMemoryNotifier, Place, PlayerRef, TableManager
from storage.database import Database
from tests.bot.support import PublicWatch, hidden_cards

OWNER = PlayerRef(user_id="1", name="Ali", language="en")
CHAT = "-100"


class Written:
    def __init__(self) -> None:
        self.screens: list[Screen] = []

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        self.screens.append(screen)
        return str(len(self.screens))

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self.screens.append(screen)


async def test_a_hidden_card_in_a_label_or_a_retire_is_a_leak(
    tmp_path: Path,
) -> None:
    async with Database.open(tmp_path / "w.sqlite", synchronous="NORMAL") as db:
        manager = TableManager(db, InMemoryNotifier(), seed_source=lambda: 1)
        await manager.start()
        try:
            table = await manager.create(Place("test", CHAT), OWNER, {"variant": "syrian41"})
            for _ in range(3):
                await manager.add_computer(table.id, OWNER.user_id)
            await manager.begin(table.id, OWNER.user_id)
            assert table.match is not None
            hand = table.match.hand(table.seat_of(OWNER.user_id) or 0)
            # A card of Ali's only he may see (not the deal's public shown card, T41).
            secret = next(card_label(c) for c in hand if card_label(c) in hidden_cards(manager))
            sender = Written()
            outbox = Outbox(sender, ramp_up=False, group_interval=0, private_interval=0)
            watch = PublicWatch(CHAT, lambda: manager)
            watch.attach(outbox)
            clean = Screen("the table", ((Button("Show my hand", {"type": "hand"}, 1, 0),),))
            label = Screen("the table", ((Button(f"play {secret}", {"type": "x"}, 1, 0),),))
            outbox.show(CHAT, "clean", clean, group=True)
            outbox.show(CHAT, "label", label, group=True)
            outbox.post(CHAT, "clean", clean, group=True, retire=Screen(f"old: {secret}"))
            await outbox.flush()
            await outbox.close()
        finally:
            await manager.close()
    assert watch.checked == 4
    assert len(watch.leaks) == 2, watch.leaks
    assert all(secret in leak for leak in watch.leaks)
    assert any("play" in leak for leak in watch.leaks)
    assert any("old:" in leak for leak in watch.leaks)
