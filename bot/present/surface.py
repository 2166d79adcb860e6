"""What a platform tells the presenter: where a table's screens go, and how it shows a
deadline. The presenter decides *what* changes; a surface only answers *where*."""

from __future__ import annotations

from typing import Protocol

from bot.render import Button, Screen, TimerStyle
from bot.tables.live import LiveTable


class Surface(Protocol):
    timer: TimerStyle  # the platform's way of showing a deadline (or no number at all)

    def private_chat(self, table: LiveTable, seat: int) -> str | None:
        """The chat the seat's private screen is pushed to, or None: the player has none
        the bot may write to (a DM not opened yet, or a platform that answers in place)."""

    def dm_pending(self, table: LiveTable, seat: int) -> bool:
        """The seat's player still has to open a private chat with the bot."""

    def decorate(self, table: LiveTable, screen: Screen, seat: int | None = None) -> Screen:
        """The group screen (or ``seat``'s private screen) with the platform's own widgets
        added: a deep link, the button that opens the web table."""

    def review(self, table: LiveTable, deal: int) -> Button | None:
        """The button on a deal's result that opens its replay on the web table (issue 35),
        or None where the web table is not served."""
