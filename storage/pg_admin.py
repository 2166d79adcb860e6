"""PostgreSQL housekeeping for benchmarks: a database of their own for each run, and the
server's count of committed transactions, so no SQL lives outside ``storage/``.

``admin_url`` names any database of the server (``…/postgres``) as a role allowed to create
databases; the database made is named ``<prefix>_<random hex>`` and its URL is the admin URL
with that name in place of the admin database.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import asyncpg

_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
SETTLE_SECONDS = 0.1  # between two readings of the count that must agree
SETTLE_TIMEOUT = 15.0


def database_name(url: str) -> str:
    """The database a URL names (the path without its slash), checked to be a plain name."""
    name = urlsplit(url).path.lstrip("/")
    if not _NAME.fullmatch(name):
        raise ValueError(f"not a plain database name: {name!r}")
    return name


def with_database(url: str, name: str) -> str:
    """The URL with another database in it."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def create_database(admin_url: str, prefix: str = "sahra_bench") -> str:
    """A new, empty database; returns its URL."""
    name = database_name(with_database(admin_url, f"{prefix}_{uuid.uuid4().hex[:16]}"))
    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return with_database(admin_url, name)


async def drop_database(admin_url: str, url: str) -> None:
    """Drop the database ``url`` names, ending any session still connected to it."""
    name = database_name(url)
    if name == database_name(admin_url):
        raise ValueError(f"refusing to drop the admin database {name!r}")
    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def commits(url: str) -> int:
    """``pg_stat_database.xact_commit`` of the database ``url`` names: every transaction
    committed in it so far, reads and the pool's per-release reset included.

    A session reports its counts to the statistics at most once a second, and for certain
    only when it ends, so this first waits until no other session is connected to the
    database and the count holds still (up to ``SETTLE_TIMEOUT`` seconds). Call it once the
    pools using the database are closed. This session's own reading (its start-up and its one
    transaction) is counted once it ends: a commit or two more in the next reading.
    """
    connection = await asyncpg.connect(url)
    try:
        # One transaction throughout, so this session's own readings commit nothing until the
        # end; the statistics snapshot it would otherwise keep is cleared before each reading.
        async with connection.transaction(readonly=True):
            deadline = time.monotonic() + SETTLE_TIMEOUT
            previous: int | None = None
            while True:
                await connection.execute("SELECT pg_stat_clear_snapshot()")
                others = await connection.fetchval(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                count = int(
                    await connection.fetchval(
                        "SELECT xact_commit FROM pg_stat_database"
                        " WHERE datname = current_database()"
                    )
                    or 0
                )
                if (others == 0 and count == previous) or time.monotonic() > deadline:
                    return count
                previous = count if others == 0 else None
                await asyncio.sleep(SETTLE_SECONDS)
    finally:
        await connection.close()


async def wal_syncs(url: str) -> int:
    """``pg_stat_wal.wal_sync``: how many times the whole server has flushed its write-ahead
    log to disk so far. Concurrent commits share a flush, so commits per flush is
    PostgreSQL's own group commit. Server-wide: read it around a run nothing else shares, and
    after ``commits`` has waited for the run's sessions to end."""
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval("SELECT wal_sync FROM pg_stat_wal") or 0)
    finally:
        await connection.close()
