"""The per-chat outbox: screens go out through it, never straight to a chat API. It is
the one owner of the platform's write budgets and of retrying.

Chat platforms limit how often a bot may write — Telegram about 20 messages or edits a
minute in a group, about one a second in a private chat, about 30 a second for the whole
bot — and a table changes far faster than that when computers play. Writes are spent like
money, so each chat has one queue and one worker:

- updates of the same message coalesce: only the latest screen of a key is sent;
- an edit whose screen is what the chat already shows is skipped (no write spent);
- a group gets its writes at an even cadence, never in bursts: no two less than
  ``group_interval`` apart (3.5 s: at most 18 in any minute, under Telegram's 20), and
  never more than ``group_limit`` in any ``window`` seconds; a private chat one write per
  ``private_interval``; the whole bot at most ``bot_limit`` writes in any ``bot_window``
  (None: no bot-wide budget);
- after a start a group's first write waits one ``group_interval`` (``ramp_up``): the
  process before may have written just before it stopped;
- the most urgent write goes first: a result (``RESULT``) before a table (``TABLE``)
  before a reply (``REPLY``), in order of arrival within a priority; a reply may expire
  (useless late), and a chat keeps at most ``max_pending_replies`` of them waiting;
- a write is never silently dropped: a "retry later" answer (Telegram's 429) pauses only
  that chat for as long as it says, a network error is retried after a growing (capped)
  pause, and when the write finally goes it carries the newest screen of its key;
- a chat that cannot be reached (a DM the player never opened, or blocked) is reported
  once and its pending writes dropped, so a table is never stuck behind it; a write the
  platform refuses for good is logged once and dropped;
- no text over the platform's message size goes out (``limit``): a reply too long for
  one message is sent as several, in order, cut at paragraph boundaries; a message
  edited in place stays one, cut short (``bot/delivery/split.py``);
- the messages that will be edited again are told to a ``MessageMemory``, so a restarted
  process (``restore``) edits them instead of posting copies;
- a chat is forgotten once nothing is pending, no message of it will be edited again and
  its budget window has passed, so memory follows the chats in play, not every chat ever.

A key names one message in a chat ("the table message of table 7", "Ali's hand"); ``post``
starts a new message for the key (a new deal, a score sheet), optionally turning the old
one into a ``retire`` screen (no live buttons on two copies); ``show`` edits the key's
message in place (posting it if there is none yet). The clock and the sleep are injected,
so tests run hours of table time in milliseconds and count writes by their timestamps.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bot.backoff import backoff
from bot.delivery.split import Limit, fit, pieces
from bot.logs import where
from bot.present.mailbox import REPLY, TABLE
from bot.render.model import Screen

if TYPE_CHECKING:
    from bot.delivery.memory import MessageMemory

log = logging.getLogger("sahra.outbox")

GROUP_LIMIT = 20  # writes per window in a group (Telegram)
WINDOW = 60.0
GROUP_INTERVAL = 3.5  # seconds between two writes in one group: 18 a minute at most
PRIVATE_INTERVAL = 1.0  # seconds between writes in one private chat
BOT_LIMIT = 30  # writes per bot window across every chat (Telegram: about 30 a second)
BOT_WINDOW = 1.0
BACKOFF = 1.0  # the first pause after a network error; it doubles up to MAX_BACKOFF
MAX_BACKOFF = 30.0
MAX_PENDING_REPLIES = 3  # replies waiting in one chat; a newer one drops the oldest
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
    priority: int = TABLE
    seq: int = 0  # order of arrival (a requeued write: below every arrival)
    deadline: float | None = None  # dropped unsent once the clock is past it
    on_sent: Callable[[Screen], None] | None = None
    retire: Screen | None = None  # what the key's old message becomes once this is posted
    target: str | None = None  # set for a retire edit: the old message it is made to


@dataclass(frozen=True)
class _Retired:
    """The pending key of a retire edit: ``key``'s old message ``message``."""

    key: Hashable
    message: str


@dataclass
class _Chat:
    group: bool
    pending: dict[Hashable, _Op] = field(default_factory=dict)
    messages: dict[Hashable, str] = field(default_factory=dict)
    shown: dict[Hashable, Screen] = field(default_factory=dict)
    writes: deque[float] = field(default_factory=deque)
    worker: asyncio.Task[None] | None = None
    forgets: list[Hashable] = field(default_factory=list)  # keys to tell the memory


def _merge(pending: _Op, newer: _Op) -> None:
    """An edit coalesces into the pending write of its key: the newest screen, callback
    and expiry, the more urgent priority; a pending post stays a post (with its retire)."""
    pending.screen = newer.screen
    pending.keep = newer.keep
    pending.thread = newer.thread or pending.thread
    pending.on_sent = newer.on_sent
    pending.deadline = newer.deadline
    pending.priority = min(pending.priority, newer.priority)


class Outbox:
    def __init__(
        self,
        sender: Sender,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        group_limit: int = GROUP_LIMIT,
        window: float = WINDOW,
        group_interval: float = GROUP_INTERVAL,
        ramp_up: bool = True,
        private_interval: float = PRIVATE_INTERVAL,
        bot_limit: int | None = BOT_LIMIT,
        bot_window: float = BOT_WINDOW,
        backoff: float = BACKOFF,
        max_backoff: float = MAX_BACKOFF,
        max_pending_replies: int | None = MAX_PENDING_REPLIES,
        on_unreachable: Callable[[str], Awaitable[None]] | None = None,
        memory: MessageMemory | None = None,
        limit: Limit | None = None,
    ) -> None:
        self.sender = sender
        # The platform's message size (None: none, a terminal): no text over it is sent.
        self.limit = limit
        self.clock = clock or time.monotonic
        self.sleep = sleep or asyncio.sleep
        self.group_limit = group_limit
        self.window = window
        self.group_interval = group_interval
        self.ramp_up = ramp_up
        self.private_interval = private_interval
        self.bot_limit = bot_limit
        self.bot_window = bot_window
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_pending_replies = max_pending_replies
        self.on_unreachable = on_unreachable
        self.memory = memory
        self.started = self.clock()
        self._chats: dict[str, _Chat] = {}
        # The bot's latest writes over every chat; the bot-wide check needs no more.
        self._bot_writes: deque[float] = deque(maxlen=bot_limit or 1)
        # (when, chat): idle chats whose state may be dropped from ``when`` on.
        self._idling: list[tuple[float, str]] = []
        # (time, chat, "send"/"edit") of the latest writes, for tests and benchmarks.
        self.log: deque[tuple[float, str, str]] = deque(maxlen=LOG_SIZE)
        self._arrivals = itertools.count(1)
        self._front = 0  # requeued writes count down from here: first of their priority
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
        priority: int = TABLE,
        expires: float | None = None,
        on_sent: Callable[[Screen], None] | None = None,
        retire: Screen | None = None,
    ) -> None:
        """A new message for ``key``. ``chat`` is the unit the budget counts (a whole
        group, even when tables sit in its forum topics); ``thread`` the topic a new
        message goes to. ``keep=False`` for a message that is never edited (a score
        sheet, a reply), or a key's last write: nothing about it is remembered
        afterwards, so a bot running for months does not accumulate them.

        The old message of the key stays as it was, or, with ``retire``, is edited to
        that screen once the new one is out (e.g. without its buttons). ``expires``: the
        write is dropped unsent if it waited longer than that many seconds. ``on_sent``
        is called with the screen written, once it is."""
        deadline = None if expires is None else self.clock() + expires
        op = _Op(True, screen, thread, keep, priority, 0, deadline, on_sent, retire)
        self._queue(chat, key, group, op)

    def show(
        self,
        chat: str,
        key: Hashable,
        screen: Screen,
        *,
        group: bool,
        thread: str = "",
        keep: bool = True,
        priority: int = TABLE,
        on_sent: Callable[[Screen], None] | None = None,
    ) -> None:
        """``key``'s message should now show ``screen`` (edited in place, or posted)."""
        self._queue(chat, key, group, _Op(False, screen, thread, keep, priority, on_sent=on_sent))

    def restore(self, entries: Iterable[tuple[str, Hashable, str, bool]]) -> None:
        """Messages a process before this one kept (``MessageMemory``), as (chat, key,
        message id, group): their keys are edited in place again, not posted anew. What
        they show is not known, so the next ``show`` of each is written."""
        for chat, key, message, group in entries:
            state = self._state(chat, group)
            state.messages[key] = message
            state.shown.pop(key, None)

    def message_id(self, chat: str, key: Hashable) -> str | None:
        state = self._chats.get(chat)
        return None if state is None else state.messages.get(key)

    def tracked_chats(self) -> int:
        """How many chats the outbox holds state for (the soak benchmark checks that it
        returns to its baseline once tables end and their budget windows pass)."""
        self._sweep()
        return len(self._chats)

    def _state(self, chat: str, group: bool) -> _Chat:
        state = self._chats.get(chat)
        if state is None:
            # The budget check needs at most ``group_limit`` past writes.
            limit = self.group_limit if group else 1
            state = self._chats[chat] = _Chat(group, writes=deque(maxlen=max(limit, 1)))
        return state

    def _queue(self, chat: str, key: Hashable, group: bool, op: _Op) -> None:
        if self._closed:
            return
        self._sweep()
        state = self._state(chat, group)
        op.seq = next(self._arrivals)
        pending = state.pending.get(key)
        if pending is not None and not op.post:
            _merge(pending, op)  # coalesce: only the latest screen counts
            op = pending
        else:
            # A new message goes after everything queued before it (a new deal's table
            # after the last deal's score sheet), even if an edit of it was waiting.
            state.pending.pop(key, None)
            state.pending[key] = op
        if op.priority == REPLY:
            self._cap_replies(chat, state)
        if state.worker is None or state.worker.done():
            state.worker = asyncio.create_task(self._supervised(chat, state))

    def _cap_replies(self, chat: str, state: _Chat) -> None:
        if self.max_pending_replies is None:
            return
        replies = sorted(
            (op.seq, key)
            for key, op in state.pending.items()
            if op.priority == REPLY and op.target is None
        )
        for _, key in replies[: max(0, len(replies) - self.max_pending_replies)]:
            log.info("event=reply_dropped chat=%s reason=too_many", chat)
            self._dropped(state, key, state.pending.pop(key))

    # ---------------------------------------------------------------- sending

    @staticmethod
    def _next(state: _Chat) -> tuple[Hashable, _Op] | None:
        """The most urgent pending write (the lowest priority, then the earliest)."""
        if not state.pending:
            return None
        return min(state.pending.items(), key=lambda item: (item[1].priority, item[1].seq))

    def _expire(self, chat: str, state: _Chat) -> None:
        now = self.clock()
        for key, op in list(state.pending.items()):
            if op.deadline is not None and now > op.deadline:
                log.info("event=write_expired chat=%s", chat)
                del state.pending[key]
                self._dropped(state, key, op)

    async def _supervised(self, chat: str, state: _Chat) -> None:
        """The chat's worker, kept going: an exception it does not handle (a bug, or the
        ``on_unreachable`` report failing on storage) is logged, and after a pause — which
        grows while the chat keeps failing, so a persistent fault is no busy loop — the
        worker starts again on the writes still pending, including those queued meanwhile
        (they found this task alive and started no other). Without it the chat would wait,
        silently, until some later write started a new worker."""
        crashes = 0
        while True:
            try:
                await self._work(chat, state)
                return
            except Exception as error:
                pause = backoff(crashes, self.backoff, self.max_backoff)
                crashes += 1
                log.error(  # type and place: the error's text could quote a screen
                    "event=outbox_worker_failed chat=%s failures=%d seconds=%.1f"
                    " error=%s where=%s",
                    chat,
                    crashes,
                    pause,
                    type(error).__name__,
                    where(error),
                )
                if self._closed:
                    return
                await self.sleep(pause)

    async def _work(self, chat: str, state: _Chat) -> None:
        failures = 0  # network errors in a row: the pause grows with them
        while not self._closed:
            await self._tell_forgotten(chat, state)
            self._expire(chat, state)
            if state.forgets:
                continue
            picked = self._next(state)
            if picked is None:
                break
            key, op = picked
            if (
                not op.post
                and op.target is None
                and isinstance(op.screen, Screen)
                and state.shown.get(key) == op.screen
            ):
                del state.pending[key]  # already showing exactly this
                continue
            await self._wait_for_budget(state)
            self._expire(chat, state)
            picked = self._next(state)  # may have changed while waiting
            if picked is None:
                continue
            key, op = picked
            del state.pending[key]
            screen = op.screen
            if op.target is None and not op.post and state.shown.get(key) == screen:
                continue  # already showing exactly this
            try:
                await self._write(chat, state, key, op, screen)
                failures = 0
            except RetryLater as retry:
                log.warning("event=retry_after chat=%s seconds=%.1f", chat, retry.seconds)
                self._requeue(state, key, op)
                await self.sleep(retry.seconds)
            except Transient as error:
                pause = backoff(failures, self.backoff, self.max_backoff)
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
                if op.target is not None:
                    continue  # the old copy to retire is gone already: nothing to do
                if state.messages.pop(key, None) is not None:
                    state.forgets.append(key)
                state.shown.pop(key, None)
                self._requeue(state, key, dataclasses.replace(op, post=True, retire=None))
            except Unreachable:
                log.info("event=chat_unreachable chat=%s", chat)
                # Nothing here can be edited any more; a player who comes back gets new
                # messages (the frontends post afresh after /start).
                state.forgets.extend(state.messages)
                state.pending.clear()
                state.messages.clear()
                state.shown.clear()
                await self._tell_forgotten(chat, state)
                if self.on_unreachable is not None:
                    await self.on_unreachable(chat)
            except Refused as error:
                if op.target is None:  # a retire edit refused is dropped quietly
                    log.error("event=write_refused chat=%s error=%s", chat, error)
                    self._dropped(state, key, op)
            except Exception as error:
                log.error(  # type and place: a screen's text is never logged
                    "event=write_failed chat=%s error=%s where=%s",
                    chat,
                    type(error).__name__,
                    where(error),
                )
                self._dropped(state, key, op)
        self._idle_later(chat, state)

    async def _write(
        self, chat: str, state: _Chat, key: Hashable, op: _Op, screen: Screen
    ) -> None:
        if op.target is not None:  # a retire edit: the key has a newer message already
            self._spend(chat, state, "edit")
            await self.sender.edit(chat, op.target, self._fitted(screen))
            return
        message = state.messages.get(key)
        post = op.post or message is None
        # Only a message never edited may become several; one edited in place stays one.
        if post and not op.keep:
            out = await self._lead(chat, state, op, screen)
        else:
            out = self._fitted(screen)
        self._spend(chat, state, "send" if post else "edit")
        if post:
            written = await self.sender.send(chat, out, op.thread)
        else:
            assert message is not None
            await self.sender.edit(chat, message, out)
            written = message
        if op.keep:
            state.messages[key], state.shown[key] = written, screen
        else:
            state.messages.pop(key, None)
            state.shown.pop(key, None)
        if post and op.retire is not None and message is not None and message != written:
            retired = _Op(
                False,
                op.retire,
                op.thread,
                keep=False,
                priority=op.priority,
                seq=next(self._arrivals),
                target=message,
            )
            state.pending[_Retired(key, message)] = retired
        if op.on_sent is not None:
            try:
                op.on_sent(screen)
            except Exception as error:
                log.error(  # type and place: a screen's text is never logged
                    "event=on_sent_failed chat=%s error=%s where=%s",
                    chat,
                    type(error).__name__,
                    where(error),
                )
        if op.keep and written != message:
            await self._remember(chat, key, written, state.group)
        elif not op.keep and message is not None:
            await self._forget(chat, key)

    def _fitted(self, screen: Screen) -> Screen:
        return screen if self.limit is None else fit(screen, self.limit)

    async def _lead(self, chat: str, state: _Chat, op: _Op, screen: Screen) -> Screen:
        """A reply too long for one message: its pieces but the last are sent here, in
        order, each in the chat's budget; the last is returned, to be written as any post.
        After each piece ``op`` carries only what is left (and no longer expires: begun,
        the rest must follow), so a retry sends no piece twice."""
        if self.limit is None:
            return screen
        *leading, last = pieces(screen, self.limit)
        for index, piece in enumerate(leading):
            if index:
                await self._wait_for_budget(state)
            self._spend(chat, state, "send")
            await self.sender.send(chat, piece, op.thread)
            rest = [*leading[index + 1 :], last]
            text = "\n\n".join(part.text for part in rest)
            op.screen, op.deadline = Screen(text, screen.rows), None
        if leading:
            await self._wait_for_budget(state)
        return last

    def _requeue(self, state: _Chat, key: Hashable, op: _Op) -> None:
        """A write that must be made again goes first again among its priority (the
        chat's order holds), carrying the newest screen queued for its key meanwhile; it
        stays a new message if either was one (the failed post never appeared)."""
        newer = state.pending.pop(key, None)
        if newer is not None:
            if newer.post:
                newer.priority = min(newer.priority, op.priority)
                newer.thread = newer.thread or op.thread
                op = newer
            else:
                _merge(op, newer)
        self._front -= 1
        op.seq = self._front
        state.pending[key] = op

    @staticmethod
    def _dropped(state: _Chat, key: Hashable, op: _Op) -> None:
        if op.target is None and not op.keep:  # its last write: not edited again either way
            if state.messages.pop(key, None) is not None:
                state.forgets.append(key)
            state.shown.pop(key, None)

    # ---------------------------------------------------------------- memory

    async def _remember(self, chat: str, key: Hashable, message: str, group: bool) -> None:
        if self.memory is None:
            return
        try:
            await self.memory.remember(chat, key, message, group)
        except Exception as error:
            log.warning(
                "event=memory_failed op=remember chat=%s key=%r error=%s",
                chat,
                key,
                type(error).__name__,
            )

    async def _forget(self, chat: str, key: Hashable) -> None:
        if self.memory is None:
            return
        try:
            await self.memory.forget(chat, key)
        except Exception as error:
            log.warning(
                "event=memory_failed op=forget chat=%s key=%r error=%s",
                chat,
                key,
                type(error).__name__,
            )

    async def _tell_forgotten(self, chat: str, state: _Chat) -> None:
        """Tell the memory about the keys dropped meanwhile (unless posted again since)."""
        if not state.forgets:
            return
        keys, state.forgets = state.forgets, []
        for key in keys:
            if key not in state.messages:
                await self._forget(chat, key)

    # ---------------------------------------------------------------- budgets

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
        if not state.group:
            return writes[-1] + self.private_interval - now if writes else 0.0
        while writes and writes[0] <= now - self.window:
            writes.popleft()
        if writes:
            delay = writes[-1] + self.group_interval - now
        elif self.ramp_up:  # the process before may have written just before it stopped
            delay = self.started + self.group_interval - now
        else:
            delay = 0.0
        if len(writes) >= self.group_limit:
            delay = max(delay, writes[0] + self.window - now)
        return delay

    def _bot_delay(self, now: float) -> float:
        writes = self._bot_writes
        if self.bot_limit is None or len(writes) < self.bot_limit:
            return 0.0
        return writes[0] + self.bot_window - now

    # ---------------------------------------------------------------- forgetting

    def _idle_later(self, chat: str, state: _Chat) -> None:
        """The worker is done: once its budget window passes, an idle chat is dropped."""
        if state.pending or state.messages or self._chats.get(chat) is not state:
            return
        last = state.writes[-1] if state.writes else None
        span = self.window if state.group else self.private_interval
        heapq.heappush(self._idling, (self.clock() if last is None else last + span, chat))

    def _sweep(self) -> None:
        now = self.clock()
        while self._idling and self._idling[0][0] <= now:
            _, chat = heapq.heappop(self._idling)
            state = self._chats.get(chat)
            if state is not None and self._idle(state, now):
                del self._chats[chat]

    def _idle(self, state: _Chat, now: float) -> bool:
        if state.pending or state.messages or state.forgets:
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

    def min_gap(self, chat: str) -> float | None:
        """The shortest time between two consecutive writes to this chat in the log
        (None before its second write): the even cadence, for tests and benchmarks."""
        times = [at for at, target, _ in self.log if target == chat]
        return min((b - a for a, b in itertools.pairwise(times)), default=None)
