"""One table manager for every platform in the process: its events go to the notifier of
the platform the table lives on (``table.place.platform``)."""

from __future__ import annotations

from typing import Any

from bot.tables.live import LiveTable
from bot.tables.notifier import Notifier


class PlatformRouter:
    def __init__(self) -> None:
        self.notifiers: dict[str, Notifier] = {}

    def add(self, platform: str, notifier: Notifier) -> None:
        self.notifiers[platform] = notifier

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        notifier = self.notifiers.get(table.place.platform)
        if notifier is not None:
            await notifier.publish(table, events)
