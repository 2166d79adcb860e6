"""One table manager for every platform in the process: its events go to the notifier of
the platform the table lives on (``table.place.platform``), then to every listener that
serves all platforms (the web table's pages). One failing never keeps the others from
hearing of a committed change."""

from __future__ import annotations

import logging
from typing import Any, Protocol, runtime_checkable

from bot.logs import where
from bot.tables.live import LiveTable
from bot.tables.notifier import Notifier

log = logging.getLogger("sahra.delivery")


@runtime_checkable
class Paged(Protocol):
    """A platform that draws fewer screens for seats playing on a web page."""

    def pages_changed(self, table: LiveTable, seats: frozenset[int]) -> None:
        """The seats of ``table`` with a page open now."""


class PlatformRouter:
    def __init__(self) -> None:
        self.notifiers: dict[str, Notifier] = {}
        self.listeners: list[Notifier] = []

    def add(self, platform: str, notifier: Notifier) -> None:
        self.notifiers[platform] = notifier

    def listen(self, listener: Notifier) -> None:
        self.listeners.append(listener)

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        notifier = self.notifiers.get(table.place.platform)
        for target in ([notifier] if notifier is not None else []) + self.listeners:
            try:
                await target.publish(table, events)
            except Exception as error:  # a committed move is never undone by a screen
                log.error(
                    "event=publish_failed table=%d error=%s where=%s",
                    table.id,
                    type(error).__name__,
                    where(error),
                )

    def pages_changed(self, table: LiveTable, seats: frozenset[int]) -> None:
        """Tell the table's platform which of its seats play on a web page now."""
        notifier = self.notifiers.get(table.place.platform)
        if isinstance(notifier, Paged):
            notifier.pages_changed(table, seats)
