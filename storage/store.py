"""The typed store: every SQL statement Sahra runs lives here (or in ``schema.py``).

The core hands ``Store.commit`` a list of changes (``storage.records``); the store turns
each into a statement and commits them as one job of the group-committing writer, in the
order given. Reads return records. This is the seam a second backend plugs into: it
implements the same methods for its own dialect.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from storage.backend import Backend, Statement
from storage.errors import Conflict, StorageError
from storage.records import (
    ActionAppended,
    ActionRecord,
    Change,
    ChatLanguageSet,
    Contact,
    DmReachability,
    InboxRow,
    MessageDropped,
    MessageRow,
    MessageSaved,
    PlayerSeen,
    ResultRecord,
    ResultRecorded,
    SeatRecord,
    SeatSet,
    StoredReview,
    StoredTable,
    TableCreated,
    TableRecord,
    TableSummary,
    TableUpdated,
)

LIVE_STATUSES = ("lobby", "running")
INBOX_CHANNEL = "sahra_inbox"  # the NOTIFY channel an owner listens on
TABLE_CHANNEL = "sahra_table"  # a table's id, at every commit that changed it (schema_pg 4)
PAGE_CHANNEL = "sahra_page"  # an owner's answer to a page move another process forwarded
SPENT_PURGE_SECONDS = 60.0  # spent links expired long enough are dropped this often
SPENT_MARGIN = 600.0  # seconds a spent link is kept past its expiry (clocks differ)
IDS_PER_READ = 5000  # table ids per IN (…) list: under SQLite's and PostgreSQL's limits
Row = Any  # a backend's row: by column name and by position

INSERT_TABLE = (
    "INSERT INTO tables (id, platform, chat, thread, variant, config, seed, decks, status,"
    " creator, created_at, updated_at, last_human_at, deadline, deadline_kind, seq, guild,"
    " lobby_version) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
UPDATE_TABLE = (
    "UPDATE tables SET status = ?, seq = ?, updated_at = ?, last_human_at = ?, deadline = ?,"
    " deadline_kind = ?, lobby_version = ? WHERE id = ?"
)
UPSERT_SEAT = (
    "INSERT INTO seats (table_id, seat, kind, owner, name, language, away, timeouts, ready)"
    " VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (table_id, seat) DO UPDATE SET"
    " kind = excluded.kind, owner = excluded.owner, name = excluded.name,"
    " language = excluded.language, away = excluded.away, timeouts = excluded.timeouts,"
    " ready = excluded.ready"
)
DELETE_SEAT = "DELETE FROM seats WHERE table_id = ? AND seat = ?"
INSERT_ACTION = (
    "INSERT INTO actions (table_id, seq, seat, action, source, at, deadline, deadline_kind)"
    " VALUES (?,?,?,?,?,?,?,?)"
)
UPSERT_PLAYER = (
    "INSERT INTO players (platform, user_id, name, language, updated_at) VALUES (?,?,?,?,?)"
    " ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name,"
    " language = excluded.language, updated_at = excluded.updated_at"
)
# A result written again (never twice in practice) is counted again by the league.
INSERT_RESULT = (
    "INSERT INTO results (table_id, variant, status, finished_at, winners, draw, scores,"
    " players, away) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (table_id) DO UPDATE SET"
    " variant = excluded.variant, status = excluded.status,"
    " finished_at = excluded.finished_at, winners = excluded.winners, draw = excluded.draw,"
    " scores = excluded.scores, players = excluded.players, away = excluded.away, rated = 0"
)
UPSERT_CHAT = (
    "INSERT INTO chats (platform, chat, language, updated_at) VALUES (?,?,?,?)"
    " ON CONFLICT (platform, chat) DO UPDATE SET language = excluded.language,"
    " updated_at = excluded.updated_at"
)
UPSERT_DM = (
    "INSERT INTO players (platform, user_id, name, language, dm_ok, updated_at)"
    " VALUES (?,?,?,?,?,?) ON CONFLICT (platform, user_id) DO UPDATE SET"
    " dm_ok = excluded.dm_ok, updated_at = excluded.updated_at"
)

UPSERT_MESSAGE = (
    "INSERT INTO messages (platform, chat, key, message_id, grp, at) VALUES (?,?,?,?,?,?)"
    " ON CONFLICT (platform, chat, key) DO UPDATE SET message_id = excluded.message_id,"
    " grp = excluded.grp, at = excluded.at"
)
DELETE_MESSAGE = "DELETE FROM messages WHERE platform = ? AND chat = ? AND key = ?"


def encode_action(action: dict[str, Any]) -> str:
    """The action as JSON for the log; card plays (nearly every action) without json.dumps.
    Only called once the engine accepted the action, so a play's card is a valid code."""
    if len(action) == 2 and action.get("type") == "play":
        card = action["card"]
        if type(card) is str and card.isalnum():
            return '{"type":"play","card":"' + card + '"}'
    return json.dumps(action, separators=(",", ":"))


def _seat_row(table_id: int, record: SeatRecord) -> tuple[Any, ...]:
    return (
        table_id,
        record.seat,
        record.kind,
        record.owner,
        record.name,
        record.language,
        int(record.away),
        record.timeouts,
        int(record.ready),
    )


def _statement(change: Change) -> Statement:
    """One change as one statement of this dialect."""
    if isinstance(change, ActionAppended):  # first: nearly every change is a move
        move = change.record
        return (
            INSERT_ACTION,
            (
                change.table_id,
                move.seq,
                move.seat,
                encode_action(move.action),
                move.source,
                move.at,
                move.deadline,
                move.deadline_kind,
            ),
        )
    if isinstance(change, TableUpdated):
        return (
            UPDATE_TABLE,
            (
                change.status,
                change.seq,
                change.updated_at,
                change.last_human_at,
                change.deadline,
                change.deadline_kind,
                change.lobby_version,
                change.table_id,
            ),
        )
    if isinstance(change, SeatSet):
        if change.record is None:
            return (DELETE_SEAT, (change.table_id, change.seat))
        return (UPSERT_SEAT, _seat_row(change.table_id, change.record))
    if isinstance(change, TableCreated):
        t = change.record
        decks = None if t.decks is None else json.dumps(t.decks)
        return (
            INSERT_TABLE,
            (
                t.id,
                t.platform,
                t.chat,
                t.thread,
                t.variant,
                t.config,
                t.seed,
                decks,
                t.status,
                t.creator,
                t.created_at,
                t.updated_at,
                t.last_human_at,
                t.deadline,
                t.deadline_kind,
                t.seq,
                t.guild,
                t.lobby_version,
            ),
        )
    if isinstance(change, PlayerSeen):
        return (
            UPSERT_PLAYER,
            (change.platform, change.user_id, change.name, change.language, change.at),
        )
    if isinstance(change, ResultRecorded):
        r = change.record
        return (
            INSERT_RESULT,
            (
                r.table_id,
                r.variant,
                r.status,
                r.finished_at,
                json.dumps(r.winners),
                int(r.draw),
                json.dumps(r.scores),
                json.dumps(r.players),
                json.dumps(r.away),
            ),
        )
    if isinstance(change, ChatLanguageSet):
        return (UPSERT_CHAT, (change.platform, change.chat, change.language, change.at))
    if isinstance(change, DmReachability):
        return (
            UPSERT_DM,
            (
                change.platform,
                change.user_id,
                change.name,
                change.language,
                int(change.ok),
                change.at,
            ),
        )
    if isinstance(change, MessageSaved):
        return (
            UPSERT_MESSAGE,
            (
                change.platform,
                change.chat,
                change.key,
                change.message_id,
                int(change.group),
                change.at,
            ),
        )
    if isinstance(change, MessageDropped):
        return (DELETE_MESSAGE, (change.platform, change.chat, change.key))
    raise TypeError(f"not a change: {change!r}")


def _table(row: Row) -> TableRecord:
    return TableRecord(
        id=row["id"],
        platform=row["platform"],
        chat=row["chat"],
        thread=row["thread"],
        variant=row["variant"],
        config=row["config"],
        seed=row["seed"],
        decks=None if row["decks"] is None else json.loads(row["decks"]),
        status=row["status"],
        creator=row["creator"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        last_human_at=row["last_human_at"],
        deadline=row["deadline"],
        deadline_kind=row["deadline_kind"],
        seq=row["seq"],
        guild=row["guild"],
        lobby_version=row["lobby_version"],
    )


def _seat(row: Row) -> SeatRecord:
    return SeatRecord(
        seat=row["seat"],
        kind=row["kind"],
        owner=row["owner"],
        name=row["name"],
        language=row["language"],
        away=bool(row["away"]),
        timeouts=row["timeouts"],
        ready=bool(row["ready"]),
    )


def _action(row: Row) -> ActionRecord:
    return ActionRecord(
        seq=row["seq"],
        seat=row["seat"],
        action=json.loads(row["action"]),
        source=row["source"],
        at=row["at"],
        deadline=row["deadline"],
        deadline_kind=row["deadline_kind"],
    )


ACTION_COLUMNS = (
    "SELECT table_id, seq, seat, action, source, at, deadline, deadline_kind FROM actions"
)


def _assembled(rows: list[Row], seats: list[Row], actions: list[Row]) -> list[StoredTable]:
    """Tables from their rows, with the seats and moves read for them (a lobby has no log;
    a table's moves come in ``seq`` order)."""
    seats_of: dict[int, list[SeatRecord]] = {}
    for seat in seats:
        seats_of.setdefault(seat["table_id"], []).append(_seat(seat))
    moves_of: dict[int, list[ActionRecord]] = {}
    for action in actions:
        moves_of.setdefault(action["table_id"], []).append(_action(action))
    stored = []
    for row in rows:
        table = _table(row)
        moves = moves_of.get(table.id, []) if table.status != "lobby" else []
        stored.append(StoredTable(table, seats_of.get(table.id, []), moves))
    return stored


class Store:
    """Sahra's data on a backend: SQLite (the embedded default) or PostgreSQL."""

    def __init__(self, db: Backend) -> None:
        self.db = db
        self._next_purge = 0.0  # when spent links are next dropped (``spend_link``)

    # ---------------------------------------------------------------- writes

    async def commit(self, changes: Iterable[Change]) -> None:
        """Write every change, in order, in one transaction; return once it is durable.
        Raises ``Conflict`` for a broken uniqueness rule and ``StorageError`` for any
        other failure; either way nothing of it was written."""
        statements = [_statement(change) for change in changes]
        if statements:
            await self._write(statements)

    async def _write(self, statements: Sequence[Statement]) -> None:
        try:
            await self.db.write(*statements)
        except sqlite3.IntegrityError as error:
            raise Conflict(str(error)) from error
        except StorageError:
            raise
        except Exception as error:  # any failure of the write is the same to the core
            raise StorageError(f"{type(error).__name__}: {error}") from error

    # ---------------------------------------------------------------- tables

    async def new_table_id(self) -> int | None:
        """A table id no other process will hand out (PostgreSQL's ``table_ids``); None on
        SQLite, where one process runs the tables and counts on from ``max_table_id``."""
        if self.db.dialect != "postgresql":
            return None
        rows = await self.db.fetchall("SELECT nextval('table_ids')")
        return int(rows[0][0])

    async def table_home(self, table_id: int) -> TableRecord | None:
        """A table's row without its seats or log: where it lives (forwarding asks)."""
        rows = await self.db.fetchall("SELECT * FROM tables WHERE id = ?", (table_id,))
        return _table(rows[0]) if rows else None

    async def live_table_at(self, platform: str, chat: str, thread: str = "") -> int | None:
        """The live table of a chat (a Discord Activity asks which table its channel has)."""
        rows = await self.db.fetchall(
            "SELECT id FROM tables WHERE platform = ? AND chat = ? AND thread = ?"
            " AND status IN (?, ?) ORDER BY id DESC LIMIT 1",
            (platform, chat, thread, *LIVE_STATUSES),
        )
        return int(rows[0]["id"]) if rows else None

    async def max_table_id(self) -> int:
        rows = await self.db.fetchall("SELECT max(id) FROM tables")
        return int(rows[0][0] or 0)

    async def live_tables(
        self, keep: Callable[[TableRecord], bool] | None = None
    ) -> list[StoredTable]:
        """Every lobby and running table with its seats and (running) its whole log: three
        reads in all, however many tables there are (this is the start-up's load).
        ``keep``: only the tables it accepts (a partition this process has just taken);
        the seats and logs of the others are not read (two more reads per 5,000 kept)."""
        rows = await self.db.fetchall(
            "SELECT * FROM tables WHERE status IN (?, ?) ORDER BY id", LIVE_STATUSES
        )
        if keep is None:
            live = "SELECT id FROM tables WHERE status IN (?, ?)"
            seats = await self.db.fetchall(
                f"SELECT * FROM seats WHERE table_id IN ({live}) ORDER BY table_id, seat",
                LIVE_STATUSES,
            )
            actions = await self.db.fetchall(
                f"{ACTION_COLUMNS} WHERE table_id IN ({live}) ORDER BY table_id, seq",
                LIVE_STATUSES,
            )
            return _assembled(rows, seats, actions)
        rows = [row for row in rows if keep(_table(row))]
        ids = [row["id"] for row in rows]
        seats, actions = [], []
        for start in range(0, len(ids), IDS_PER_READ):  # a driver's parameter limit
            chunk = ids[start : start + IDS_PER_READ]
            marks = ",".join("?" * len(chunk))
            seats += await self.db.fetchall(
                f"SELECT * FROM seats WHERE table_id IN ({marks}) ORDER BY table_id, seat", chunk
            )
            actions += await self.db.fetchall(
                f"{ACTION_COLUMNS} WHERE table_id IN ({marks}) ORDER BY table_id, seq", chunk
            )
        return _assembled(rows, seats, actions)

    async def load_table(self, table_id: int) -> StoredTable | None:
        return await self.table_since(table_id, 0)  # moves are numbered from 1

    async def table_since(self, table_id: int, seq: int) -> StoredTable | None:
        """The table's row and seats as they are now, and only its moves after ``seq``
        (a process following a table it does not own reads just what is new)."""
        rows = await self.db.fetchall("SELECT * FROM tables WHERE id = ?", (table_id,))
        if not rows:
            return None
        seats = await self.db.fetchall(
            "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        actions = await self.db.fetchall(
            f"{ACTION_COLUMNS} WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, seq)
        )
        return _assembled(rows, seats, actions)[0]

    async def notify(self, channel: str, payload: str) -> None:
        """A NOTIFY on ``channel`` (PostgreSQL: every process listening hears it)."""
        await self.db.fetchall("SELECT pg_notify(?, ?)", (channel, payload))

    async def table_summaries(self) -> list[TableSummary]:
        """The live tables for ``sahra tables``."""
        rows = await self.db.fetchall(
            "SELECT id, platform, chat, thread, variant, status, seq, created_at, updated_at"
            " FROM tables WHERE status IN (?, ?) ORDER BY id",
            LIVE_STATUSES,
        )
        return [TableSummary(**dict(row)) for row in rows]

    async def result(self, table_id: int) -> ResultRecord | None:
        rows = await self.db.fetchall("SELECT * FROM results WHERE table_id = ?", (table_id,))
        if not rows:
            return None
        row = rows[0]
        return ResultRecord(
            table_id=row["table_id"],
            variant=row["variant"],
            status=row["status"],
            finished_at=row["finished_at"],
            winners=json.loads(row["winners"]),
            draw=bool(row["draw"]),
            scores=json.loads(row["scores"]),
            players=json.loads(row["players"]),
            away=json.loads(row["away"]),
        )

    # ---------------------------------------------------------------- the inbox (PostgreSQL)

    async def forward(self, target: str, payload: str, at: float) -> int:
        """Leave an update for the process that owns ``target`` and wake it (NOTIFY goes
        out when the insert commits); the row's id."""
        rows = await self._read_write(
            "WITH row AS (INSERT INTO inbox (target, payload, at) VALUES (?,?,?) RETURNING id)"
            f" SELECT id, pg_notify('{INBOX_CHANNEL}', ?) FROM row",
            (target, payload, at, target),
        )
        return int(rows[0][0])

    async def claim(self, targets: Sequence[str], limit: int = 100) -> list[InboxRow]:
        """Take the oldest updates left for ``targets``, each exactly once however many
        processes claim at the same time (a row another claim has locked is skipped)."""
        if not targets:
            return []
        marks = ",".join("?" * len(targets))
        rows = await self._read_write(
            "DELETE FROM inbox WHERE id IN (SELECT id FROM inbox"
            f" WHERE target IN ({marks}) ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)"
            " RETURNING id, target, payload, at",
            (*targets, limit),
        )
        found = [InboxRow(r["id"], r["target"], r["payload"], r["at"]) for r in rows]
        return sorted(found, key=lambda row: row.id)

    async def withdraw(self, row_id: int) -> bool:
        """Take back an update nobody claimed (its owner is down): True if it was still
        there, so it will never be applied."""
        rows = await self._read_write(
            "DELETE FROM inbox WHERE id IN (SELECT id FROM inbox WHERE id = ?"
            " FOR UPDATE SKIP LOCKED) RETURNING id",
            (row_id,),
        )
        return bool(rows)

    async def _read_write(self, sql: str, params: Sequence[Any]) -> list[Row]:
        """One statement that writes and returns rows, committed on its own (PostgreSQL
        runs a lone statement as its own transaction)."""
        if self.db.dialect != "postgresql":
            raise StorageError("forwarding between processes needs PostgreSQL")
        return await self.db.fetchall(sql, params)

    # ---------------------------------------------------------------- chats and contacts

    async def chat_language(self, platform: str, chat: str) -> str | None:
        rows = await self.db.fetchall(
            "SELECT language FROM chats WHERE platform = ? AND chat = ?", (platform, chat)
        )
        return rows[0]["language"] if rows else None

    async def contacts(self, platform: str, users: Sequence[str]) -> list[Contact]:
        """What is stored of these users (unknown users are left out)."""
        if not users:
            return []
        marks = ",".join("?" * len(users))
        rows = await self.db.fetchall(
            f"SELECT user_id, dm_ok FROM players WHERE platform = ? AND user_id IN ({marks})",
            (platform, *users),
        )
        return [Contact(row["user_id"], bool(row["dm_ok"])) for row in rows]

    async def seated_contacts(self, platform: str) -> list[Contact]:
        """The stored players seated at this platform's live tables."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT p.user_id, p.dm_ok FROM players p"
            " JOIN seats s ON s.owner = p.user_id"
            " JOIN tables t ON t.id = s.table_id AND t.platform = p.platform"
            " WHERE p.platform = ? AND t.status IN (?, ?)",
            (platform, *LIVE_STATUSES),
        )
        return [Contact(row["user_id"], bool(row["dm_ok"])) for row in rows]

    # ---------------------------------------------------------------- messages

    async def messages(self, platform: str) -> list[MessageRow]:
        """The messages the outbox of ``platform`` edits through its keys, oldest first."""
        rows = await self.db.fetchall(
            "SELECT platform, chat, key, message_id, grp, at FROM messages"
            " WHERE platform = ? ORDER BY at, chat, key",
            (platform,),
        )
        return [
            MessageRow(
                platform=row["platform"],
                chat=row["chat"],
                key=row["key"],
                message_id=row["message_id"],
                group=bool(row["grp"]),
                at=row["at"],
            )
            for row in rows
        ]

    async def drop_messages_before(self, at: float) -> int:
        """Forget every platform's messages posted before ``at``; how many went."""
        rows = await self.db.fetchall("SELECT count(*) FROM messages WHERE at < ?", (at,))
        count = int(rows[0][0])
        if count:
            await self._write([("DELETE FROM messages WHERE at < ?", (at,))])
        return count

    # ---------------------------------------------------------------- shared secrets

    async def shared_secret(self, name: str, candidate: str) -> str:
        """The secret stored as ``name``; ``candidate`` becomes it if none is stored yet.
        Processes that ask at the same time all get the one that was stored first (the
        insert of every later one does nothing), so they agree without talking."""
        await self._write(
            [
                (
                    "INSERT INTO secrets (name, value) VALUES (?, ?)"
                    " ON CONFLICT (name) DO NOTHING",
                    (name, candidate),
                )
            ]
        )
        rows = await self.db.fetchall("SELECT value FROM secrets WHERE name = ?", (name,))
        return str(rows[0]["value"])

    # ---------------------------------------------------------------- spent links

    async def spend_link(self, nonce: str, expires: float, *, now: float) -> bool:
        """Mark the personal link ``nonce`` exchanged: True the first time on any process
        of the installation, False ever after (until it expires, when the link itself is
        refused). The insert is the claim: of two processes exchanging one link at once,
        exactly one inserts the row. Rows of links expired for a while are dropped with
        a claim, at most every ``SPENT_PURGE_SECONDS`` per process."""
        claim = (
            "INSERT INTO spent_links (nonce, expires) VALUES (?, ?)"
            " ON CONFLICT (nonce) DO NOTHING",
            (nonce, expires),
        )
        purge: list[Statement] = []
        if now >= self._next_purge:
            self._next_purge = now + SPENT_PURGE_SECONDS
            # Kept a margin past their expiry: another process's clock may run behind.
            purge.append(("DELETE FROM spent_links WHERE expires < ?", (now - SPENT_MARGIN,)))
        try:
            return await self.db.write_if([claim], *purge)
        except StorageError:
            raise
        except Exception as error:  # any failure of the write is the same to the caller
            raise StorageError(f"{type(error).__name__}: {error}") from error

    # ---------------------------------------------------------------- deal reviews

    async def save_review(self, review: StoredReview) -> None:
        """Keep a deal's analysis; one made again (a newer version) replaces it."""
        await self._write(
            [
                (
                    "INSERT INTO deal_reviews (table_id, deal, version, analysis, created_at)"
                    " VALUES (?,?,?,?,?) ON CONFLICT (table_id, deal) DO UPDATE SET"
                    " version = excluded.version, analysis = excluded.analysis,"
                    " created_at = excluded.created_at",
                    (
                        review.table_id,
                        review.deal,
                        review.version,
                        json.dumps(review.analysis, separators=(",", ":")),
                        review.created_at,
                    ),
                )
            ]
        )

    async def review(self, table_id: int, deal: int) -> StoredReview | None:
        rows = await self.db.fetchall(
            "SELECT * FROM deal_reviews WHERE table_id = ? AND deal = ?", (table_id, deal)
        )
        if not rows:
            return None
        row = rows[0]
        return StoredReview(
            table_id=row["table_id"],
            deal=row["deal"],
            version=row["version"],
            analysis=json.loads(row["analysis"]),
            created_at=row["created_at"],
        )

    # ---------------------------------------------------------------- operators

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def integrity(self) -> str:
        """``ok``, or the first problem the backend's own check finds."""
        return await self.db.integrity()

    def current_schema(self) -> int:
        return self.db.current_schema()
