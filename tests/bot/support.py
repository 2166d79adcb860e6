"""What the platform end-to-end tests share: waiting for a condition, and checking every
public screen — when it is queued, i.e. rendered under the table's lock — against the
hands as they are at that moment."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import engine
from bot.delivery import Outbox
from bot.league.service import counting
from bot.logs import configure_logging
from bot.render.i18n import CATALOG, card_label, t
from bot.render.model import Screen
from bot.tables import LiveTable, PlayerRef, Press, TableManager
from engine.cards import CARD_CODES
from engine.players import HeuristicPlayer
from storage.database import Database
from storage.postgres import PostgresDatabase
from tests.backends import BackendFactory
from tests.bot.virtual_time import VirtualTime

BIDI = str.maketrans("", "", "\u2068\u2069\u200e")
CARD_RE = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")
# A card in a log line: a code ("QH", "TS", "10S") or a label ("Q♥", with a mark inside).
CARD_IN_LOG = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b|(?:10|[2-9JQKA])\u200e?[♣♦♥♠]")


@contextlib.contextmanager
def configured_logs(fmt: str = "text", level: str = "INFO") -> Iterator[io.StringIO]:
    """The logs as ``configure_logging`` sets them up for the bots, written to a buffer
    instead of stderr while the block runs; the root logger is as it was afterwards."""
    root = logging.getLogger()
    noisy = [logging.getLogger(name) for name in ("httpx", "discord", "telegram", "aiosqlite")]
    handlers, level_before, noisy_levels = root.handlers[:], root.level, [n.level for n in noisy]
    stream = io.StringIO()
    with contextlib.redirect_stderr(stream):  # the handler is made on sys.stderr as it is
        configure_logging(level, fmt)
    try:
        yield stream
    finally:
        root.handlers[:] = handlers
        root.setLevel(level_before)
        for logger, before in zip(noisy, noisy_levels, strict=True):
            logger.setLevel(before)


def play_a_card_not_held(*_: object, **__: object) -> NoReturn:
    """Raise a real refusal of the engine, whose message names a card ("you do not hold
    2C"): a bug on an error path that would log it should be caught by the logs."""
    match = engine.new_match("syrian41", seed=1)
    while True:
        seat = match.to_act[0]
        action = match.auto_action(seat)
        assert action is not None
        if action["type"] == "play":
            held = match.hand(seat)
            match.apply(
                seat, {"type": "play", "card": next(c for c in CARD_CODES if c not in held)}
            )
            raise AssertionError("the engine accepted a card not held")
        match.apply(seat, action)


async def until(
    condition: Callable[[], object],
    what: str = "the condition",
    timeout: float = 30.0,
    every: float = 0.02,
) -> None:
    """Wait until ``condition()`` holds, checking it again every ``every`` seconds; fail
    naming ``what`` if it still does not after ``timeout``. The one way a test waits: for a
    condition, never for a time. ``condition`` may be a coroutine function (a question to
    the database, say). A wait that took long is printed (pytest shows it on a failure)."""
    started = time.monotonic()
    deadline = started + timeout
    while True:
        held = condition()
        if inspect.isawaitable(held):
            held = await held
        if held:
            break
        assert time.monotonic() < deadline, f"never happened: {what} ({timeout} s)"
        await asyncio.sleep(every)
    if time.monotonic() - started > 0.3:
        print(f"{time.monotonic() - started:6.2f} s  {what}")


async def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """``until`` for a condition of the test's own process, checked every 2 ms."""
    await until(condition, "the condition", timeout, every=0.002)


def hidden_cards(manager: TableManager) -> set[str]:
    """Labels of every card in a hand that the public may not see, right now (the T41
    shown card and revealed TX doubles are public)."""
    cards: set[str] = set()
    for table in manager.live_tables():
        match = table.match
        if match is None:
            continue
        public = match.view(None)
        allowed = {public.get("shown_card")} | {d["card"] for d in public.get("doubled") or []}
        cards |= {card_label(c) for seat in range(4) for c in match.hand(seat) if c not in allowed}
    return cards


@dataclass
class PublicWatch:
    """Wraps an outbox so that every screen written to ``chat`` — its text and its button
    labels, a screen handed over as a function when the outbox draws it, a ``retire``
    screen too — is scanned for hidden cards (a leak is recorded, since raising inside a
    publish would be swallowed by its guard)."""

    chat: str
    manager: Callable[[], TableManager]
    leaks: list[str] = field(default_factory=list)
    texts: set[str] = field(default_factory=set)
    checked: int = 0

    def _finished(self, key: object) -> bool:
        """A finished deal's message (its sheet): every card of it was played in public,
        and the same cards are in the next deal's new hands by now."""
        if not (isinstance(key, tuple) and len(key) == 3 and key[0] == "table"):
            return False
        for table in self.manager().live_tables():
            if table.id == key[1] and table.match is not None:
                return bool(key[2] < table.match.deal_number)
        return False

    def check(self, key: object, screen: Screen) -> None:
        """Record a leak if ``screen`` shows a card hidden right now."""
        shown_text = "\n".join([screen.text, *(button.label for button in screen.buttons())])
        shown = set(CARD_RE.findall(shown_text.translate(BIDI)))
        leaked = set() if self._finished(key) else shown & hidden_cards(self.manager())
        if leaked:
            self.leaks.append(f"hidden cards {leaked} in {shown_text!r}")
        self.texts.add(screen.text)
        self.checked += 1

    def _checked_when_drawn(self, key: object, draw: Callable[[], Screen]) -> Callable[[], Screen]:
        def drawn() -> Screen:
            screen = draw()
            self.check(key, screen)
            return screen

        return drawn

    def attach(self, outbox: Outbox) -> None:
        for name in ("post", "show"):
            original = getattr(outbox, name)

            def queued(
                chat: str,
                key: object,
                screen: Screen | Callable[[], Screen],
                *,
                _original: Any = original,
                **options: Any,
            ) -> None:
                if chat == self.chat:
                    if callable(screen):
                        screen = self._checked_when_drawn(key, screen)
                    else:
                        self.check(key, screen)
                    if options.get("retire") is not None:
                        self.check(key, options["retire"])
                _original(chat, key, screen, **options)

            setattr(outbox, name, queued)


@dataclass
class PlatformWorld:
    """What both platform harnesses hold: a real SQLite file, virtual time for the outbox,
    the bot under test, and the watch over its public screens (kept across restarts)."""

    path: Path
    public_chat: str
    time: VirtualTime = field(default_factory=VirtualTime)
    db: Database | PostgresDatabase | None = None
    bot: Any = None
    watch: PublicWatch | None = None
    backend: BackendFactory | None = None  # None: the SQLite file at ``path``

    async def open_db(self) -> Database | PostgresDatabase:
        self.db = (
            self.backend.make() if self.backend else Database(self.path, synchronous="NORMAL")
        )
        await self.db.start()
        return self.db

    def watch_public(self) -> None:
        assert self.bot is not None
        if self.watch is None:
            self.watch = PublicWatch(self.public_chat, lambda: self.bot.manager)
        self.watch.attach(self.bot.outbox)

    @property
    def leaks(self) -> list[str]:
        return self.watch.leaks if self.watch else []

    @property
    def leaks_checked(self) -> int:
        return self.watch.checked if self.watch else 0

    @property
    def public_texts(self) -> set[str]:
        return self.watch.texts if self.watch else set()

    async def stop_bot(self) -> None:
        raise NotImplementedError

    async def shutdown(self) -> None:
        if self.bot is not None:
            await self.stop_bot()
            self.bot = None
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def settle(self) -> None:
        assert self.bot is not None
        for _ in range(3):
            await self.bot.manager.settle()
            await self.bot.outbox.flush()

    async def finish(self, table: LiveTable, users: list[int]) -> dict[int, list[str]]:
        """Play the running match to its end: each human's move as a sensible player
        makes it, handed to the real manager as a press; the computers play by
        themselves. Returns the cards each human played."""
        assert self.bot is not None
        manager = self.bot.manager
        seats = {table.seat_of(str(user)): user for user in users}
        played: dict[int, list[str]] = {user: [] for user in users}
        deadline = time.monotonic() + 30
        while table.status == "running":
            assert time.monotonic() < deadline, "the match did not finish in time"
            match = table.match
            assert match is not None
            humans = [seat for seat in match.to_act if seat in seats]
            if not humans:
                await manager.settle()
                await asyncio.sleep(0)
                continue
            user = seats[humans[0]]
            action = HeuristicPlayer().decide(match.view(humans[0]))
            if action["type"] == "play":
                played[user].append(action["card"])
            player = PlayerRef(user_id=str(user), name=f"Player {user}", language="en")
            await manager.press(
                Press(table_id=table.id, version=table.seq, action=action, player=player)
            )
        assert table.status == "finished"
        await self.settle()
        await counting(manager).settle()
        return played


def shown_hand(line: str) -> set[str]:
    """The cards of a record's hand line (``Name: ♣ 5 9 10 · ♦ — · …``) as card labels."""
    cards = set()
    for group in line.split(": ", 1)[1].split(" · "):
        suit, *ranks = group.split()
        cards |= {f"{rank}{suit}" for rank in ranks if rank != "—"}
    return cards


def dealt_hands(record: str) -> list[list[set[str]]]:
    """Every deal's four hands as dealt, read from an English match record."""
    return [
        [shown_hand(line) for line in block.splitlines()[1:5]]
        for block in record.split(t("en", "record_hands"))[1:]
    ]


def fields(key: str, text: str) -> dict[str, str]:
    """The values of the first line of ``text`` that reads as the English catalog's
    ``key`` line (the wording may change; its placeholders are what is checked)."""
    pattern = re.sub(
        r"\\\{(\w+)\\\}", lambda m: f"(?P<{m.group(1)}>.+?)", re.escape(CATALOG["en"][key])
    )
    for line in text.splitlines():
        found = re.fullmatch(pattern, line)
        if found:
            return found.groupdict()
    raise AssertionError(f"no {key} line in {text!r}")
