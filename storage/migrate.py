"""Copying an installation's SQLite file into PostgreSQL (``sahra migrate-db``).

The copy is one transaction on the target: either every row of every table is there or
none is, so a copy that fails half-way (a lost connection, a full disk) leaves the target
empty and the operator simply runs it again, instead of facing a half-filled database the
next run would refuse. Before copying, the transaction locks Sahra's tables against writes
and refuses a target that holds any row: two installations are never merged by accident,
and a second ``migrate-db`` started at the same time waits, then is refused.

The source is read in one read transaction, so every table comes from the same moment of
the file. Columns come from the source itself (``PRAGMA table_info``), are checked against
the target's before anything is written, and each value is turned into the Python type of
its declared column (asyncpg's binary ``COPY`` is strict: an ``int`` in a ``DOUBLE
PRECISION`` column would be refused); NULLs stay NULL.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite
import asyncpg

from storage.backend import Backend
from storage.database import Database
from storage.errors import StorageError
from storage.postgres import PostgresDatabase

# Dependency order: the rows foreign keys point at (tables.id) come before the others.
TABLES = (
    "tables",
    "seats",
    "actions",
    "results",
    "match_players",
    "players",
    "chats",
    "messages",
    "ratings",
    "secrets",
    "spent_links",
    "deal_reviews",
)
# What each SQLite value becomes, and the PostgreSQL column types that hold it exactly.
PYTHON_TYPES: dict[type, tuple[str, ...]] = {
    int: ("bigint", "integer", "smallint"),
    float: ("double precision",),  # PostgreSQL's ``real`` would round the times
    str: ("text", "character varying"),
}
LOCK_TIMEOUT = "10s"  # a Sahra process still writing to the target: fail, do not hang

Row = tuple[Any, ...]


class TargetNotEmpty(StorageError):
    """The PostgreSQL database already holds Sahra rows; nothing was copied."""


class SchemaMismatch(StorageError):
    """The two databases do not have the same tables and columns; nothing was copied."""


@dataclass(frozen=True)
class Column:
    name: str
    kind: type  # int, float or str


def _python_type(declared: str) -> type:
    """SQLite's affinity rules (section 3.1 of its datatype page), for our three types."""
    upper = declared.upper()
    if "INT" in upper:
        return int
    if any(word in upper for word in ("CHAR", "CLOB", "TEXT")):
        return str
    if any(word in upper for word in ("REAL", "FLOA", "DOUB")):
        return float
    raise SchemaMismatch(f"no PostgreSQL type for a SQLite {declared!r} column")


def _converter(table: str, columns: Sequence[Column]) -> Callable[[Sequence[Any]], Row]:
    kinds = [column.kind for column in columns]

    def convert(row: Sequence[Any]) -> Row:
        values = tuple(
            None if value is None else kind(value) for kind, value in zip(kinds, row, strict=True)
        )
        # SQLite keeps whatever a column is given; a value its declared type would change
        # (3.5 in an INTEGER column, "x" in a REAL one) stops the copy instead of being cut.
        if values != tuple(row):
            shown = repr(tuple(row))[:300]
            raise SchemaMismatch(f"{table}: a row PostgreSQL's types cannot hold: {shown}")
        return values

    return convert


# ---------------------------------------------------------------- the plan


async def plan(source: Database, target: PostgresDatabase) -> dict[str, list[Column]]:
    """Each table's columns, as the source has them; ``SchemaMismatch`` unless the source
    has exactly Sahra's tables and the target the same columns in types that hold them."""
    found = await source.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    unknown = sorted({row["name"] for row in found} - set(TABLES))
    if unknown:  # a table added to schema.py but not here would be left behind silently
        raise SchemaMismatch(f"the SQLite file has tables this copy does not know: {unknown}")
    rows = await target.fetchall(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema()"
    )
    target_types = {(row["table_name"], row["column_name"]): row["data_type"] for row in rows}
    columns: dict[str, list[Column]] = {}
    for table in TABLES:
        info = await source.fetchall(f"PRAGMA table_info({table})")
        columns[table] = [Column(row["name"], _python_type(row["type"])) for row in info]
        theirs = {column for name, column in target_types if name == table}
        ours = {column.name for column in columns[table]}
        if ours != theirs:
            raise SchemaMismatch(
                f"{table}: SQLite has columns {sorted(ours)}, PostgreSQL {sorted(theirs)}"
            )
        for column in columns[table]:
            held = target_types[table, column.name]
            if held not in PYTHON_TYPES[column.kind]:
                raise SchemaMismatch(f"{table}.{column.name}: PostgreSQL {held} cannot hold it")
    return columns


# ---------------------------------------------------------------- reading the source


async def _source_batches(
    reader: aiosqlite.Connection, table: str, columns: Sequence[Column], batch: int
) -> AsyncGenerator[list[Row], None]:
    names = ", ".join(column.name for column in columns)
    convert = _converter(table, columns)
    async with reader.execute(f"SELECT {names} FROM {table}") as cursor:
        while rows := await cursor.fetchmany(batch):
            yield [convert(row) for row in rows]


async def _snapshot(reader: aiosqlite.Connection) -> None:
    """Every later read on ``reader`` sees the file as it is now (until the rollback)."""
    await reader.execute("BEGIN")


# ---------------------------------------------------------------- the copy


async def copy_database(
    source: Database, target: PostgresDatabase, *, batch: int = 5000
) -> dict[str, int]:
    """Copy every row of every table, in dependency order, in batches of ``batch`` rows,
    in one transaction; the rows copied per table. ``TargetNotEmpty`` when the target
    holds any row, ``SchemaMismatch`` when the columns differ (nothing copied either way)."""
    if batch < 1:
        raise ValueError("batch must be at least 1")
    columns = await plan(source, target)
    counts: dict[str, int] = {}
    try:
        async with (
            source.reader() as reader,
            target.pool.acquire() as conn,
            conn.transaction(),
        ):
            await conn.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
            # EXCLUSIVE: others may read, nobody writes until the copy commits.
            await conn.execute(f"LOCK TABLE {', '.join(TABLES)} IN EXCLUSIVE MODE")
            filled = [t for t in TABLES if await conn.fetchval(f"SELECT EXISTS (SELECT FROM {t})")]
            if filled:
                raise TargetNotEmpty(
                    f"{target.describe()} already holds Sahra rows (in {', '.join(filled)});"
                    " copy only into an empty database"
                )
            await _snapshot(reader)
            try:
                for table in TABLES:
                    names = [column.name for column in columns[table]]
                    counts[table] = 0
                    found = _source_batches(reader, table, columns[table], batch)
                    # aclosing: a failed batch closes the SQLite cursor before the rollback
                    async with contextlib.aclosing(found) as batches:
                        async for rows in batches:
                            await conn.copy_records_to_table(table, records=rows, columns=names)
                            counts[table] += len(rows)
                # New tables made by any process take ids after the copied ones.
                await conn.execute(
                    "SELECT setval('table_ids', coalesce((SELECT max(id) FROM tables), 0) + 1,"
                    " false)"
                )
            finally:
                await reader.rollback()
    except (OSError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StorageError(f"the copy failed, nothing was kept: {error}") from error
    return counts


# ---------------------------------------------------------------- comparing


async def _fingerprint(rows: AsyncGenerator[list[Row], None]) -> tuple[int, int]:
    """(rows, a digest of them that ignores their order): the two databases need not list
    rows in the same order (text sorts by collation in PostgreSQL, by bytes in SQLite)."""
    count, digest = 0, 0
    async with contextlib.aclosing(rows):
        async for chunk in rows:
            for row in chunk:
                value = hashlib.blake2b(repr(row).encode(), digest_size=16).digest()
                digest = (digest + int.from_bytes(value, "big")) % (1 << 128)
            count += len(chunk)
    return count, digest


async def _target_batches(
    conn: asyncpg.Connection, table: str, columns: Sequence[Column], batch: int
) -> AsyncGenerator[list[Row], None]:
    names = ", ".join(column.name for column in columns)
    chunk: list[Row] = []
    async for record in conn.cursor(f"SELECT {names} FROM {table}", prefetch=batch):
        chunk.append(tuple(record))
        if len(chunk) >= batch:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


async def compare(
    source: Database, target: PostgresDatabase, *, batch: int = 5000
) -> tuple[dict[str, int], list[str]]:
    """Every table's rows on both sides, counted and digested: (the target's counts, the
    tables whose rows differ, in number or in contents)."""
    columns = await plan(source, target)
    ours: dict[str, tuple[int, int]] = {}
    theirs: dict[str, tuple[int, int]] = {}
    try:
        async with source.reader() as reader:
            await _snapshot(reader)
            try:
                for table in TABLES:
                    found = _source_batches(reader, table, columns[table], batch)
                    ours[table] = await _fingerprint(found)
            finally:
                await reader.rollback()
        async with (
            target.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            for table in TABLES:
                found = _target_batches(conn, table, columns[table], batch)
                theirs[table] = await _fingerprint(found)
    except (OSError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StorageError(f"cannot compare the copy: {error}") from error
    problems = []
    for table in TABLES:
        (count, digest), (copied, copied_digest) = ours[table], theirs[table]
        if count != copied:
            problems.append(f"{table}: {count} rows in SQLite, {copied} in PostgreSQL")
        elif digest != copied_digest:
            problems.append(f"{table}: {count} rows on both sides, not the same contents")
    return {table: theirs[table][0] for table in TABLES}, problems


async def row_counts(db: Backend) -> dict[str, int]:
    """How many rows each of Sahra's tables holds."""
    counts = {}
    for table in TABLES:
        rows = await db.fetchall(f"SELECT count(*) FROM {table}")
        counts[table] = int(rows[0][0])
    return counts
