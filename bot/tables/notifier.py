"""How the manager tells the world: a platform-neutral interface and an in-memory one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.tables.live import LiveTable

Event = dict[str, Any]


class Results(Protocol):
    """Who counts what finished matches leave behind (the league, which sits above the
    manager: the runner hands it in)."""

    def finished(self) -> None:
        """A match finished, or the manager started: count whatever waits (in the
        background; never blocks the apply path)."""

    async def close(self) -> None:
        """Stop counting; what is not counted yet is counted at the next start."""


class Notifier(Protocol):
    async def publish(self, table: LiveTable, events: list[Event]) -> None:
        """Called after the events' action is committed, in order, once per change.

        Events carrying ``"to": seat`` are private to that seat; the rest are public.
        """


@dataclass
class InMemoryNotifier:
    """Records every publication (tests, benchmarks and the console)."""

    published: list[tuple[int, list[Event]]] = field(default_factory=list)

    async def publish(self, table: LiveTable, events: list[Event]) -> None:
        self.published.append((table.id, list(events)))

    def events(self, table_id: int | None = None) -> list[Event]:
        return [
            event
            for published_id, events in self.published
            if table_id is None or published_id == table_id
            for event in events
        ]
