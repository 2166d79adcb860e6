"""A presenter over a real manager, SQLite and outbox, in virtual time: whole deals of
scripted humans (each pressing a legal move 1.5 s after their turn comes), every write
recorded with its time, chat, message and text."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.delivery import Outbox
from bot.delivery.split import TELEGRAM
from bot.discord.app import CHANNEL_INTERVAL, CHANNEL_LIMIT, CHANNEL_WINDOW
from bot.discord.texts import CONTENT
from bot.present import Presenter
from bot.render import Button, Screen, TimerStyle, no_timer
from bot.tables import LiveTable, Place, PlayerRef, Press, TableManager
from storage.database import Database
from tests.bot.virtual_time import VirtualTime

GROUP = "-100"
PLAYERS = [PlayerRef(user_id=str(100 + i), name=f"P{i}", language="en") for i in range(4)]
THINK = 1.5
# The outbox options each platform's ``build`` passes (``outbox_options``): the pace decides
# how many moves coalesce into one group write. Telegram's are the outbox's defaults.
PACES: dict[str, dict[str, Any]] = {
    "telegram": {"limit": TELEGRAM},
    "discord": {
        "group_limit": CHANNEL_LIMIT,
        "window": CHANNEL_WINDOW,
        "group_interval": CHANNEL_INTERVAL,
        "bot_limit": None,  # discord.py keeps Discord's global limit itself
        "limit": CONTENT,
    },
}


def sensible(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The first legal move, but a bid of 3 where there is one (four bids of 2 are under
    T41.6's minimum total and would redeal forever)."""
    three = {"type": "bid", "value": 3}
    return three if three in legal else legal[0]


@dataclass
class Write:
    at: float
    chat: str
    kind: str  # send / edit
    message: str
    screen: Screen


@dataclass
class Recorder:
    """A chat API that answers at once and remembers every write."""

    time: VirtualTime
    writes: list[Write] = field(default_factory=list)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        message = str(next(self.ids))
        self.writes.append(Write(self.time(), chat, "send", message, screen))
        return message

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self.writes.append(Write(self.time(), chat, "edit", message, screen))

    def to(self, chat: str) -> list[Write]:
        return [w for w in self.writes if w.chat == chat]

    def private(self) -> list[Write]:
        return [w for w in self.writes if w.chat != GROUP]


class Surface:
    """Every human's private chat is open (their user id is the chat)."""

    def __init__(self, timer: TimerStyle = no_timer) -> None:
        self.timer = timer

    def private_chat(self, table: LiveTable, seat: int) -> str | None:
        occupant = table.seats[seat]
        if occupant is None or occupant.kind != "human" or occupant.owner is None:
            return None
        return occupant.owner

    def dm_pending(self, table: LiveTable, seat: int) -> bool:
        return False

    def decorate(self, table: LiveTable, screen: Screen, seat: int | None = None) -> Screen:
        return screen

    def review(self, table: LiveTable, deal: int) -> Button | None:
        return None


@dataclass
class Tee:
    """Hands every publication to the presenter and keeps the events (the truth)."""

    presenter: Presenter
    events: list[dict[str, Any]] = field(default_factory=list)
    last: list[dict[str, Any]] = field(default_factory=list)  # the commit being presented

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        self.events += events
        self.last = events
        self.presenter.present(table, events)


@dataclass
class Table:
    manager: TableManager
    table: LiveTable
    outbox: Outbox
    presenter: Presenter
    recorder: Recorder
    tee: Tee
    time: VirtualTime
    humans: int

    async def play(
        self,
        until: Callable[[LiveTable], bool],
        choose: Callable[[list[dict[str, Any]]], dict[str, Any]] = sensible,
    ) -> None:
        """Humans press ``choose(legal)`` THINK seconds after their turn, until ``until``."""
        table = self.table
        for _ in range(5000):
            await self.manager.settle()
            if table.status != "running" or until(table):
                break
            assert table.match is not None
            seat = next(
                (s for s in table.match.to_act if s < self.humans and not table.seats[s].away),  # type: ignore[union-attr]
                None,
            )
            if seat is None:
                await self.time.sleep(0.1)
                continue
            await self.time.sleep(THINK)
            legal = table.match.view(seat)["legal_actions"]
            await self.manager.press(
                Press(
                    table_id=table.id,
                    version=table.seq,
                    action=choose(legal),
                    player=PLAYERS[seat],
                )
            )
        await self.manager.settle()
        await self.outbox.flush()


@asynccontextmanager
async def running_table(
    tmp_path: Path,
    variant: str = "syrian41",
    humans: int = 4,
    *,
    surface: Surface | None = None,
    seed: int = 7,
    outbox_options: dict[str, Any] | None = None,
) -> AsyncIterator[Table]:
    time = VirtualTime(1_000_000.0)
    recorder = Recorder(time)
    async with Database.open(tmp_path / "s.sqlite", synchronous="NORMAL") as db:
        outbox = Outbox(recorder, clock=time, sleep=time.sleep, **(outbox_options or {}))
        presenter = Presenter(outbox, surface or Surface(), clock=time)
        tee = Tee(presenter)
        manager = TableManager(db, tee, clock=time, seed_source=lambda: seed)
        await manager.start()
        table = await manager.create(
            Place("test", GROUP),
            PLAYERS[0],
            {"variant": variant, "language": "en"},
        )
        for player in PLAYERS[1:humans]:
            await manager.join(table.id, player)
        while table.free_seats():
            await manager.add_computer(table.id, PLAYERS[0].user_id)
        await manager.begin(table.id, PLAYERS[0].user_id)
        try:
            yield Table(manager, table, outbox, presenter, recorder, tee, time, humans)
        finally:
            await manager.close()
            await outbox.close()
