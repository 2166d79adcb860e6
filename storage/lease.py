"""Leases: exactly one Sahra process runs each part of a database's tables at a time.

Several processes may be started on one database (a standby for failover, a rolling
upgrade, Discord shards spread out). Each part has a named lease (``telegram``, one per
Discord shard: ``bot/cluster/partitions.py``); only its holder polls or connects for it,
runs those tables' timers and writes their screens. A process waiting for a lease makes
no call for that part and takes over when the holder dies.

- PostgreSQL: session-level advisory locks, one per name, held on a connection of their
  own. The server
  drops it the moment that connection ends: at once when the holder's process dies (its
  socket closes), and within about five seconds when its machine loses power or the
  network — the lease connection asks the server to probe it (TCP keepalives every
  second, three misses, and a five-second user timeout), so the lease never depends on a
  clean exit. The holder checks its connection every second and stops as soon as it
  cannot, before the server would hand the lease to another.
- SQLite: an exclusive ``flock`` on ``<file>.lock`` beside the database; the kernel
  releases it when the holder's process ends, however it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Protocol

import asyncpg

from storage.postgres import redacted

log = logging.getLogger("sahra.lease")

RETRY_SECONDS = 1.0  # how often a standby asks for the lease
CHECK_TIMEOUT = 2.0  # a holder whose connection does not answer within this has lost it
# The server probes an idle lease connection: after 1 s idle, every 1 s, 3 misses; and
# drops it when sent data stays unacknowledged for 5 s (power loss, network cut).
KEEPALIVES = {
    "tcp_keepalives_idle": "1",
    "tcp_keepalives_interval": "1",
    "tcp_keepalives_count": "3",
    "tcp_user_timeout": "5000",
    "application_name": "sahra-lease",
}


def lease_key(name: str) -> int:
    """A stable signed 64-bit advisory lock key for ``name``."""
    digest = hashlib.sha256(f"sahra:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class Lease(Protocol):
    async def acquire(self, stopping: asyncio.Event, names: Sequence[str] = ("leader",)) -> bool:
        """Wait until every one of ``names`` is ours; False if ``stopping`` was set first."""
        ...

    async def take(self, names: Sequence[str]) -> bool:
        """One try: all of ``names`` become ours, or none does."""
        ...

    async def held(self) -> bool:
        """Whether the leases taken are still ours (a cheap check, run every second)."""
        ...

    async def release(self) -> None: ...


class PostgresLease:
    """Session advisory locks, one per name, all on one connection: a process that loses
    the connection loses every lease at once, and stops."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.names: set[str] = set()  # the leases held
        self._conn: asyncpg.Connection | None = None
        self._waiting: set[tuple[str, ...]] = set()
        self._lock = asyncio.Lock()  # one statement at a time on the connection

    async def acquire(self, stopping: asyncio.Event, names: Sequence[str] = ("leader",)) -> bool:
        while not stopping.is_set():
            if await self.take(names):
                log.info(
                    "event=lease_acquired backend=postgresql leases=%s pid=%d",
                    ",".join(names),
                    os.getpid(),
                )
                return True
            key = tuple(names)
            if key not in self._waiting:
                self._waiting.add(key)
                log.info(
                    "event=standby backend=postgresql leases=%s pid=%d",
                    ",".join(names),
                    os.getpid(),
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), RETRY_SECONDS)
        return False

    async def take(self, names: Sequence[str]) -> bool:
        async with self._lock:
            try:
                if self._conn is None or self._conn.is_closed():
                    if self.names:
                        return False  # the connection that held leases is gone: so are they
                    self._conn = await asyncpg.connect(self.url, server_settings=KEEPALIVES)
                taken: list[str] = []
                for name in names:
                    if name in self.names or await self._conn.fetchval(
                        "SELECT pg_try_advisory_lock($1)", lease_key(name)
                    ):
                        taken.append(name)
                        continue
                    for got in taken:  # all or nothing
                        if got not in self.names:
                            await self._conn.execute(
                                "SELECT pg_advisory_unlock($1)", lease_key(got)
                            )
                    return False
                self.names.update(taken)
                return True
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning(
                    "event=lease_unavailable url=%s error=%s",
                    redacted(self.url),
                    type(error).__name__,
                )
                if not self.names:
                    await self._close()
                return False

    async def held(self) -> bool:
        conn = self._conn
        if conn is None or conn.is_closed():
            return False
        try:
            # The locks live as long as this session: the session answering is the proof.
            async with self._lock:
                await asyncio.wait_for(conn.fetchval("SELECT 1"), CHECK_TIMEOUT)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return False
        return True

    async def release(self) -> None:
        if self._conn is not None and not self._conn.is_closed():
            with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                await self._conn.execute("SELECT pg_advisory_unlock_all()")
        self.names.clear()
        await self._close()

    async def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()  # no goodbye: the locks go with the session either way


class FileLease:
    def __init__(self, database: str | Path) -> None:
        self.path = Path(f"{database}.lock")
        self._file: IO[bytes] | None = None

    async def acquire(self, stopping: asyncio.Event, names: Sequence[str] = ("leader",)) -> bool:
        """The file's one lease stands for every name: one process runs everything."""
        waited = False
        while not stopping.is_set():
            if await self.take(names):
                log.info("event=lease_acquired backend=sqlite pid=%d", os.getpid())
                return True
            if not waited:
                waited = True
                log.info("event=standby backend=sqlite pid=%d", os.getpid())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), RETRY_SECONDS)
        return False

    async def take(self, names: Sequence[str]) -> bool:
        return self._file is not None or self.attempt()

    def attempt(self) -> bool:
        """One try, without waiting (an operator's tool that must not run beside a bot)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+b")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        self._file = handle
        return True

    async def held(self) -> bool:
        return self._file is not None

    async def release(self) -> None:
        handle, self._file = self._file, None
        if handle is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
            handle.close()


def lease_for(database: str | Path, url: str | None) -> PostgresLease | FileLease:
    return PostgresLease(url) if url else FileLease(database)
