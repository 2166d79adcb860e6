"""A page's move or command for a table another process owns, carried out by the owner
(several processes on one PostgreSQL database; ``remote.py`` serves such pages).

The request goes to the owner through the inbox (the path a forwarded platform update
takes), is carried out there by the one apply path (``actions.perform``), and the owner's
answer comes back on ``sahra_page`` to the process that asked. Without an answer in
``ANSWER_SECONDS`` (no owner while a standby takes over) the request is withdrawn if it is
still waiting and the page is asked to press again: a request is carried out at most once
and never dropped unsaid. If this process itself takes the table over meanwhile, the wait
ends at once (``_answer_to``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.cluster.inbox import PAGE, Inbox
from bot.cluster.partitions import Ownership
from bot.logs import where
from bot.tables.errors import REFUSAL_CODES, Refusal
from bot.tables.live import LiveTable
from bot.tables.manager import TableManager
from bot.web.actions import Request, perform
from storage.errors import StorageError
from storage.store import PAGE_CHANNEL

log = logging.getLogger("sahra.web")

ANSWER_SECONDS = 10.0  # an owner's answer to a forwarded request comes within this
TAKEOVER_CHECK_SECONDS = 0.1  # a request waiting for an answer looks this often whether
# this process has become the table's owner (a takeover settles it at once)
OWN_ANSWER_SECONDS = 1.0  # the answer of this process's own inbox, after a takeover


@dataclass(frozen=True)
class Carried:
    """A request this process carried out itself, after taking its table over."""

    table: int | None


class Forwarded:
    def __init__(
        self,
        manager: TableManager,
        inbox: Inbox,
        ownership: Ownership,
        process: str,
        owns: Callable[[int], bool],
    ) -> None:
        self.manager = manager
        self.store = manager.store
        self.inbox = inbox
        self.ownership = ownership
        self.process = process  # where an owner's answers are addressed
        self.owns = owns
        self._answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._numbers = itertools.count(1)
        self.working: set[asyncio.Task[None]] = set()  # requests being carried out here

    # ---------------------------------------------------------------- the asking side

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

    def answered(self, got: dict[str, Any]) -> None:
        """An owner's answer heard on ``sahra_page``, if it is this process's."""
        if got.get("to") != self.process:
            return
        answer = self._answers.get(got.get("n", 0))
        if answer is not None and not answer.done():
            answer.set_result(got)

    # ---------------------------------------------------------------- the owner's side

    async def receive(self, payload: str) -> None:
        """The owner's side (the inbox's ``page`` handler): carry a forwarded request out
        and answer the process that asked. Requests of different tables are carried out
        side by side, as the owner's own pages' are (each table's lock orders its own; the
        version a move was drawn at refuses one overtaken by another), so the inbox is
        never held up by one table's commit."""
        data = json.loads(payload.removeprefix(PAGE))
        request = Request.model_validate(data["request"])
        task = asyncio.create_task(self._answer(data["to"], data["n"], request))
        self.working.add(task)
        task.add_done_callback(self.working.discard)

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
