"""The SQLite layer: migrations, group commit, failure isolation, readers."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage.database import Database, StorageClosed
from storage.schema import SCHEMA_VERSION

TABLE = (
    "INSERT INTO tables (id, platform, chat, variant, config, seed, status, creator,"
    " created_at, updated_at, last_human_at)"
    " VALUES (?, 'test', ?, 'syrian41', '{}', 1, 'running', 'u', 0, 0, 0)"
)
ACTION = (
    "INSERT INTO actions (table_id, seq, seat, action, source, at)"
    " VALUES (?, ?, 0, '{}', 'human', 0)"
)


async def test_a_new_file_is_migrated_to_the_current_schema_in_wal_mode(tmp_path: Path) -> None:
    async with Database.open(tmp_path / "a.sqlite") as db:
        rows = await db.fetchall("PRAGMA user_version")
        assert rows[0][0] == SCHEMA_VERSION
        rows = await db.fetchall("PRAGMA journal_mode")
        assert rows[0][0] == "wal"
    async with Database.open(tmp_path / "a.sqlite") as db:  # reopening migrates nothing
        rows = await db.fetchall("SELECT count(*) FROM tables")
        assert rows[0][0] == 0


async def test_a_file_from_a_newer_sahra_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(RuntimeError, match="newer"):
        async with Database.open(path):
            pass


async def test_concurrent_writes_are_group_committed_and_all_durable(tmp_path: Path) -> None:
    async with Database.open(tmp_path / "c.sqlite") as db:
        await db.write((TABLE, (1, "c1")))
        await asyncio.gather(*(db.write((ACTION, (1, seq))) for seq in range(1, 501)))
        assert db.stats.jobs == 501 and db.stats.batches < 501
        rows = await db.fetchall("SELECT count(*) FROM actions")
        assert rows[0][0] == 500
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:  # on disk after close
        assert conn.execute("SELECT count(*) FROM actions").fetchone()[0] == 500


async def test_a_failing_job_fails_alone_and_its_batch_mates_commit(tmp_path: Path) -> None:
    async with Database.open(tmp_path / "d.sqlite") as db:
        await db.write((TABLE, (1, "c1")))
        await db.write((ACTION, (1, 1)))
        results = await asyncio.gather(
            db.write((ACTION, (1, 2))),
            db.write((ACTION, (1, 1)), (ACTION, (1, 3))),  # duplicate seq: the whole job fails
            db.write((ACTION, (1, 4))),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], sqlite3.IntegrityError)
        rows = await db.fetchall("SELECT seq FROM actions ORDER BY seq")
        assert [row[0] for row in rows] == [1, 2, 4]  # seq 3 went with its failed job


async def test_writes_after_close_are_refused(tmp_path: Path) -> None:
    db = Database(tmp_path / "e.sqlite")
    await db.start()
    await db.close()
    with pytest.raises(StorageClosed):
        await db.write((TABLE, (1, "c1")))


def test_an_unknown_durability_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        Database(tmp_path / "f.sqlite", synchronous="FAST")  # type: ignore[arg-type]
