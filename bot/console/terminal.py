"""The terminal as a chat for the shared presenter: every screen it sends is printed as it
is now, the public table whenever it changes, with no budget to keep."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from bot.delivery import Outbox
from bot.present import Presenter
from bot.render import Button, Screen, TimerStyle, no_timer
from bot.render.i18n import FSI, LRM, PDI
from bot.tables import LiveTable

# A terminal shows the text as it is: the direction marks meant for chat clients go.
_BIDI = str.maketrans("", "", FSI + PDI + LRM)


class ConsoleSender:
    """The terminal as a chat: every screen the presenter sends is printed as it is now."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.messages = 0

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        self.write("\n" + screen.text)
        self.messages += 1
        return str(self.messages)

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self.write("\n" + screen.text)


class ConsoleNotifier:
    """The console's side of the shared presenter: the public table is printed whenever
    it changes (the deal results included), and the player's hand at each prompt (the
    terminal answers in place, so no private screen is pushed)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        # No budget to keep in a terminal: every change is printed, in order.
        self.outbox = Outbox(
            ConsoleSender(self.write),
            group_interval=0.0,
            group_limit=1_000_000,
            private_interval=0.0,
            bot_limit=None,
            ramp_up=False,
        )
        self.timer: TimerStyle = no_timer  # no clock in a terminal: the turn timer is long
        self.presenter = Presenter(self.outbox, self)

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        self.presenter.present(table, events)

    def pages_changed(self, table: LiveTable, seats: frozenset[int]) -> None:
        self.presenter.pages_changed(table, seats)

    def private_chat(self, table: LiveTable, seat: int) -> str | None:
        return None

    def dm_pending(self, table: LiveTable, seat: int) -> bool:
        return False

    def review(self, table: LiveTable, deal: int) -> Button | None:
        return None  # the terminal's own page has the replay (``sahra play --web``)

    def decorate(self, table: LiveTable, screen: Screen, seat: int | None = None) -> Screen:
        return screen

    def write(self, text: str) -> None:
        print(text.translate(_BIDI), file=self.out, flush=True)

    def prompt(self, text: str) -> None:
        """The question before the player's answer, on the answer's line."""
        self.out.write(text.translate(_BIDI))
        self.out.flush()
