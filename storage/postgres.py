"""PostgreSQL through asyncpg: the database several Sahra processes can share.

Each ``write`` is one transaction on a pooled connection, committed with
``synchronous_commit = on`` (PostgreSQL's default, set explicitly on every connection):
when ``write`` returns, the statements are in the write-ahead log on disk, as a SQLite
``FULL`` commit is in its file. PostgreSQL commits concurrent transactions together by
itself, so no writer task is needed here. Statements use the store's ``?`` placeholders,
turned into ``$1, $2, …`` once per statement text.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage.backend import Statement
from storage.errors import Conflict, StorageClosed, StorageError
from storage.schema_pg import PG_MIGRATIONS, PG_SCHEMA_VERSION

log = logging.getLogger("sahra.storage")

MIGRATION_LOCK = 0x5A4852  # the advisory lock processes migrate under ("SHR")
_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def dialect_sql(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$n`` (our SQL has no ``?`` inside strings)."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and str(url).startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """The URL without its password, for logs and ``sahra doctor``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


async def _keep_session(connection: asyncpg.Connection) -> None:
    """Nothing to reset when a connection goes back to the pool: the store never changes
    session state (no SET, no LISTEN, no session advisory lock — the leader lease has a
    connection of its own), and asyncpg's default reset would cost every write one more
    round trip and transaction."""


class PostgresDatabase:
    """One PostgreSQL database. Use ``async with PostgresDatabase.open(url)``."""

    dialect = "postgresql"

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        self.min_size = min_size
        self.max_size = max_size
        self._pool: asyncpg.Pool | None = None
        self._closed = False

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, url: str, **options: Any) -> AsyncIterator[PostgresDatabase]:
        database = cls(url, **options)
        await database.start()
        try:
            yield database
        finally:
            await database.close()

    async def start(self) -> None:
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=self.min_size,
                max_size=self.max_size,
                server_settings={"synchronous_commit": "on", "application_name": "sahra"},
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError) as error:
            raise StorageError(f"cannot connect to {redacted(self.url)}: {error}") from error
        await self._migrate()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    def describe(self) -> str:
        return redacted(self.url)

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None or self._closed:
            raise StorageClosed("the database is closed")
        return self._pool

    # ---------------------------------------------------------------- schema

    async def _migrate(self) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS sahra_schema (version INTEGER)")
            version = await conn.fetchval("SELECT max(version) FROM sahra_schema") or 0
            if version > PG_SCHEMA_VERSION:
                raise StorageError(
                    f"{redacted(self.url)} has schema version {version}, newer than this"
                    f" Sahra's {PG_SCHEMA_VERSION}"
                )
            for target in range(version + 1, PG_SCHEMA_VERSION + 1):
                await conn.execute(PG_MIGRATIONS[target - 1])
                await conn.execute("INSERT INTO sahra_schema (version) VALUES ($1)", target)
                log.info("event=migrated backend=postgresql version=%d", target)

    async def schema_version(self) -> int:
        return int(await self.pool.fetchval("SELECT max(version) FROM sahra_schema") or 0)

    def current_schema(self) -> int:
        return PG_SCHEMA_VERSION

    async def integrity(self) -> str:
        """PostgreSQL checks its pages itself; here: the server answers, durably."""
        setting = await self.pool.fetchval("SHOW synchronous_commit")
        return "ok" if setting == "on" else f"synchronous_commit is {setting}"

    # ---------------------------------------------------------------- reads and writes

    async def write(self, *statements: Statement) -> None:
        """Commit the statements together, in order; consecutive statements with the same
        SQL go as one ``executemany``."""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await _execute(conn, statements)
        except asyncpg.UniqueViolationError as error:
            raise Conflict(str(error)) from error
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(f"{type(error).__name__}: {error}") from error

    async def write_if(self, guards: Sequence[Statement], *statements: Statement) -> bool:
        """The guards first, each on its own: under READ COMMITTED an ``UPDATE`` whose row
        another transaction is changing waits for it, then checks its ``WHERE`` again on
        the committed row, so of two processes claiming one row exactly one changes it."""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                for sql, params in guards:
                    if _changed(await conn.execute(dialect_sql(sql), *params)) == 0:
                        raise _Unmet
                await _execute(conn, statements)
        except _Unmet:  # raised inside the transaction: it rolled back
            return False
        except asyncpg.UniqueViolationError as error:
            raise Conflict(str(error)) from error
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(f"{type(error).__name__}: {error}") from error
        return True

    async def listen(
        self, channel: str, woken: Callable[[str], None]
    ) -> Callable[[], Awaitable[None]]:
        """Call ``woken(payload)`` for every NOTIFY on ``channel``, on a connection of its
        own (LISTEN is session state: it must not go back to the pool); returns the
        coroutine function that stops listening. A lost connection only delays: the
        caller polls as well."""
        try:
            conn = await asyncpg.connect(self.url, server_settings={"application_name": "sahra"})
        except (OSError, asyncpg.PostgresError) as error:
            raise StorageError(f"cannot listen on {redacted(self.url)}: {error}") from error

        def deliver(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            woken(payload)

        await conn.add_listener(channel, deliver)

        async def stop() -> None:
            with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                await conn.close(timeout=2)
            if not conn.is_closed():
                conn.terminate()

        return stop

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return list(await self.pool.fetch(dialect_sql(sql), *params))
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(f"{type(error).__name__}: {error}") from error


class _Unmet(Exception):
    """A guard of ``write_if`` changed no row: roll its transaction back."""


def _changed(status: str) -> int:
    """The rows a statement changed, from its status (``UPDATE 1``, ``INSERT 0 1``)."""
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


async def _execute(conn: asyncpg.Connection, statements: Sequence[Statement]) -> None:
    groups: list[tuple[str, list[Sequence[Any]]]] = []
    for sql, params in statements:
        if groups and groups[-1][0] == sql:
            groups[-1][1].append(params)
        else:
            groups.append((sql, [params]))
    for sql, rows in groups:
        if len(rows) == 1:
            await conn.execute(dialect_sql(sql), *rows[0])
        else:
            await conn.executemany(dialect_sql(sql), rows)
