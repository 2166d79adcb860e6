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
- A move or command from such a page goes to the owner through the inbox (the path a
  forwarded platform update takes), is carried out there by the one apply path
  (``actions.perform``), and the owner's answer comes back on ``sahra_page`` to the
  process that asked. Without an answer in ``ANSWER_SECONDS`` (no owner while a standby
  takes over) the request is withdrawn if it is still waiting and the page is asked to
  press again: a request is carried out at most once and never dropped unsaid.
- When this process becomes a table's owner (failover), the table's pages here move to
  the table it now holds.
- The owner writes no per-move private hand for a seat whose page is open on any process
  (``bot/present``'s pages): each process says on ``sahra_page`` which seats of the tables
  it follows have a page, when that changes and again every ``PRESENCE_SECONDS``; the
  owner forgets what a process has not said again within ``PRESENCE_EXPIRES`` (it died),
  and the hands of those seats are brought up to date.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.backoff import backoff
from bot.cluster.inbox import PAGE, Inbox
from bot.cluster.partitions import Ownership
from bot.logs import where
from bot.tables.errors import REFUSAL_CODES, Refusal
from bot.tables.live import LiveTable
from bot.tables.manager import TableManager
from bot.tables.recovery import RELOADED, followed
from bot.web.actions import Request, perform
from bot.web.hub import PageHub
from bot.web.socket import PageSocket
from storage.errors import StorageError
from storage.records import StoredTable
from storage.store import PAGE_CHANNEL, TABLE_CHANNEL

log = logging.getLogger("sahra.web")

POLL_SECONDS = 5.0  # every followed table is read this often without a NOTIFY
ANSWER_SECONDS = 10.0  # an owner's answer to a forwarded request comes within this
TAKEOVER_CHECK_SECONDS = 0.1  # a request waiting for an answer looks this often whether
# this process has become the table's owner (a takeover settles it at once)
OWN_ANSWER_SECONDS = 1.0  # the answer of this process's own inbox, after a takeover
READS_AT_ONCE = 32  # followed tables read concurrently after a burst of changes
PRESENCE_SECONDS = 15.0  # a process says again which seats have a page here
PRESENCE_EXPIRES = 3 * PRESENCE_SECONDS  # unsaid for this long: those pages are gone
PRESENCE_PER_NOTIFY = 200  # tables in one presence message (NOTIFY's 8,000 bytes)


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
        self._answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._numbers = itertools.count(1)
        self._stops: list[Callable[[], Awaitable[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._working: set[asyncio.Task[None]] = set()  # requests being carried out
        # Owned tables' seats with a page on another process: table → process → (seats,
        # when last said).
        self._presence: dict[int, dict[str, tuple[frozenset[int], float]]] = {}
        self._said = 0.0  # when this process last said all its pages

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
        self.inbox.handlers["page"] = self.receive
        self.hub.on_empty = self._unfollow
        self.hub.elsewhere = self.seats_elsewhere
        local = self.hub.on_pages

        def on_pages(table: LiveTable) -> None:
            if self.owns(table.id):
                if local is not None:
                    local(table)
            else:
                self._spawn(self._say({table.id: self.hub.seats_on_page(table.id)}))

        self.hub.on_pages = on_pages
        self._task = asyncio.create_task(self._run(), name="sahra-remote-pages")

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._working.add(task)
        task.add_done_callback(self._working.discard)

    async def close(self) -> None:
        for task in list(self._working):
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
            if now - self._said >= PRESENCE_SECONDS:
                self._said = now
                self._expire(now)
                pages = {table_id: self.hub.seats_on_page(table_id) for table_id in self.tables}
                self._spawn(self._say(pages))
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

    # ---------------------------------------------------------------- requests

    async def carry(self, table: LiveTable, request: Request) -> int | None:
        """Have the owner of ``table`` carry ``request`` out; its answer, as ``perform``
        gives it (a Refusal is raised here).

        The wait ends as soon as this process owns the table itself (it took the table
        over from an owner that died): a request still in the inbox is taken back and
        carried out here; one the dead owner had claimed may or may not have been applied,
        so it is refused as ``moving`` and the page sends it again (the version it was
        drawn at keeps a move from being applied twice)."""
        number = next(self._numbers)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[number] = answer
        payload = {"to": self.process, "n": number, "request": request.model_dump()}
        target = self.ownership.partition(table.place.platform, table.place.guild)
        try:
            try:
                row = await self.inbox.forward(target, PAGE + json.dumps(payload))
            except StorageError:
                raise Refusal("storage") from None
            got = await self._answer_to(answer, table.id, row, request)
        finally:
            self._answers.pop(number, None)
        if isinstance(got, Carried):
            return got.table
        code = got.get("code")
        if code is not None:
            raise Refusal(code if code in REFUSAL_CODES else "storage", detail=got.get("detail"))
        opened = got.get("table")
        return int(opened) if opened is not None else None

    async def _answer_to(
        self,
        answer: asyncio.Future[dict[str, Any]],
        table_id: int,
        row: int,
        request: Request,
    ) -> dict[str, Any] | Carried:
        """The owner's answer, or the request settled here once this process owns the
        table; ``Refusal("moving")`` when neither comes in time."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + ANSWER_SECONDS
        withdrawn_at_deadline = False
        while True:
            with contextlib.suppress(TimeoutError):
                return await asyncio.wait_for(asyncio.shield(answer), TAKEOVER_CHECK_SECONDS)
            if self.owns(table_id):
                if await self.inbox.withdraw(row):
                    log.info("event=page_request_taken_back table=%d", table_id)
                    return Carried(await perform(self.manager, request))
                # Claimed: by the owner that died, or by this process's own inbox since
                # it took the table over (its answer comes at once, or never).
                with contextlib.suppress(TimeoutError):
                    return await asyncio.wait_for(asyncio.shield(answer), OWN_ANSWER_SECONDS)
                log.warning("event=page_request_lost_owner table=%d", table_id)
                raise Refusal("moving")
            if loop.time() < give_up:
                continue
            if not withdrawn_at_deadline:
                withdrawn_at_deadline = True
                if await self.inbox.withdraw(row):
                    log.warning("event=page_request_unanswered table=%d", table_id)
                    raise Refusal("moving")
                give_up = loop.time() + ANSWER_SECONDS  # claimed: its answer is on the way
                continue
            raise Refusal("moving")

    # ---------------------------------------------------------------- presence

    async def _say(self, pages: dict[int, frozenset[int]]) -> None:
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

    def _heard(self, source: str, pages: dict[str, list[int]]) -> None:
        now = time.monotonic()
        for key, seats in pages.items():
            if not key.isdigit() or not self.owns(int(key)):
                continue
            table_id = int(key)
            before = self.seats_elsewhere(table_id)
            said = self._presence.setdefault(table_id, {})
            said[source] = (frozenset(s for s in seats if isinstance(s, int)), now)
            if self.seats_elsewhere(table_id) != before:
                self.hub.pages_changed(self.manager.table(table_id))

    def _expire(self, now: float) -> None:
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
                self.hub.pages_changed(self.manager.table(table_id))

    def seats_elsewhere(self, table_id: int) -> frozenset[int]:
        """The seats of ``table_id`` with a page open on another process."""
        said = self._presence.get(table_id, {})
        return frozenset(seat for seats, _ in said.values() for seat in seats)

    # ---------------------------------------------------------------- answers

    def _answered(self, payload: str) -> None:
        try:
            got = json.loads(payload)
        except ValueError:
            return
        if not isinstance(got, dict):
            return
        if isinstance(got.get("pages"), dict) and got.get("from") != self.process:
            self._heard(str(got.get("from")), got["pages"])
            return
        if got.get("to") != self.process:
            return
        answer = self._answers.get(got.get("n", 0))
        if answer is not None and not answer.done():
            answer.set_result(got)

    async def receive(self, payload: str) -> None:
        """The owner's side (the inbox's ``page`` handler): carry a forwarded request out
        and answer the process that asked. Requests of different tables are carried out
        side by side, as the owner's own pages' are (each table's lock orders its own; the
        version a move was drawn at refuses one overtaken by another), so the inbox is
        never held up by one table's commit."""
        data = json.loads(payload.removeprefix(PAGE))
        request = Request.model_validate(data["request"])
        task = asyncio.create_task(self._answer(data["to"], data["n"], request))
        self._working.add(task)
        task.add_done_callback(self._working.discard)

    async def _answer(self, to: str, number: int, request: Request) -> None:
        answer: dict[str, Any] = {"to": to, "n": number, "code": None}
        try:
            try:
                answer["table"] = await perform(self.manager, request)
            except Refusal as refusal:
                answer.update(code=refusal.code, detail=refusal.detail)
            await self.store.notify(PAGE_CHANNEL, json.dumps(answer))
        except Exception as error:  # supervised: the asker is told "moving" when it waits
            log.error("event=page_request_failed table=%d where=%s", request.table, where(error))


@dataclass(frozen=True)
class Carried:
    """A request this process carried out itself, after taking its table over."""

    table: int | None


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
