"""What the presenter writes to: how urgent each write is, and the outbox it queues in.

Both are declared here, below delivery, because the presenter decides *what* changes and how
urgently, and the per-chat outbox (``bot.delivery.outbox.Outbox``, which satisfies
``Mailbox``) decides only *when* each write is spent."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol

from bot.render.model import Screen

# Priorities: the lowest goes first.
RESULT = 0  # a deal's or a match's result
TABLE = 1  # the table and the hands
REPLY = 2  # an answer to one player


class Mailbox(Protocol):
    def post(
        self,
        chat: str,
        key: Hashable,
        screen: Screen,
        *,
        group: bool,
        thread: str = "",
        keep: bool = True,
        priority: int = TABLE,
        expires: float | None = None,
        on_sent: Callable[[Screen], None] | None = None,
        retire: Screen | None = None,
    ) -> None: ...

    def show(
        self,
        chat: str,
        key: Hashable,
        screen: Screen,
        *,
        group: bool,
        thread: str = "",
        keep: bool = True,
        priority: int = TABLE,
        on_sent: Callable[[Screen], None] | None = None,
    ) -> None: ...

    def message_id(self, chat: str, key: Hashable) -> str | None: ...
