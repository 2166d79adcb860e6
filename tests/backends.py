"""The two backends every storage, manager, crash and platform test runs on: the SQLite
file and a real PostgreSQL server (``SAHRA_TEST_POSTGRES_URL``, started for ``make test``
by ``tests/postgres_cluster.py``). Each PostgreSQL test gets a database of its own."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from storage.database import Database, Synchronous
from storage.pg_admin import create_database, drop_database
from storage.postgres import PostgresDatabase

BACKENDS = ("sqlite", "postgresql")
ADMIN_URL = "SAHRA_TEST_POSTGRES_URL"


@dataclass
class BackendFactory:
    """Opens the test's database (again, after a restart) on its backend."""

    kind: str
    path: Path  # the SQLite file
    url: str | None = None  # the PostgreSQL database

    def make(self, synchronous: Synchronous = "NORMAL") -> Database | PostgresDatabase:
        if self.kind == "postgresql":
            assert self.url is not None
            return PostgresDatabase(self.url)
        return Database(self.path, synchronous=synchronous)

    @property
    def address(self) -> str:
        """What a subprocess is told: the PostgreSQL URL or the SQLite path."""
        return self.url if self.url is not None else str(self.path)


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[BackendFactory]:
    if request.param == "sqlite":
        yield BackendFactory("sqlite", tmp_path / "sahra.sqlite")
        return
    admin = os.environ.get(ADMIN_URL)
    if not admin:
        pytest.skip(f"{ADMIN_URL} is not set (make test starts a PostgreSQL server)")
    url = await create_database(admin, prefix="t")
    try:
        yield BackendFactory("postgresql", tmp_path / "sahra.sqlite", url)
    finally:
        await drop_database(admin, url)
