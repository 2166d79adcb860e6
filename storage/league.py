"""The league's SQL: who played which finished match and how it went, the ratings, and
the reads behind ``top``, ``stats`` and ``history``.

Only finished matches count (``results.status = 'finished'``): a stopped test table or a
lobby that expired never reaches the league. Results are counted once each, in the order
they finished (``results.rated``), so the ratings can be rebuilt exactly by clearing them
and counting every result again.

Every process counts (each learns of the matches it finished, and counts what waits at
start), so a count is a claim: the transaction that writes a match's players and ratings
first turns its result from waiting to counted, and writes nothing if another process did
that first. A rating is written only if it is still the one the count was computed from
(its ``matches`` grows by one with every count, so it is the rating's version): two
processes counting two matches of one player never lose either update; the later one
computes again from the rating the first wrote.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.backend import Backend, Statement

FINISHED = "finished"
WAITING, RATED, SKIPPED = 0, 1, 2  # results.rated

# The guards of a count (``Backend.write_if``): each must change its row.
CLAIM_RESULT = "UPDATE results SET rated = ? WHERE table_id = ? AND rated = ?"
FIRST_RATING = (
    "INSERT INTO ratings (platform, family, user_id, mu, sigma, matches, wins, updated_at)"
    " VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (platform, family, user_id) DO NOTHING"
)
NEXT_RATING = (
    "UPDATE ratings SET mu = ?, sigma = ?, matches = ?, wins = ?, updated_at = ?"
    " WHERE platform = ? AND family = ? AND user_id = ? AND matches = ?"
)
INSERT_MATCH_PLAYER = (
    "INSERT INTO match_players (table_id, seat, platform, chat, user_id, family, variant,"
    " outcome, score, figures, rating_before, rating_after, finished_at)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (table_id, seat) DO UPDATE SET"
    " platform = excluded.platform, chat = excluded.chat, user_id = excluded.user_id,"
    " family = excluded.family, variant = excluded.variant, outcome = excluded.outcome,"
    " score = excluded.score, figures = excluded.figures,"
    " rating_before = excluded.rating_before, rating_after = excluded.rating_after,"
    " finished_at = excluded.finished_at"
)
# The conservative estimate every leaderboard sorts by (openskill's ordinal).
ORDINAL = "(r.mu - 3 * r.sigma)"


@dataclass(frozen=True, slots=True)
class Waiting:
    """A finished match the league has not counted yet."""

    table_id: int
    platform: str
    chat: str
    variant: str
    finished_at: float


@dataclass(frozen=True, slots=True)
class Rating:
    user_id: str
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0


class Counted(enum.Enum):
    """How a count's write went."""

    DONE = "done"
    TAKEN = "taken"  # another process counted (or skipped) the match first
    STALE = "stale"  # a player's rating changed since it was read: compute again


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """One human seat of a counted match."""

    table_id: int
    seat: int
    platform: str
    chat: str
    user_id: str
    family: str
    variant: str
    outcome: str  # win loss draw left
    score: int
    figures: dict[str, int]
    rating_before: float
    rating_after: float
    finished_at: float


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One line of a chat's leaderboard: the rating is the platform's, the matches and
    wins those played in this chat."""

    user_id: str
    name: str
    mu: float
    sigma: float
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class FamilyStats:
    family: str
    matches: int
    wins: int
    draws: int
    left: int
    figures: dict[str, int]
    mu: float | None = None
    sigma: float | None = None


@dataclass(frozen=True, slots=True)
class PastMatch:
    table_id: int
    variant: str
    finished_at: float
    names: list[str]
    computers: list[bool]
    winners: list[int]
    draw: bool
    scores: list[int]


class LeagueStore:
    def __init__(self, db: Backend) -> None:
        self.db = db

    # ---------------------------------------------------------------- counting

    async def waiting(self) -> list[Waiting]:
        """Finished matches not counted yet, in the order they finished."""
        rows = await self.db.fetchall(
            "SELECT r.table_id, t.platform, t.chat, r.variant, r.finished_at FROM results r"
            " JOIN tables t ON t.id = r.table_id WHERE r.rated = ? AND r.status = ?"
            " ORDER BY r.finished_at, r.table_id",
            (WAITING, FINISHED),
        )
        return [Waiting(**dict(row)) for row in rows]

    async def ratings(self, platform: str, family: str, users: Sequence[str]) -> dict[str, Rating]:
        if not users:
            return {}
        marks = ",".join("?" * len(users))
        rows = await self.db.fetchall(
            "SELECT user_id, mu, sigma, matches, wins FROM ratings"
            f" WHERE platform = ? AND family = ? AND user_id IN ({marks})",
            (platform, family, *users),
        )
        return {row["user_id"]: Rating(**dict(row)) for row in rows}

    async def record(
        self,
        table_id: int,
        platform: str,
        family: str,
        players: Sequence[MatchPlayer],
        ratings: Sequence[tuple[Rating | None, Rating]],
        at: float,
    ) -> Counted:
        """A match counted: its result claimed, its players and their new ratings (each
        given with the rating it was computed from, None for a first match), in one
        transaction (a crash counts it wholly or not at all)."""
        guards: list[Statement] = [(CLAIM_RESULT, (RATED, table_id, WAITING))]
        # Rows in one order in every transaction: two counts that share players wait for
        # each other instead of deadlocking.
        for before, r in sorted(ratings, key=lambda pair: pair[1].user_id):
            if before is None:
                first = (platform, family, r.user_id, r.mu, r.sigma, r.matches, r.wins, at)
                guards.append((FIRST_RATING, first))
            else:
                values = (r.mu, r.sigma, r.matches, r.wins, at, platform, family, r.user_id)
                guards.append((NEXT_RATING, (*values, before.matches)))
        statements: list[Statement] = [
            (
                INSERT_MATCH_PLAYER,
                (
                    p.table_id,
                    p.seat,
                    p.platform,
                    p.chat,
                    p.user_id,
                    p.family,
                    p.variant,
                    p.outcome,
                    p.score,
                    json.dumps(p.figures, sort_keys=True),
                    p.rating_before,
                    p.rating_after,
                    p.finished_at,
                ),
            )
            for p in players
        ]
        if await self.db.write_if(guards, *statements):
            return Counted.DONE
        rows = await self.db.fetchall("SELECT rated FROM results WHERE table_id = ?", (table_id,))
        return Counted.STALE if rows and rows[0]["rated"] == WAITING else Counted.TAKEN

    async def skip(self, table_id: int) -> None:
        """A result the league cannot count (its log no longer replays): never retried."""
        await self.db.write((CLAIM_RESULT, (SKIPPED, table_id, WAITING)))

    async def reset(self) -> None:
        """Forget every rating and counted match; every result waits to be counted again."""
        await self.db.write(
            ("DELETE FROM match_players", ()),
            ("DELETE FROM ratings", ()),
            ("UPDATE results SET rated = ?", (WAITING,)),
        )

    # ---------------------------------------------------------------- reading

    async def leaderboard(
        self, platform: str, chat: str, family: str, min_matches: int, limit: int | None = None
    ) -> list[BoardEntry]:
        rows = await self.db.fetchall(
            "SELECT mp.user_id, COALESCE(p.name, mp.user_id) AS name, r.mu, r.sigma,"
            " COUNT(*) AS matches, SUM(CASE WHEN mp.outcome = 'win' THEN 1 ELSE 0 END) AS wins"
            " FROM match_players mp"
            " JOIN ratings r ON r.platform = mp.platform AND r.family = mp.family"
            " AND r.user_id = mp.user_id"
            " LEFT JOIN players p ON p.platform = mp.platform AND p.user_id = mp.user_id"
            " WHERE mp.platform = ? AND mp.chat = ? AND mp.family = ?"
            " GROUP BY mp.user_id, p.name, r.mu, r.sigma HAVING COUNT(*) >= ?"
            f" ORDER BY {ORDINAL} DESC, matches DESC, mp.user_id"
            + ("" if limit is None else " LIMIT ?"),
            (platform, chat, family, min_matches, *(() if limit is None else (limit,))),
        )
        return [BoardEntry(**dict(row)) for row in rows]

    async def rank(
        self, platform: str, family: str, user: str, min_matches: int
    ) -> tuple[int, int] | None:
        """The user's place among the platform's players with ``min_matches`` or more,
        and how many there are; None when the user is not among them."""
        rows = await self.db.fetchall(
            f"SELECT r.user_id, {ORDINAL} AS ordinal FROM ratings r"
            " WHERE r.platform = ? AND r.family = ? AND r.matches >= ?"
            " ORDER BY ordinal DESC, r.matches DESC, r.user_id",
            (platform, family, min_matches),
        )
        for place, row in enumerate(rows, 1):
            if row["user_id"] == user:
                return place, len(rows)
        return None

    async def player(self, platform: str, user: str, chat: str | None = None) -> list[FamilyStats]:
        """The user's counted matches per family (in ``chat`` only, when given), with the
        figures summed and the platform rating."""
        where = "mp.platform = ? AND mp.user_id = ?" + (" AND mp.chat = ?" if chat else "")
        params: tuple[Any, ...] = (platform, user, chat) if chat else (platform, user)
        rows = await self.db.fetchall(
            f"SELECT mp.family, mp.outcome, mp.figures FROM match_players mp WHERE {where}"
            " ORDER BY mp.finished_at",
            params,
        )
        totals: dict[str, dict[str, Any]] = {}
        for row in rows:
            entry = totals.setdefault(
                row["family"], {"matches": 0, "win": 0, "draw": 0, "left": 0, "figures": {}}
            )
            entry["matches"] += 1
            if row["outcome"] in ("win", "draw", "left"):
                entry[row["outcome"]] += 1
            for key, value in json.loads(row["figures"]).items():
                entry["figures"][key] = entry["figures"].get(key, 0) + int(value)
        found = await self.db.fetchall(
            "SELECT family, mu, sigma FROM ratings WHERE platform = ? AND user_id = ?",
            (platform, user),
        )
        rated = {row["family"]: (row["mu"], row["sigma"]) for row in found}
        return [
            FamilyStats(
                family,
                entry["matches"],
                entry["win"],
                entry["draw"],
                entry["left"],
                entry["figures"],
                *rated.get(family, (None, None)),
            )
            for family, entry in totals.items()
        ]

    async def history(self, platform: str, chat: str, limit: int) -> list[PastMatch]:
        """The chat's last finished matches, newest first, with the names they were
        played under."""
        rows = await self.db.fetchall(
            "SELECT r.table_id, r.variant, r.finished_at, r.winners, r.draw, r.scores"
            " FROM results r JOIN tables t ON t.id = r.table_id"
            " WHERE t.platform = ? AND t.chat = ? AND r.status = ?"
            " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?",
            (platform, chat, FINISHED, limit),
        )
        if not rows:
            return []
        ids = [row["table_id"] for row in rows]
        marks = ",".join("?" * len(ids))
        seats = await self.db.fetchall(
            f"SELECT table_id, seat, name, kind FROM seats WHERE table_id IN ({marks})", ids
        )
        names: dict[int, list[str]] = {i: ["?"] * 4 for i in ids}
        computers: dict[int, list[bool]] = {i: [False] * 4 for i in ids}
        for seat in seats:
            names[seat["table_id"]][seat["seat"]] = seat["name"]
            computers[seat["table_id"]][seat["seat"]] = seat["kind"] == "computer"
        return [
            PastMatch(
                table_id=row["table_id"],
                variant=row["variant"],
                finished_at=row["finished_at"],
                names=names[row["table_id"]],
                computers=computers[row["table_id"]],
                winners=json.loads(row["winners"]),
                draw=bool(row["draw"]),
                scores=json.loads(row["scores"]),
            )
            for row in rows
        ]

    async def counted(self, table_id: int) -> list[MatchPlayer]:
        """A counted match's players (its rating changes), in seat order."""
        rows = await self.db.fetchall(
            "SELECT * FROM match_players WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [
            MatchPlayer(**{**dict(row), "figures": json.loads(row["figures"])}) for row in rows
        ]

    async def all_ratings(self, platform: str | None = None) -> list[tuple[str, str, Rating]]:
        """Every rating as (platform, family, rating), for rebuild checks and exports."""
        rows = await self.db.fetchall(
            "SELECT platform, family, user_id, mu, sigma, matches, wins FROM ratings"
            + (" WHERE platform = ?" if platform else "")
            + " ORDER BY platform, family, user_id",
            (platform,) if platform else (),
        )
        return [
            (
                row["platform"],
                row["family"],
                Rating(row["user_id"], row["mu"], row["sigma"], row["matches"], row["wins"]),
            )
            for row in rows
        ]
