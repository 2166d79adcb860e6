"""Pages of tables another process owns (several processes on one PostgreSQL database).

Behind a load balancer without sticky sessions a page's socket lands on any process, and
each process serves the pages that reach it:

- It follows the tables of its pages that it does not own. At every commit of a table a
  trigger sends the table's id on ``sahra_table`` (``storage/schema_pg.py``, 4); the
  process reads what is new (the row, the seats, the moves after the version it holds:
  ``Store.table_since``), carries its copy of the match forward by those moves and
  redraws the pages from each seat's own view, as the owner does. The copy is read from
  the database every process already shares (failover replays the same log); what leaves
  the process is each seat's own view, to that seat's socket. A NOTIFY lost with its
  connection costs at most ``POLL_SECONDS``.
- A move or command from such a page goes to the owner (``forwarded.py``).
- When this process becomes a table's owner (failover), the table's pages here move to
  the table it now holds.
- The owner writes no per-move private hand for a seat whose page is open on any process
  (``presence.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.backoff import backoff
from bot.cluster.inbox import Inbox
from bot.cluster.partitions import Ownership
from bot.logs import where
from bot.tables.live import LiveTable
from bot.tables.manager import TableManager
from bot.tables.recovery import RELOADED, followed
from bot.web.actions import Request
from bot.web.forwarded import Forwarded
from bot.web.hub import PageHub
from bot.web.presence import Presence
from bot.web.socket import PageSocket
from storage.errors import StorageError
from storage.records import StoredTable
from storage.store import PAGE_CHANNEL, TABLE_CHANNEL

log = logging.getLogger("sahra.web")

POLL_SECONDS = 5.0  # every followed table is read this often without a NOTIFY
READS_AT_ONCE = 32  # followed tables read concurrently after a burst of changes


class RemotePages:
    def __init__(
        self, manager: TableManager, hub: PageHub, inbox: Inbox, ownership: Ownership
    ) -> None:
        self.manager = manager
        self.store = manager.store
        self.hub = hub
        self.inbox = inbox
        self.ownership = ownership
        self.process = secrets.token_hex(8)  # where an owner's answers are addressed
        self.tables: dict[int, LiveTable] = {}  # followed: pages here, owner elsewhere
        self._changed: set[int] = set()
        self._wake = asyncio.Event()
        self._stops: list[Callable[[], Awaitable[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._working: set[asyncio.Task[None]] = set()  # presence being said
        self.requests = Forwarded(manager, inbox, ownership, self.process, self.owns)
        self.presence = Presence(
            self.store,
            self.process,
            self.owns,
            lambda table_id: hub.pages_changed(manager.table(table_id)),
        )

    async def start(self) -> None:
        listen = getattr(self.store.db, "listen", None)
        if listen is None:
            raise RuntimeError("pages on several processes need PostgreSQL")
        for channel, heard in (
            (TABLE_CHANNEL, self._table_changed),
            (PAGE_CHANNEL, self._answered),
        ):
            try:
                self._stops.append(await listen(channel, heard))
            except StorageError as error:  # pages are redrawn by polling; requests time out
                log.error("event=remote_listen_failed channel=%s error=%s", channel, error)
        self.inbox.handlers["page"] = self.requests.receive
        self.hub.on_empty = self._unfollow
        self.hub.elsewhere = self.presence.seats_elsewhere
        local = self.hub.on_pages

        def on_pages(table: LiveTable) -> None:
            if self.owns(table.id):
                if local is not None:
                    local(table)
            else:
                self._spawn(self.presence.say({table.id: self.hub.seats_on_page(table.id)}))

        self.hub.on_pages = on_pages
        self._task = asyncio.create_task(self._run(), name="sahra-remote-pages")

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._working.add(task)
        task.add_done_callback(self._working.discard)

    async def close(self) -> None:
        for task in [*self._working, *self.requests.working]:
            task.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for stop in self._stops:
            await stop()
        self._stops.clear()

    def owns(self, table_id: int) -> bool:
        return table_id in self.manager.registry

    async def table(self, table_id: int) -> LiveTable | None:
        """The table a page opens: the one this process owns, or a followed copy."""
        if self.owns(table_id):
            return self.manager.table(table_id)
        copy = self.tables.get(table_id)
        if copy is None:
            stored = await self.store.load_table(table_id)
            if stored is None:
                return None
            copy = self.tables.setdefault(table_id, followed(stored, None))
        return copy

    def _unfollow(self, table_id: int) -> None:
        """No page of the table is left here: stop following it."""
        self.tables.pop(table_id, None)

    async def follow(self, socket: PageSocket, table_id: int) -> None:
        """Move ``socket`` to ``table_id`` (a rematch it asked for, opened elsewhere)."""
        table = await self.table(table_id)
        if table is not None:
            self.hub.detach(socket)
            self.hub.attach(socket, table)
            self.hub.welcome(socket, table)

    # ---------------------------------------------------------------- following

    def _table_changed(self, payload: str) -> None:
        if payload.isdigit() and int(payload) in self.tables:
            self._changed.add(int(payload))
            self._wake.set()

    async def _run(self) -> None:
        """Supervised: a failed read is logged, and the table is read again later."""
        failures = 0
        while True:
            woken = True
            try:
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
            except TimeoutError:
                woken = False
            self._wake.clear()
            due = self._changed if woken else self._changed | set(self.tables)
            self._changed = set()
            now = time.monotonic()
            if self.presence.due(now):
                self.presence.expire(now)
                pages = {table_id: self.hub.seats_on_page(table_id) for table_id in self.tables}
                self._spawn(self.presence.say(pages))
            try:
                await self.refresh(sorted(due))
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as error:
                failures += 1
                self._changed |= due & set(self.tables)
                log.error("event=follow_failed failures=%d error=%s", failures, where(error))
                await asyncio.sleep(backoff(failures, 0.5, 10.0))

    async def refresh(self, table_ids: list[int]) -> None:
        for start in range(0, len(table_ids), READS_AT_ONCE):
            chunk = table_ids[start : start + READS_AT_ONCE]
            await asyncio.gather(*(self._refresh_one(table_id) for table_id in chunk))

    async def _refresh_one(self, table_id: int) -> None:
        """One table's read; a failure is logged and the table read again at the next
        wake or poll, without holding up the others."""
        try:
            await self._refresh(table_id)
        except Exception as error:
            if table_id in self.tables:
                self._changed.add(table_id)
            log.error("event=follow_failed table=%d where=%s", table_id, where(error))

    async def _refresh(self, table_id: int) -> None:
        copy = self.tables.get(table_id)
        if copy is None:
            return
        if self.owns(table_id):  # this process took the table over: its pages follow
            del self.tables[table_id]
            self.hub.adopt(self.manager.table(table_id))
            return
        since = copy.seq if copy.match is not None else 0
        stored = await self.store.table_since(table_id, since)
        if stored is None:
            return
        fresh = await self._carried(stored, copy if since else None)
        if _shown(fresh) == _shown(copy):
            return
        copy.config = fresh.config
        for name in RELOADED:
            setattr(copy, name, getattr(fresh, name))
        self.hub.push(copy)

    async def _carried(self, stored: StoredTable, copy: LiveTable | None) -> LiveTable:
        try:
            return followed(stored, copy)
        except (RuntimeError, ValueError):  # a gap (a log rewritten by a reload): read it all
            whole = await self.store.load_table(stored.table.id)
            assert whole is not None
            return followed(whole, None)

    async def carry(self, table: LiveTable, request: Request) -> int | None:
        """Have the owner of ``table`` carry ``request`` out (``forwarded.py``)."""
        return await self.requests.carry(table, request)

    def _answered(self, payload: str) -> None:
        """A message on ``sahra_page``: another process's pages, or an owner's answer."""
        try:
            got = json.loads(payload)
        except ValueError:
            return
        if not isinstance(got, dict):
            return
        if isinstance(got.get("pages"), dict):
            if got.get("from") != self.process:
                self.presence.heard(str(got.get("from")), got["pages"])
            return
        self.requests.answered(got)


def _shown(table: LiveTable) -> tuple[Any, ...]:
    """What a change must alter for the pages to be redrawn."""
    return (
        table.seq,
        table.lobby_version,
        table.status,
        table.seats,
        table.deadline,
        table.config,
    )
