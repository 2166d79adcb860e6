"""The per-chat outbox: screens go out through it, never straight to a chat API.

Chat platforms limit how often a bot may write — Telegram about 20 messages or edits a
minute in a group, about one a second in a private chat — and a table changes far faster
than that when computers play. So each chat has one queue and one worker:

- updates of the same message coalesce: only the latest screen of a key is sent;
- an edit whose screen is what the chat already shows is skipped (no write spent);
- a group never gets more than ``group_limit`` writes in any ``window`` seconds;
- a "retry later" answer (Telegram's 429) is waited out and the write retried;
- a chat that cannot be reached (a DM the player never opened) is reported once and its
  pending writes dropped, so a table is never stuck behind it.

A key names one message in a chat ("the table message of table 7", "Ali's hand"); ``post``
starts a new message for the key (a new deal, a score sheet), ``show`` edits the key's
message in place (posting it if there is none yet). The clock and the sleep are injected,
so tests run hours of table time in milliseconds and count writes by their timestamps.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

from bot.render.model import Screen

log = logging.getLogger("sahra.outbox")

GROUP_LIMIT = 20  # writes per window in a group (Telegram)
WINDOW = 60.0
PRIVATE_INTERVAL = 1.0  # seconds between writes in one private chat
LOG_SIZE = 50_000  # writes kept in ``Outbox.log``


class RetryLater(Exception):
    """The platform asks to wait ``seconds`` before writing again."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"retry in {seconds} s")
        self.seconds = seconds


class Unreachable(Exception):
    """The chat cannot be written to (e.g. a DM the user never opened, or blocked)."""


class Gone(Exception):
    """The message to edit no longer exists; post a new one instead."""


class Sender(Protocol):
    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        """Post a new message (in a forum topic when ``thread``); returns its id."""

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        """Replace a message's text and buttons."""


@dataclass
class _Op:
    post: bool
    screen: Screen
    thread: str = ""
    keep: bool = True  # remember the message to edit it later (else: written, forgotten)


@dataclass
class _Chat:
    group: bool
    pending: dict[Hashable, _Op] = field(default_factory=dict)  # in order of arrival
    messages: dict[Hashable, str] = field(default_factory=dict)
    shown: dict[Hashable, Screen] = field(default_factory=dict)
    writes: deque[float] = field(default_factory=deque)
    worker: asyncio.Task[None] | None = None


class Outbox:
    def __init__(
        self,
        sender: Sender,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        group_limit: int = GROUP_LIMIT,
        window: float = WINDOW,
        private_interval: float = PRIVATE_INTERVAL,
        on_unreachable: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.sender = sender
        self.clock = clock or time.monotonic
        self.sleep = sleep or asyncio.sleep
        self.group_limit = group_limit
        self.window = window
        self.private_interval = private_interval
        self.on_unreachable = on_unreachable
        self._chats: dict[str, _Chat] = {}
        # (time, chat, "send"/"edit") of the latest writes, for tests and benchmarks.
        self.log: deque[tuple[float, str, str]] = deque(maxlen=LOG_SIZE)
        self._closed = False

    # ---------------------------------------------------------------- queueing

    def post(
        self,
        chat: str,
        key: Hashable,
        screen: Screen,
        *,
        group: bool,
        thread: str = "",
        keep: bool = True,
    ) -> None:
        """A new message for ``key`` (the old one stays as it was). ``chat`` is the unit
        the budget counts (a whole group, even when tables sit in its forum topics);
        ``thread`` the topic a new message goes to. ``keep=False`` for a message that is
        never edited (a score sheet, a reply), or a key's last write: nothing about it is
        remembered afterwards, so a bot running for months does not accumulate them."""
        self._queue(chat, key, screen, group, post=True, thread=thread, keep=keep)

    def show(
        self,
        chat: str,
        key: Hashable,
        screen: Screen,
        *,
        group: bool,
        thread: str = "",
        keep: bool = True,
    ) -> None:
        """``key``'s message should now show ``screen`` (edited in place, or posted)."""
        self._queue(chat, key, screen, group, post=False, thread=thread, keep=keep)

    def message_id(self, chat: str, key: Hashable) -> str | None:
        state = self._chats.get(chat)
        return None if state is None else state.messages.get(key)

    def _queue(
        self,
        chat: str,
        key: Hashable,
        screen: Screen,
        group: bool,
        post: bool,
        thread: str,
        keep: bool,
    ) -> None:
        if self._closed:
            return
        state = self._chats.get(chat)
        if state is None:
            # The budget check needs at most ``group_limit`` past writes.
            state = self._chats[chat] = _Chat(group, writes=deque(maxlen=self.group_limit))
        pending = state.pending.get(key)
        if pending is not None and not post:
            pending.screen = screen  # coalesce: only the latest screen counts
            pending.keep = keep
        else:
            # A new message goes after everything queued before it (a new deal's table
            # after the last deal's score sheet), even if an edit of it was waiting.
            state.pending.pop(key, None)
            state.pending[key] = _Op(post, screen, thread, keep)
        if state.worker is None or state.worker.done():
            state.worker = asyncio.create_task(self._work(chat, state))

    # ---------------------------------------------------------------- sending

    async def _work(self, chat: str, state: _Chat) -> None:
        while state.pending and not self._closed:
            key = next(iter(state.pending))
            op = state.pending[key]
            if not op.post and state.shown.get(key) == op.screen:
                del state.pending[key]  # already showing exactly this
                continue
            await self._wait_for_budget(state)
            latest = state.pending.pop(key, None)  # may have changed while waiting
            if latest is None or (not latest.post and state.shown.get(key) == latest.screen):
                continue
            op = latest
            try:
                await self._write(chat, state, key, op)
            except Unreachable:
                log.info("event=chat_unreachable chat=%s", chat)
                state.pending.clear()
                if self.on_unreachable is not None:
                    await self.on_unreachable(chat)
            except Exception:
                log.exception("event=outbox_write_failed chat=%s", chat)

    async def _write(self, chat: str, state: _Chat, key: Hashable, op: _Op) -> None:
        for _attempt in range(5):
            message = state.messages.get(key)
            try:
                self._spend(chat, state, "send" if op.post or message is None else "edit")
                if op.post or message is None:
                    message = await self.sender.send(chat, op.screen, op.thread)
                else:
                    await self.sender.edit(chat, message, op.screen)
                if op.keep:
                    state.messages[key], state.shown[key] = message, op.screen
                else:
                    state.messages.pop(key, None)
                    state.shown.pop(key, None)
                return
            except RetryLater as retry:
                log.warning("event=retry_after chat=%s seconds=%.1f", chat, retry.seconds)
                await self.sleep(retry.seconds)
            except Gone:
                state.messages.pop(key, None)
                op = _Op(True, op.screen, op.thread, op.keep)
        log.error("event=outbox_gave_up chat=%s", chat)

    def _spend(self, chat: str, state: _Chat, kind: str) -> None:
        now = self.clock()
        state.writes.append(now)
        self.log.append((now, chat, kind))

    async def _wait_for_budget(self, state: _Chat) -> None:
        while True:
            now = self.clock()
            writes = state.writes
            if state.group:
                while writes and writes[0] <= now - self.window:
                    writes.popleft()
                if len(writes) < self.group_limit:
                    return
                delay = writes[0] + self.window - now
            else:
                if not writes or now - writes[-1] >= self.private_interval:
                    return
                delay = writes[-1] + self.private_interval - now
            await self.sleep(max(delay, 0.001))

    # ---------------------------------------------------------------- lifecycle

    async def flush(self) -> None:
        """Wait until every queued write has been made (or given up)."""
        while True:
            workers = [s.worker for s in self._chats.values() if s.worker and not s.worker.done()]
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

    async def close(self) -> None:
        """Stop writing; pending screens are dropped (the next start re-renders)."""
        self._closed = True
        for state in self._chats.values():
            if state.worker is not None:
                state.worker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await state.worker

    def writes_in_window(self, chat: str, window: float | None = None) -> int:
        """The most writes this chat received in any ``window`` seconds (tests, logs)."""
        span = self.window if window is None else window
        times = [at for at, target, _ in self.log if target == chat]
        best = 0
        start = 0
        for end, at in enumerate(times):
            while times[start] <= at - span:
                start += 1
            best = max(best, end - start + 1)
        return best
