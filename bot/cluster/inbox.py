"""Updates that reached a process which does not own their table, carried through the
database to the process that does.

Telegram in webhook mode: a load balancer may hand any process any update; a process that
does not hold the ``telegram`` partition leaves it here. Discord: direct-message
interactions arrive on shard 0, whichever process runs it; one for a table of another
shard is left here for that shard's process. The owner is woken by PostgreSQL's NOTIFY
(and polls every second, so a lost listening connection only slows it), claims the rows
for its partitions with ``FOR UPDATE SKIP LOCKED`` (each row is taken by exactly one
claim, in the order it was left) and handles each as if it had received it itself. The
table's lock, the version a button was drawn for and the log's unique move numbers then
apply it at most once, in order.

A row older than ``MAX_AGE`` is dropped unhandled: nobody owned its partition for that
long, and a move pressed then would surprise the table now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.backoff import backoff
from bot.cluster.partitions import Ownership
from storage.errors import StorageError
from storage.records import InboxRow
from storage.store import INBOX_CHANNEL, Store

log = logging.getLogger("sahra.cluster")

POLL_SECONDS = 1.0  # how often an owner looks without being woken
MAX_AGE = 30.0  # seconds a forwarded update stays worth handling
CLAIM_BATCH = 100
# A page's move or command for a table of the target's partition (``bot/web/remote.py``),
# handled by the ``"page"`` handler whatever the platform.
PAGE = "page:"

Handler = Callable[[str], Awaitable[None]]


class Inbox:
    def __init__(
        self, store: Store, ownership: Ownership, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.ownership = ownership
        self.clock = clock
        # By platform ("telegram", "discord"), or "page" for the web table's requests:
        # handle one forwarded payload.
        self.handlers: dict[str, Handler] = {}
        self.forwarded = 0  # rows this process left for another (tests, logs)
        self.handled = 0  # rows this process claimed and handled
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stop_listening: Callable[[], Awaitable[None]] | None = None

    async def start(self) -> None:
        listen = getattr(self.store.db, "listen", None)
        if listen is not None:
            try:
                self._stop_listening = await listen(INBOX_CHANNEL, self._notified)
            except StorageError as error:  # polling still finds every row
                log.warning("event=inbox_listen_failed error=%s", type(error).__name__)
        self._task = asyncio.create_task(self._run(), name="sahra-inbox")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._stop_listening is not None:
            await self._stop_listening()
            self._stop_listening = None

    def wake(self) -> None:
        """Look now (this process has just taken a partition: rows may be waiting)."""
        self._wake.set()

    async def forward(self, target: str, payload: str) -> int:
        """Leave ``payload`` for the owner of ``target``; the row's id."""
        row_id = await self.store.forward(target, payload, self.clock())
        self.forwarded += 1
        log.info("event=forwarded target=%s row=%d", target, row_id)
        return row_id

    async def withdraw(self, row_id: int) -> bool:
        """Take back a row its owner has not claimed: True if it will never be handled."""
        return await self.store.withdraw(row_id)

    def _notified(self, target: str) -> None:
        if target in self.ownership.targets():
            self._wake.set()

    async def _run(self) -> None:
        """The supervised consumer: a failed claim is logged and tried again."""
        failures = 0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
            self._wake.clear()
            try:
                await self.drain()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as error:
                failures += 1
                log.error(
                    "event=inbox_failed failures=%d error=%s", failures, type(error).__name__
                )
                await asyncio.sleep(backoff(failures, 0.5, 10.0))

    async def drain(self) -> int:
        """Claim and handle every row waiting for this process's partitions."""
        handled = 0
        while True:
            targets = self.ownership.targets()
            rows = await self.store.claim(targets, CLAIM_BATCH) if targets else []
            for row in rows:
                await self._handle(row)
                handled += 1
            if len(rows) < CLAIM_BATCH:
                return handled

    async def _handle(self, row: InboxRow) -> None:
        age = self.clock() - row.at
        kind = "page" if row.payload.startswith(PAGE) else row.target.partition(":")[0]
        handler = self.handlers.get(kind)
        if handler is None or age > MAX_AGE:
            log.warning("event=forward_dropped target=%s row=%d age=%.1f", row.target, row.id, age)
            return
        try:
            await handler(row.payload)
            self.handled += 1
            log.info("event=forward_claimed target=%s row=%d age=%.3f", row.target, row.id, age)
        except Exception as error:  # one bad row must not stop the others
            log.error(
                "event=forward_failed target=%s row=%d error=%s",
                row.target,
                row.id,
                type(error).__name__,
            )
