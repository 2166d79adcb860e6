"""``sahra migrate-db``: the SQLite file copied into PostgreSQL, then verified.

The copy itself is ``storage.migrate`` (all SQL stays in ``storage/``). Verifying needs
the engine, so it lives here: every table's rows must be the same on both sides, in number
and contents, and every live table (lobby or running) must replay from the PostgreSQL log
to the very state it replays to from the SQLite one — what the bot will do with it on its
first start on PostgreSQL.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.tables.live import LiveTable
from bot.tables.recovery import RELOADED, live_table
from storage.backend import Backend
from storage.database import Database
from storage.lease import FileLease
from storage.migrate import compare, copy_database
from storage.postgres import PostgresDatabase, is_postgres_url, redacted
from storage.records import StoredTable
from storage.store import Store

# What must be equal after replay: what a reload takes from the store, and what a table
# is made of (the match is compared through its JSON state).
COMPARED = ("place", "config", "seed", "decks", "creator", "created_at", *RELOADED)


class BadMigration(ValueError):
    """Nothing to migrate from, or nowhere to: nothing was copied."""


@dataclass
class MigrationReport:
    counts: dict[str, int]  # rows copied per table
    live_tables: int  # live tables verified by replay
    seconds: float  # the whole migration: copy and verification
    copy_seconds: float
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def migrate(source: str | Path, url: str, *, batch: int = 5000) -> MigrationReport:
    """Copy the SQLite file ``source`` into the empty PostgreSQL database at ``url`` and
    verify the copy. ``BadMigration`` for a wrong URL or a missing file; the store's
    ``TargetNotEmpty`` / ``SchemaMismatch`` when it refuses to copy."""
    if not is_postgres_url(url):
        raise BadMigration(f"{redacted(url)} is not a postgresql:// or postgres:// URL")
    path = Path(source)
    if not path.is_file():  # opening it would create a new, empty file
        raise BadMigration(f"there is no SQLite file at {path}")
    lease = FileLease(path)  # a bot running on the file holds it: never copy under its feet
    if not lease.attempt():
        raise BadMigration(f"a Sahra process is running on {path}: stop it first")
    try:
        started = time.perf_counter()
        async with Database.open(path) as sqlite, PostgresDatabase.open(url, max_size=2) as pg:
            counts = await copy_database(sqlite, pg, batch=batch)
            copied = time.perf_counter()
            verified, problems = await verify(sqlite, pg, batch=batch)
        finished = time.perf_counter()
    finally:
        await lease.release()
    return MigrationReport(counts, verified, finished - started, copied - started, problems)


async def verify_copy(source: Database, target: PostgresDatabase) -> list[str]:
    """The problems of a copy (empty: none): rows that differ, live tables that do not
    replay to the same state."""
    return (await verify(source, target))[1]


async def verify(
    source: Database, target: PostgresDatabase, *, batch: int = 5000
) -> tuple[int, list[str]]:
    """(live tables verified by replay, problems)."""
    _, problems = await compare(source, target, batch=batch)
    verified, replayed = await compare_live_tables(source, target)
    return verified, problems + replayed


async def compare_live_tables(source: Backend, target: Backend) -> tuple[int, list[str]]:
    """Each live table replayed from both logs: (how many came out the same, problems)."""
    before = {stored.table.id: stored for stored in await Store(source).live_tables()}
    after = {stored.table.id: stored for stored in await Store(target).live_tables()}
    problems = [
        f"table {i}: live in SQLite, not in PostgreSQL" for i in before.keys() - after.keys()
    ]
    problems += [
        f"table {i}: live in PostgreSQL, not in SQLite" for i in after.keys() - before.keys()
    ]
    verified = 0
    for table_id in sorted(before.keys() & after.keys()):
        old = _replayed(before[table_id], "SQLite", problems)
        new = _replayed(after[table_id], "PostgreSQL", problems)
        if old is None or new is None:
            continue
        differing = [name for name in old if old[name] != new[name]]
        if differing:
            problems.append(f"table {table_id}: {', '.join(differing)} differ after replay")
        else:
            verified += 1
    return verified, problems


def _replayed(stored: StoredTable, side: str, problems: list[str]) -> dict[str, Any] | None:
    try:
        table = live_table(stored)
    except Exception as error:  # a log that does not replay is a finding, not a crash
        problems.append(
            f"table {stored.table.id}: does not replay from {side}"
            f" ({type(error).__name__}: {error})"
        )
        return None
    return _state(table)


def _state(table: LiveTable) -> dict[str, Any]:
    state = {name: getattr(table, name) for name in COMPARED}
    state["match"] = None if table.match is None else table.match.to_json()
    return state
