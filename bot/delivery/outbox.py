"""The per-chat outbox: screens go out through it, never straight to a chat API. It is
the one owner of the platform's write budgets and of retrying.

Chat platforms limit how often a bot may write — Telegram about 20 messages or edits a
minute in a group, about one a second in a private chat, about 30 a second for the whole
bot — and a table changes far faster than that when computers play. So each chat has one
queue and one worker:

- updates of the same message coalesce: only the latest screen of a key is sent;
- an edit whose screen is what the chat already shows is skipped (no write spent);
- a group never gets more than ``group_limit`` writes in any ``window`` seconds, a private
  chat one write per ``private_interval``, and the whole bot at most ``bot_limit`` writes
  in any ``bot_window`` (None: no bot-wide budget);
- a write is never silently dropped: a "retry later" answer (Telegram's 429) pauses only
  that chat for as long as it says, a network error is retried after a growing (capped)
  pause, and when the write finally goes it carries the newest screen of its key;
- a chat that cannot be reached (a DM the player never opened, or blocked) is reported
  once and its pending writes dropped, so a table is never stuck behind it; a write the
  platform refuses for good is logged once and dropped;
- a chat is forgotten once nothing is pending, no message of it will be edited again and
  its budget window has passed, so memory follows the chats in play, not every chat ever.

A key names one message in a chat ("the table message of table 7", "Ali's hand"); ``post``
starts a new message for the key (a new deal, a score sheet), ``show`` edits the key's
message in place (posting it if there is none yet). The clock and the sleep are injected,
so tests run hours of table time in milliseconds and count writes by their timestamps.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
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
BOT_LIMIT = 30  # writes per bot window across every chat (Telegram: about 30 a second)
BOT_WINDOW = 1.0
BACKOFF = 1.0  # the first pause after a network error; it doubles up to MAX_BACKOFF
MAX_BACKOFF = 30.0
LOG_SIZE = 50_000  # writes kept in ``Outbox.log``


class RetryLater(Exception):
    """The platform asks to wait ``seconds`` before writing to this chat again."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"retry in {seconds} s")
        self.seconds = seconds


class Transient(Exception):
    """The write failed on the way (a network error, a timeout, a server in trouble) and
    may be retried. A timed-out post may in fact have arrived, so a retry can show it
    twice; that is the price of never losing one."""


class Refused(Exception):
    """The platform refused this write for good (a bad request): retrying cannot help."""


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
        bot_limit: int | None = BOT_LIMIT,
        bot_window: float = BOT_WINDOW,
        backoff: float = BACKOFF,
        max_backoff: float = MAX_BACKOFF,
        on_unreachable: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.sender = sender
        self.clock = clock or time.monotonic
        self.sleep = sleep or asyncio.sleep
        self.group_limit = group_limit
        self.window = window
        self.private_interval = private_interval
        self.bot_limit = bot_limit
        self.bot_window = bot_window
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.on_unreachable = on_unreachable
        self._chats: dict[str, _Chat] = {}
        # The bot's latest writes over every chat; the bot-wide check needs no more.
        self._bot_writes: deque[float] = deque(maxlen=bot_limit or 1)
        # (when, chat): idle chats whose state may be dropped from ``when`` on.
        self._retiring: list[tuple[float, str]] = []
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

    def tracked_chats(self) -> int:
        """How many chats the outbox holds state for (the soak benchmark checks that it
        returns to its baseline once tables end and their budget windows pass)."""
        self._sweep()
        return len(self._chats)

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
        self._sweep()
        state = self._chats.get(chat)
        if state is None:
            # The budget check needs at most ``group_limit`` past writes.
            limit = self.group_limit if group else 1
            state = self._chats[chat] = _Chat(group, writes=deque(maxlen=limit))
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
        failures = 0  # network errors in a row: the pause grows with them
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
                failures = 0
            except RetryLater as retry:
                log.warning("event=retry_after chat=%s seconds=%.1f", chat, retry.seconds)
                self._requeue(state, key, op)
                await self.sleep(retry.seconds)
            except Transient as error:
                pause = min(self.max_backoff, self.backoff * 2**failures)
                failures += 1
                log.warning(
                    "event=write_retry chat=%s attempt=%d seconds=%.1f error=%s",
                    chat,
                    failures,
                    pause,
                    error,
                )
                self._requeue(state, key, op)
                await self.sleep(pause)
            except Gone:
                state.messages.pop(key, None)
                state.shown.pop(key, None)
                self._requeue(state, key, _Op(True, op.screen, op.thread, op.keep))
            except Unreachable:
                log.info("event=chat_unreachable chat=%s", chat)
                # Nothing here can be edited any more; a player who comes back gets new
                # messages (the frontends post afresh after /start).
                state.pending.clear()
                state.messages.clear()
                state.shown.clear()
                if self.on_unreachable is not None:
                    await self.on_unreachable(chat)
            except Refused as error:
                log.error("event=write_refused chat=%s error=%s", chat, error)
                self._dropped(state, key, op)
            except Exception:
                log.exception("event=write_failed chat=%s", chat)
                self._dropped(state, key, op)
        self._retire(chat, state)

    async def _write(self, chat: str, state: _Chat, key: Hashable, op: _Op) -> None:
        message = state.messages.get(key)
        post = op.post or message is None
        self._spend(chat, state, "send" if post else "edit")
        if post:
            message = await self.sender.send(chat, op.screen, op.thread)
        else:
            assert message is not None
            await self.sender.edit(chat, message, op.screen)
        if op.keep:
            state.messages[key], state.shown[key] = message, op.screen
        else:
            state.messages.pop(key, None)
            state.shown.pop(key, None)

    @staticmethod
    def _requeue(state: _Chat, key: Hashable, op: _Op) -> None:
        """A write that must be made again goes first again (the chat's order holds),
        carrying the newest screen queued for its key meanwhile; it stays a new message
        if either was one (the failed post never appeared)."""
        newer = state.pending.pop(key, None)
        if newer is not None:
            op = _Op(op.post or newer.post, newer.screen, newer.thread or op.thread, newer.keep)
        state.pending = {key: op, **state.pending}

    @staticmethod
    def _dropped(state: _Chat, key: Hashable, op: _Op) -> None:
        if not op.keep:  # its last write: the message is not edited again either way
            state.messages.pop(key, None)
            state.shown.pop(key, None)

    def _spend(self, chat: str, state: _Chat, kind: str) -> None:
        now = self.clock()
        state.writes.append(now)
        if self.bot_limit is not None:
            self._bot_writes.append(now)
        self.log.append((now, chat, kind))

    async def _wait_for_budget(self, state: _Chat) -> None:
        while True:
            now = self.clock()
            delay = self._chat_delay(state, now)
            if delay <= 0:
                delay = self._bot_delay(now)
                if delay <= 0:
                    return
            await self.sleep(max(delay, 0.001))

    def _chat_delay(self, state: _Chat, now: float) -> float:
        writes = state.writes
        if not writes:
            return 0.0
        if state.group:
            while writes and writes[0] <= now - self.window:
                writes.popleft()
            if len(writes) < self.group_limit:
                return 0.0
            return writes[0] + self.window - now
        return writes[-1] + self.private_interval - now

    def _bot_delay(self, now: float) -> float:
        writes = self._bot_writes
        if self.bot_limit is None or len(writes) < self.bot_limit:
            return 0.0
        return writes[0] + self.bot_window - now

    # ---------------------------------------------------------------- forgetting

    def _retire(self, chat: str, state: _Chat) -> None:
        """The worker is done: once its budget window passes, an idle chat is dropped."""
        if state.pending or state.messages or self._chats.get(chat) is not state:
            return
        last = state.writes[-1] if state.writes else None
        span = self.window if state.group else self.private_interval
        heapq.heappush(self._retiring, (self.clock() if last is None else last + span, chat))

    def _sweep(self) -> None:
        now = self.clock()
        while self._retiring and self._retiring[0][0] <= now:
            _, chat = heapq.heappop(self._retiring)
            state = self._chats.get(chat)
            if state is not None and self._idle(state, now):
                del self._chats[chat]

    def _idle(self, state: _Chat, now: float) -> bool:
        if state.pending or state.messages:
            return False
        if state.worker is not None and not state.worker.done():
            return False
        span = self.window if state.group else self.private_interval
        return not state.writes or state.writes[-1] + span <= now

    # ---------------------------------------------------------------- lifecycle

    async def flush(self) -> None:
        """Wait until every queued write has been made (or dropped as undeliverable)."""
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
