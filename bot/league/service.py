"""The league: counting finished matches into ratings, stats and history, and answering
``top``, ``stats``, ``history`` and the match record for every platform.

A finished match is counted once, in the background, in the order matches finished: its
log is replayed (``engine.records``) for each seat's figures, the ratings are updated
(``ratings.py``), and both are written in one transaction that claims the result: of
several processes counting at once, exactly one counts each match. A crash before that
write leaves the result waiting; the next start (or the next finished match) counts it.
``rebuild`` clears the league and counts every result again, in the same order, so it
gives exactly the same ratings.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from bot.league.figures import FAMILIES, family, figures
from bot.league.ratings import START, SeatRating, computer, rate
from bot.logs import where
from bot.render.league import shown
from bot.tables.config import TableConfig
from bot.tables.errors import Refusal
from bot.tables.manager import TableManager
from engine.records import MatchRecord, replay
from storage.errors import StorageError
from storage.league import (
    BoardEntry,
    Counted,
    FamilyStats,
    LeagueStore,
    MatchPlayer,
    PastMatch,
    Rating,
    Waiting,
)
from storage.records import ResultRecord, StoredTable
from storage.store import Store

log = logging.getLogger("sahra.league")

MIN_MATCHES = 5  # matches in a chat before a player appears on its leaderboard
TOP_SIZE = 10
HISTORY_SIZE = 10
CLOSE_SECONDS = 5.0
OVER = ("finished", "stopped", "abandoned")  # a match whose cards may all be shown


def outcome(seat: int, winners: list[int], draw: bool, away: list[int]) -> str:
    if seat in away:
        return "left"  # Jawaker's rule: leaving a running match is a loss
    if draw:
        return "draw"
    return "win" if seat in winners else "loss"


class League:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.games = LeagueStore(store.db)
        self.clock = clock
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self._closing = False

    # ---------------------------------------------------------------- counting

    def finished(self) -> None:
        """A match just finished (or the process started): count what waits, in the
        background and supervised; a run already going counts it too."""
        if self._closing:
            return  # the next start counts it
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            self._again = False
            try:
                await self.catch_up()
            except Exception as error:  # logged; the next finish or start counts it
                # Type and place only: a replay's refusal could name a card.
                log.error(
                    "event=league_failed error=%s where=%s", type(error).__name__, where(error)
                )
            if not self._again or self._closing:
                return

    async def settle(self) -> None:
        """Wait until nothing waits to be counted (tests, shutdown)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def close(self) -> None:
        """Let the match being counted finish (a replay and one write: milliseconds), so no
        read is cut off half-way through opening its connection; cancel it only if the
        database keeps it longer than CLOSE_SECONDS. What is left waits for the next start."""
        self._closing = True
        task = self._task
        if task is None or task.done():
            return
        await asyncio.wait({task}, timeout=CLOSE_SECONDS)
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def catch_up(self) -> int:
        """Count every finished match not counted yet; how many were counted."""
        async with self._lock:
            return await self._count_waiting()

    async def rebuild(self) -> int:
        """Forget the league and count every finished match again, in order."""
        async with self._lock:
            await self.games.reset()
            return await self._count_waiting()

    async def _count_waiting(self) -> int:
        counted = 0
        for waiting in await self.games.waiting():
            counted += await self._count(waiting)
        return counted

    async def _count(self, waiting: Waiting) -> int:
        stored = await self.store.load_table(waiting.table_id)
        result = await self.store.result(waiting.table_id)
        if stored is None or result is None:
            await self.games.skip(waiting.table_id)
            return 0
        try:
            config = TableConfig.model_validate_json(stored.table.config)
            per_seat = _figures(stored, config)
        except StorageError:
            raise
        except Exception as error:  # a log that no longer replays: never counted
            log.error(
                "event=league_skipped table=%d error=%s where=%s",
                waiting.table_id,
                type(error).__name__,
                where(error),
            )
            await self.games.skip(waiting.table_id)
            return 0
        game = family(waiting.variant)
        owners = {seat: owner for seat, owner in enumerate(result.players) if owner is not None}
        # Another process may count a match of these players meanwhile: the write is then
        # refused (STALE) and the ratings are read again; each refusal means that process
        # counted one, so this ends.
        while True:
            current = await self.games.ratings(waiting.platform, game, list(owners.values()))
            players, ratings = _changes(waiting, game, config, result, per_seat, current)
            counted = await self.games.record(
                waiting.table_id, waiting.platform, game, players, ratings, self.clock()
            )
            if counted is not Counted.STALE:
                break
            log.info("event=league_recount table=%d", waiting.table_id)
        if counted is Counted.TAKEN:
            return 0  # another process counted it first
        log.info(
            "event=match_counted table=%d family=%s humans=%d", waiting.table_id, game, len(owners)
        )
        return 1

    # ---------------------------------------------------------------- reading

    async def top(self, platform: str, chat: str, game: str) -> list[BoardEntry]:
        return await self.games.leaderboard(platform, chat, game, MIN_MATCHES, TOP_SIZE)

    async def stats(
        self, platform: str, user: str, chat: str | None = None
    ) -> list[tuple[FamilyStats, tuple[int, int] | None]]:
        """The user's figures per family (in ``chat`` only, when asked in a group) with
        their rank: in the chat's leaderboard, or among all the platform's players; in the
        order of ``FAMILIES``."""
        found = []
        order = {game: index for index, game in enumerate(FAMILIES)}
        entries = await self.games.player(platform, user, chat)
        for entry in sorted(entries, key=lambda entry: order.get(entry.family, len(order))):
            if chat is None:
                place = await self.games.rank(platform, entry.family, user, MIN_MATCHES)
            else:
                board = await self.games.leaderboard(platform, chat, entry.family, MIN_MATCHES)
                users = [line.user_id for line in board]
                place = (users.index(user) + 1, len(users)) if user in users else None
            found.append((entry, place))
        return found

    async def history(self, platform: str, chat: str) -> list[PastMatch]:
        return await self.games.history(platform, chat, HISTORY_SIZE)

    async def record(
        self, platform: str, table_id: int, user: str
    ) -> tuple[MatchRecord, list[str]]:
        """A match's whole record (every hand) and its seat names, for one of its players
        once it is over; refused before (hidden cards stay hidden while play goes on)."""
        stored = await self.store.load_table(table_id)
        if stored is None or stored.table.platform != platform:
            raise Refusal("unknown_table")
        if stored.table.status not in OVER or not stored.actions:
            raise Refusal("record_not_over")
        if user not in {seat.owner for seat in stored.seats if seat.kind == "human"}:
            raise Refusal("record_not_player")
        config = TableConfig.model_validate_json(stored.table.config)
        names = ["?"] * 4
        for seat in stored.seats:
            names[seat.seat] = seat.name
        return _replayed(stored, config), names


def _replayed(stored: StoredTable, config: TableConfig) -> MatchRecord:
    moves = [(action.seat, action.action) for action in stored.actions]
    row = stored.table
    return replay(row.variant, config.engine_options(), row.seed, row.decks, moves)


def _figures(stored: StoredTable, config: TableConfig) -> list[dict[str, int]]:
    return figures(_replayed(stored, config))


def _changes(
    waiting: Waiting,
    game: str,
    config: TableConfig,
    result: ResultRecord,
    per_seat: list[dict[str, int]],
    current: dict[str, Rating],
) -> tuple[list[MatchPlayer], list[tuple[Rating | None, Rating]]]:
    """The match's players and their new ratings, each with the rating it follows (None
    for a first match), computed from ``current``."""
    owners = {seat: owner for seat, owner in enumerate(result.players) if owner is not None}
    seats = []
    for seat in range(4):
        owner = result.players[seat]
        if owner is None:
            seats.append(computer(config.difficulty))
            continue
        known = current.get(owner)
        mu, sigma = (known.mu, known.sigma) if known else START
        seats.append(SeatRating(mu, sigma, left=seat in result.away))
    new = rate(game != "solo", seats, result.winners, result.draw, result.scores)
    players: list[MatchPlayer] = []
    ratings: list[tuple[Rating | None, Rating]] = []
    for seat, owner in owners.items():
        rated = new[seat]
        assert rated is not None
        how = outcome(seat, result.winners, result.draw, result.away)
        known = current.get(owner)
        after = Rating(
            owner,
            *rated,
            (known.matches if known else 0) + 1,
            (known.wins if known else 0) + (how == "win"),
        )
        ratings.append((known, after))
        players.append(
            MatchPlayer(
                table_id=waiting.table_id,
                seat=seat,
                platform=waiting.platform,
                chat=waiting.chat,
                user_id=owner,
                family=game,
                variant=waiting.variant,
                outcome=how,
                score=result.scores[seat],
                figures=per_seat[seat],
                rating_before=shown(seats[seat].mu, seats[seat].sigma),
                rating_after=shown(*rated),
                finished_at=result.finished_at,
            )
        )
    return players, ratings


def counting(manager: TableManager) -> League:
    """The league that counts ``manager``'s finished matches: handed to the manager once
    (it sits below the league and only knows it as ``Results``), then shared by whoever
    answers the league's commands on any platform."""
    if isinstance(manager.results, League):
        return manager.results
    league = League(manager.store, manager.clock)
    manager.results = league
    return league
