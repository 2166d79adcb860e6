"""One page's WebSocket: who it is, what it was last sent, and the pace it may keep.

Writes go through one writer task per socket. A state supersedes the one before it, so a
page that reads slowly (or not at all) only ever holds the newest state here, never a
queue of them: memory per socket stays bounded whatever it does. Other frames (answers,
errors) are few and bounded too; a socket that lets them pile up is cut off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.logs import where
from bot.tables.live import Place

log = logging.getLogger("sahra.web")

RATE = 10.0  # frames a second a page may send on average (a person taps far slower)
BURST = 20.0
FLOODED = 60  # frames refused for pace before the socket is closed
PENDING_LIMIT = 32  # answers waiting for a page that does not read: then it is cut off
SEND_SECONDS = 10.0  # a write that takes longer means a peer that stopped reading


@dataclass(frozen=True)
class Visitor:
    """Who a socket is, as the server verified it: a platform user, never what the page
    claims. ``table`` is the table the credential was issued for."""

    platform: str
    user_id: str
    name: str
    language: str
    table: int


@dataclass(eq=False)
class PageSocket:
    ws: web.WebSocketResponse
    visitor: Visitor | None = None
    table_id: int = 0
    # An Activity page in a channel with no table yet: where its ``start`` opens one.
    start_place: Place | None = None
    language: str = "ar"
    # The pace: a token bucket refilled at RATE up to BURST.
    tokens: float = BURST
    refilled: float = 0.0
    refused: int = 0
    # The newest state not written yet, with the table's seq it was built at.
    _state: tuple[str, int] | None = None
    # The seq of the last state written to this page (None: none yet, or of another
    # table): the next state carries the public moves made since (``hub.py``).
    written_seq: int | None = None
    _frames: deque[str] = field(default_factory=deque)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _writer: asyncio.Task[None] | None = None
    # Requests this page sent that another process carries out: awaited beside the
    # socket's reader, never by it (a dead owner must not freeze the page's next taps).
    errands: set[asyncio.Task[None]] = field(default_factory=set)
    closed: bool = False

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write())

    def allow(self, now: float) -> bool:
        """Whether one more frame from the page may be read now."""
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    @property
    def flooding(self) -> bool:
        return self.refused >= FLOODED

    def spawn(self, errand: Coroutine[Any, Any, None]) -> None:
        """Run ``errand`` beside the reader; supervised: a failure is logged and the
        socket lives on."""
        task = asyncio.create_task(errand)
        self.errands.add(task)
        task.add_done_callback(self._errand_done)

    def _errand_done(self, task: asyncio.Task[None]) -> None:
        self.errands.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error(
                "event=page_errand_failed table=%d error=%s where=%s",
                self.table_id,
                type(error).__name__,
                where(error),
            )

    def send_state(self, text: str, seq: int) -> None:
        self._state = (text, seq)
        self._wake.set()

    def send(self, text: str) -> None:
        if len(self._frames) >= PENDING_LIMIT:
            log.warning("event=page_not_reading table=%d", self.table_id)
            self.closed = True
        else:
            self._frames.append(text)
        self._wake.set()

    async def _write(self) -> None:
        """The one writer: answers in order, then the newest state. Supervised by its own
        catch: a failed write ends this socket only, logged, never a table."""
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while not self.closed and (self._frames or self._state is not None):
                    if self._frames:
                        text = self._frames.popleft()
                    elif self._state is not None:
                        (text, self.written_seq), self._state = self._state, None
                    await asyncio.wait_for(self.ws.send_str(text), SEND_SECONDS)
        except (ConnectionError, TimeoutError, RuntimeError):
            pass  # the peer went away or stopped reading: the socket closes below
        except Exception as error:
            log.error(
                "event=page_write_failed error=%s where=%s", type(error).__name__, where(error)
            )
        finally:
            self.closed = True
            if not self.ws.closed:
                with contextlib.suppress(Exception):
                    await self.ws.close()

    async def close(self) -> None:
        self.closed = True
        self._wake.set()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        if not self.ws.closed:
            with contextlib.suppress(Exception):
                await self.ws.close()
