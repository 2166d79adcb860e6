"""Which seats of a table have a page open on another process (several processes on one
PostgreSQL database): the owner writes no per-move private hand for such a seat
(``bot/present``'s pages). Each process says on ``sahra_page`` which seats of the tables it
follows have a page, when that changes and again every ``PRESENCE_SECONDS``; the owner
forgets what a process has not said again within ``PRESENCE_EXPIRES`` (it died), and the
hands of those seats are brought up to date.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable

from storage.errors import StorageError
from storage.store import PAGE_CHANNEL, Store

log = logging.getLogger("sahra.web")

PRESENCE_SECONDS = 15.0  # a process says again which seats have a page here
PRESENCE_EXPIRES = 3 * PRESENCE_SECONDS  # unsaid for this long: those pages are gone
PRESENCE_PER_NOTIFY = 200  # tables in one presence message (NOTIFY's 8,000 bytes)


class Presence:
    def __init__(
        self,
        store: Store,
        process: str,
        owns: Callable[[int], bool],
        changed: Callable[[int], None],
    ) -> None:
        self.store = store
        self.process = process
        self.owns = owns
        self.changed = changed  # an owned table's seats on a page elsewhere changed
        # Owned tables' seats with a page on another process: table → process → (seats,
        # when last said).
        self._presence: dict[int, dict[str, tuple[frozenset[int], float]]] = {}
        self._said = 0.0  # when this process last said all its pages

    def due(self, now: float) -> bool:
        """Whether it is time to say every page again (and forget the silent)."""
        if now - self._said < PRESENCE_SECONDS:
            return False
        self._said = now
        return True

    async def say(self, pages: dict[int, frozenset[int]]) -> None:
        """Tell every process which seats of these tables have a page here."""
        items = list(pages.items())
        try:
            for start in range(0, len(items), PRESENCE_PER_NOTIFY):
                chunk = {
                    str(t): sorted(seats)
                    for t, seats in items[start : start + PRESENCE_PER_NOTIFY]
                }
                message = {"from": self.process, "pages": chunk}
                await self.store.notify(PAGE_CHANNEL, json.dumps(message))
        except StorageError as error:  # said again at the next round
            log.warning("event=presence_failed error=%s", type(error).__name__)

    def heard(self, source: str, pages: dict[str, list[int]]) -> None:
        now = time.monotonic()
        for key, seats in pages.items():
            if not key.isdigit() or not self.owns(int(key)):
                continue
            table_id = int(key)
            before = self.seats_elsewhere(table_id)
            said = self._presence.setdefault(table_id, {})
            said[source] = (frozenset(s for s in seats if isinstance(s, int)), now)
            if self.seats_elsewhere(table_id) != before:
                self.changed(table_id)

    def expire(self, now: float) -> None:
        """Forget the pages of processes that stopped saying them (and of tables this
        process no longer owns); their seats' hands are brought up to date."""
        for table_id, said in list(self._presence.items()):
            before = self.seats_elsewhere(table_id)
            for source, (_, at) in list(said.items()):
                if now - at > PRESENCE_EXPIRES:
                    del said[source]
            if not said or not self.owns(table_id):
                del self._presence[table_id]
            if self.owns(table_id) and self.seats_elsewhere(table_id) != before:
                self.changed(table_id)

    def last_heard(self, table_id: int, process: str) -> float | None:
        """When ``process`` last said its pages of ``table_id`` (monotonic seconds)."""
        said = self._presence.get(table_id, {}).get(process)
        return None if said is None else said[1]

    def seats_elsewhere(self, table_id: int) -> frozenset[int]:
        """The seats of ``table_id`` with a page open on another process."""
        said = self._presence.get(table_id, {})
        return frozenset(seat for seats, _ in said.values() for seat in seats)
