"""The phases of a match as a person meets them on the web table, each set up in this
process on a real table manager (SQLite) behind the real web table: one person, Layla, in
seat 0, and three computers, on a table in the language its page is to show. The person's
moves are pressed in-process (the page is only looked at), so a phase is reached in
milliseconds, and exactly: every table's seed is fixed (the computers' choices follow from
it), so a phase shows the same cards at every run and in both languages.

- ``lobby``: Syrian 41 created and not begun, the person seated, commands offered;
- ``bidding``: Syrian 41, the person to bid;
- ``trump``: Solo Tarneeb, the person bid the highest bid (so won the auction) and
  chooses trump;
- ``contract``: Trix Complex, the person owns the first kingdom and chooses the contract
  (TX.3: the holder of 7♥ in the first deal owns it; the seed is one that deals it to
  seat 0);
- ``doubling``: the same deal once the person chose Complex: TX.7's window open to them
  (the seed also deals them K♥ or a queen);
- ``play``: Syrian 41, the person to play a card with cards already on the trick;
- ``result``: Syrian 41 at the person's last card of a deal: a page opens there and
  ``finish_deal`` plays it, so the page shows that deal's result card (``PACE`` keeps it
  a minute);
- ``over``: Syrian 41 played to its end, the person choosing their first legal action.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from bot.delivery.router import PlatformRouter
from bot.tables import LiveTable, PlayerRef, Press, TableConfig, TableManager
from bot.tables.live import Place
from bot.tables.pace import Pace
from bot.tables.reviews import Analyse
from bot.web.app import web_table
from bot.web.server import WebTable
from bot.web.socket import Visitor
from storage.database import Database

PERSON = PlayerRef(user_id="1", name="Layla", language="en")
# Moves are shown at once; a deal's result card stays a minute (long enough to look at it
# at every size), as it would until the player continues.
PACE = Pace(card=0, trick=0, sweep=0, announce=0, result=60)
PHASES = ("lobby", "bidding", "trump", "contract", "doubling", "play", "result", "over")
SEED = 33  # every table's but Trix Complex's (``trix_seed``)
# What the page shows once it has drawn the phase (a selector that then matches).
DRAWN = {
    "lobby": "#commands:not([hidden]) button.command",
    "bidding": "#decisions:not([hidden]) button.decision.bid",
    "trump": "#decisions:not([hidden]) button.decision.trump",
    "contract": "#decisions:not([hidden]) button.decision.contract",
    "doubling": "#doubling:not([hidden]) button.confirm",
    "play": "body[data-your-turn='true'] #trick .played",
    "result": "#overlay:not([hidden]) #panel[data-kind='result'] #panel-actions button",
    "over": "#overlay:not([hidden]) #panel[data-kind='over'] #panel-actions button",
}
DOUBLABLE = frozenset({"KH", "QS", "QH", "QD", "QC"})  # TX.7

View = dict[str, Any]
Action = dict[str, Any]


def first_legal(view: View) -> Action:
    legal: list[Action] = view["legal_actions"]
    return legal[0]


def highest_bid(view: View) -> Action:
    """The highest legal bid: nobody outbids it, so the person wins the auction."""
    bids: list[Action] = [a for a in view["legal_actions"] if a["type"] == "bid"]
    return max(bids, key=lambda action: int(action["value"])) if bids else first_legal(view)


def offers(kind: str) -> Callable[[View], bool]:
    def offered(view: View) -> bool:
        return any(action["type"] == kind for action in view["legal_actions"])

    return offered


def to_play_on_a_trick(view: View) -> bool:
    return offers("play")(view) and bool(view["trick"])


def at_last_card(view: View) -> bool:
    return offers("play")(view) and len(view["hand"]) == 1


def never(view: View) -> bool:
    return False


def person_owns_the_first_kingdom(seed: int) -> bool:
    """Whether, dealt from ``seed``, seat 0 chooses Trix Complex's first contract (it holds
    7♥, TX.3) and holds a card it may double (TX.7)."""
    options = TableConfig(variant="trix_complex").engine_options()
    view = engine.new_match("trix_complex", seed=seed, options=options).view(0)
    return offers("contract")(view) and bool(DOUBLABLE & set(view["hand"]))


def trix_seed() -> int:
    return next(seed for seed in range(1, 1000) if person_owns_the_first_kingdom(seed))


@dataclass
class Site:
    """The real web table on a real manager, in this process."""

    manager: TableManager
    web: WebTable
    places: int = 0

    def url(self, table: LiveTable, language: str) -> str:
        """The address of the person's page of ``table`` (a session link, as from a chat)."""
        visitor = Visitor("telegram", PERSON.user_id, PERSON.name, language, table.id)
        session = self.web.gate.session(visitor, table.id)
        return f"http://127.0.0.1:{self.web.port}/#session={session}"

    async def table(
        self, variant: str, language: str, *, seed: int = SEED, begin: bool = True
    ) -> LiveTable:
        """A table of ``variant`` in ``language`` (its pages open in it), the person in
        seat 0 and three computers; begun unless ``begin`` is False."""
        self.places += 1
        place = Place("telegram", f"-{self.places}", "")
        config = {"variant": variant, "language": language}
        table = await self.manager.create(place, PERSON, config, seed=seed)
        for _ in range(3):
            await self.manager.add_computer(table.id, PERSON.user_id)
        if begin:
            await self.manager.begin(table.id, PERSON.user_id)
        return table

    async def press(self, table: LiveTable, action: Action) -> None:
        press = Press(table_id=table.id, version=table.seq, action=action, player=PERSON)
        await self.manager.press(press)
        await self.manager.settle()

    async def act(
        self, table: LiveTable, done: Callable[[View], bool], pick: Callable[[View], Action]
    ) -> None:
        """The person acts (``pick``) whenever it is their turn until ``done`` holds for
        their view, or the match ends (then ``done`` must hold for the finished table)."""
        for _ in range(20_000):
            await self.manager.settle()
            match = table.match
            assert match is not None
            view = match.view(0)
            if table.status != "running":
                assert done is never, f"the match ended ({table.status}) before the phase"
                return
            if done(view):
                return
            if not view["legal_actions"]:
                await asyncio.sleep(0.01)  # a computer's move, or a forced one, is due
                continue
            await self.press(table, pick(view))
        raise AssertionError("the phase was never reached")


@asynccontextmanager
async def site(
    folder: Path, pace: Pace = PACE, analyse: Analyse | None = None
) -> AsyncIterator[Site]:
    async with Database.open(folder / "phases.sqlite") as db:
        router = PlatformRouter()
        manager = TableManager(db, router)
        await manager.start()
        web = await web_table(
            manager, router, public_url="http://127.0.0.1:9", pace=pace, analyse=analyse
        )
        await web.start("127.0.0.1", 0)
        try:
            yield Site(manager, web)
        finally:
            await web.stop()
            await manager.close()


async def reach(site: Site, phase: str, language: str) -> LiveTable:
    """A table in ``language`` at ``phase`` (``result``: at the person's last card, for
    ``finish_deal`` to end the deal while a page looks)."""
    if phase == "lobby":
        return await site.table("syrian41", language, begin=False)
    if phase in ("contract", "doubling"):
        table = await site.table("trix_complex", language, seed=trix_seed())
        await site.manager.settle()
        if phase == "doubling":
            await site.press(table, {"type": "contract", "contract": "complex"})
        return table
    table = await site.table("tarneeb_solo" if phase == "trump" else "syrian41", language)
    done, pick = {
        "bidding": (offers("bid"), first_legal),
        "trump": (offers("trump"), highest_bid),
        "play": (to_play_on_a_trick, first_legal),
        "result": (at_last_card, first_legal),
        "over": (never, first_legal),
    }[phase]
    await site.act(table, done, pick)
    return table


async def finish_deal(site: Site, table: LiveTable) -> None:
    """The person plays their last card: the deal ends."""
    match = table.match
    assert match is not None
    await site.press(table, first_legal(match.view(0)))
