"""One SQLite file: a single writer task that group-commits, and short-lived readers.

Every write is a *job* — a few statements that must commit together — queued to the one
task that owns the write connection. The task takes every job waiting in the queue,
commits them in one transaction (``BEGIN IMMEDIATE`` … ``COMMIT``; with ``synchronous=FULL``
one fsync for the whole batch) and only then resolves each caller's future: a caller that
awaited ``write`` knows its statements are on disk. Because only this task touches the
write connection, no coroutine can commit another's half-done transaction.

Readers open their own connection (WAL lets them read while the writer writes) and always
close it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from storage.backend import Statement
from storage.errors import StorageClosed, StorageError
from storage.schema import MIGRATIONS, SCHEMA_VERSION

log = logging.getLogger("sahra.storage")

Synchronous = Literal["FULL", "NORMAL", "OFF", "EXTRA"]
__all__ = ["Database", "Statement", "Synchronous", "WriterStats"]
MAX_BATCH = 2000
CHECKPOINT_SECONDS = 1.0


@dataclass
class WriterStats:
    jobs: int = 0
    batches: int = 0
    statements: int = 0
    largest_batch: int = 0
    commit_seconds: float = 0.0
    split_batches: int = 0  # batches that failed and were committed again job by job


@dataclass
class _Job:
    statements: Sequence[Statement]
    future: asyncio.Future[bool] = field(repr=False)
    guards: Sequence[Statement] = ()  # ``write_if``: committed alone, all or nothing


_STOP = object()


class Database:
    """The SQLite file of one Sahra process. Use ``async with Database.open(path)``."""

    dialect = "sqlite"

    def __init__(self, path: str | Path, synchronous: Synchronous = "FULL") -> None:
        if synchronous not in ("FULL", "NORMAL", "OFF", "EXTRA"):
            raise ValueError(
                f"synchronous must be FULL, NORMAL, OFF or EXTRA, not {synchronous!r}"
            )
        self.path = Path(path)
        self.synchronous = synchronous
        self.stats = WriterStats()
        self._conn: aiosqlite.Connection | None = None
        self._queue: asyncio.Queue[_Job | object] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._closed = False

    # ---------------------------------------------------------------- lifecycle

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls, path: str | Path, synchronous: Synchronous = "FULL"
    ) -> AsyncIterator[Database]:
        database = cls(path, synchronous)
        await database.start()
        try:
            yield database
        finally:
            await database.close()

    async def start(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(self.path, isolation_level="IMMEDIATE")
        try:
            await self._configure(conn)
            await conn.execute("PRAGMA journal_mode=WAL")
            await self._migrate(conn)
        except sqlite3.DatabaseError as error:  # not a database, or a damaged one
            await conn.close()
            raise StorageError(
                f"{self.path} is not a readable SQLite database: {error}"
            ) from error
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        self._task = asyncio.create_task(self._run(), name="sahra-sqlite-writer")
        self._checkpointer = asyncio.create_task(
            self._checkpoints(), name="sahra-sqlite-checkpoint"
        )

    async def close(self) -> None:
        """Commit every queued write, stop the writer and close the connection."""
        if self._closed:
            return
        self._closed = True
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
        if self._task is not None:
            await self._queue.put(_STOP)
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _configure(self, conn: aiosqlite.Connection) -> None:
        await conn.execute(f"PRAGMA synchronous={self.synchronous}")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        # Checkpoints run on their own connection (below), never inside a move's commit,
        # where copying the WAL back would stall every table waiting on that commit.
        await conn.execute("PRAGMA wal_autocheckpoint=0")

    async def _migrate(self, conn: aiosqlite.Connection) -> None:
        async with conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        version = int(row[0]) if row else 0
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path} has schema version {version}, newer than this Sahra's"
                f" {SCHEMA_VERSION}"
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            try:
                await conn.execute("BEGIN IMMEDIATE")
                for statement in _split(MIGRATIONS[target - 1]):
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version={target}")
                await conn.commit()
            except BaseException:
                await self._rollback(conn)
                raise
            log.info("event=migrated path=%s version=%d", self.path, target)

    async def _checkpoints(self, interval: float = CHECKPOINT_SECONDS) -> None:
        """Copy the WAL into the database file in the background (PASSIVE: writers go on)."""
        # Opening is not cut off by a close that comes at once (a short ``sahra`` command):
        # aiosqlite's thread would finish the connect after the event loop is gone.
        opening = asyncio.ensure_future(self._checkpoint_connection())
        try:
            conn = await asyncio.shield(opening)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await (await opening).close()
            raise
        try:
            while True:
                await asyncio.sleep(interval)
                try:
                    await conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    log.warning("event=checkpoint_failed path=%s", self.path)
        finally:
            await conn.close()

    async def _checkpoint_connection(self) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(self.path)
        await self._configure(conn)
        return conn

    # ---------------------------------------------------------------- writes

    async def write(self, *statements: Statement) -> None:
        """Queue statements that must commit together; return once they are committed."""
        await self._queued(_Job(statements, self._future()))

    async def write_if(self, guards: Sequence[Statement], *statements: Statement) -> bool:
        """Commit the guards and statements together if every guard changed a row. The job
        commits in a transaction of its own (``BEGIN IMMEDIATE``: no other process writes
        the file meanwhile, so a guard sees every committed claim), never in a batch whose
        other jobs its rollback would undo."""
        return await self._queued(_Job(statements, self._future(), guards))

    def _future(self) -> asyncio.Future[bool]:
        if self._closed or self._task is None:
            raise StorageClosed("the database is closed")
        if self._task.done():
            raise StorageClosed("the database writer has stopped")
        return asyncio.get_running_loop().create_future()

    async def _queued(self, job: _Job) -> bool:
        self._queue.put_nowait(job)
        return await job.future

    async def _run(self) -> None:
        stopping = False
        while not stopping:
            first = await self._queue.get()
            if first is _STOP:
                break
            assert isinstance(first, _Job)
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    job = self._queue.get_nowait()
                except asyncio.QueueEmpty:
                    break
                if job is _STOP:
                    stopping = True
                    break
                assert isinstance(job, _Job)
                batch.append(job)
            plain: list[_Job] = []
            for job in batch:
                if job.guards:
                    if plain:
                        await self._commit(plain)
                        plain = []
                    await self._commit_guarded(job)
                else:
                    plain.append(job)
            if plain:
                await self._commit(plain)

    async def _commit(self, batch: list[_Job]) -> None:
        conn = self._conn
        assert conn is not None
        started = time.perf_counter()
        # Consecutive statements with the same SQL (the moves of many tables, one after
        # another) run as one executemany: a batch costs a handful of round trips to the
        # SQLite thread, not one per statement. Only neighbours are merged, so every
        # statement runs in the order its job gave it and jobs in the order they came (a
        # new table's row before its seats).
        groups: list[tuple[str, list[Sequence[Any]]]] = []
        for job in batch:
            for sql, params in job.statements:
                if groups and groups[-1][0] == sql:
                    groups[-1][1].append(params)
                else:
                    groups.append((sql, [params]))
        try:
            # The first statement opens the transaction (isolation_level IMMEDIATE takes the
            # write lock at once): one round trip fewer per batch than an explicit BEGIN.
            for sql, rows in groups:
                if len(rows) == 1:
                    await conn.execute(sql, rows[0])
                else:
                    await conn.executemany(sql, rows)
            await conn.commit()
        except sqlite3.Error as error:
            await self._rollback(conn)
            if len(batch) == 1:
                _fail(batch[0], error)
            else:  # find the failing job: commit the others one by one
                self.stats.split_batches += 1
                for job in batch:
                    await self._commit([job])
            return
        except BaseException as error:
            await self._rollback(conn)
            for job in batch:
                _fail(job, error)
            raise
        stats = self.stats
        stats.jobs += len(batch)
        stats.batches += 1
        stats.statements += sum(len(rows) for _, rows in groups)
        stats.largest_batch = max(stats.largest_batch, len(batch))
        stats.commit_seconds += time.perf_counter() - started
        for job in batch:
            if not job.future.done():
                job.future.set_result(True)

    async def _commit_guarded(self, job: _Job) -> None:
        conn = self._conn
        assert conn is not None
        try:
            for sql, params in job.guards:
                async with conn.execute(sql, params) as cursor:
                    changed = cursor.rowcount
                if changed < 1:
                    await self._rollback(conn)
                    if not job.future.done():
                        job.future.set_result(False)
                    return
            for sql, params in job.statements:
                await conn.execute(sql, params)
            await conn.commit()
        except sqlite3.Error as error:
            await self._rollback(conn)
            _fail(job, error)
            return
        except BaseException as error:
            await self._rollback(conn)
            _fail(job, error)
            raise
        self.stats.jobs += 1
        self.stats.batches += 1
        self.stats.statements += len(job.guards) + len(job.statements)
        if not job.future.done():
            job.future.set_result(True)

    @staticmethod
    async def _rollback(conn: aiosqlite.Connection) -> None:
        with contextlib.suppress(sqlite3.Error):
            await conn.rollback()

    # ---------------------------------------------------------------- reads

    @contextlib.asynccontextmanager
    async def reader(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read connection of its own, closed on exit."""
        conn = await aiosqlite.connect(self.path)
        try:
            await self._configure(conn)
            conn.row_factory = sqlite3.Row
            yield conn
        finally:
            await conn.close()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self.reader() as conn, conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    # ---------------------------------------------------------------- operators

    async def schema_version(self) -> int:
        rows = await self.fetchall("PRAGMA user_version")
        return int(rows[0][0])

    def current_schema(self) -> int:
        return SCHEMA_VERSION

    async def integrity(self) -> str:
        """``ok``, or the first problem SQLite's quick check finds."""
        rows = await self.fetchall("PRAGMA quick_check")
        return str(rows[0][0])

    def describe(self) -> str:
        return str(self.path)


def _fail(job: _Job, error: BaseException) -> None:
    if not job.future.done():
        job.future.set_exception(error)


def _split(script: str) -> list[str]:
    """The statements of a migration script (no semicolons inside our statements)."""
    statements = []
    for chunk in script.split(";"):
        lines = [line.split("--")[0].rstrip() for line in chunk.splitlines()]
        statement = "\n".join(line for line in lines if line.strip())
        if statement:
            statements.append(statement)
    return statements
