"""Opening the configured backend: PostgreSQL when a ``postgresql://`` URL is given, the
SQLite file otherwise (the embedded default)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from storage.backend import Backend
from storage.database import Database, Synchronous
from storage.postgres import PostgresDatabase


@contextlib.asynccontextmanager
async def open_backend(
    path: str | Path, url: str | None = None, synchronous: Synchronous = "FULL"
) -> AsyncIterator[Backend]:
    """The backend, started (migrated) and closed on exit."""
    database: Database | PostgresDatabase = (
        PostgresDatabase(url) if url else Database(path, synchronous)
    )
    await database.start()
    try:
        yield database
    finally:
        await database.close()
