"""The throwaway PostgreSQL server `make test` runs pytest beside (tests/postgres_cluster.py)."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from tests import postgres_cluster

ROOT = Path(__file__).resolve().parent.parent
URL = os.environ.get(postgres_cluster.URL_VAR)
PRINT_URL = f"import os; print(os.environ[{postgres_cluster.URL_VAR!r}])"


def _runner(*command: str) -> list[str]:
    return [sys.executable, "-m", "tests.postgres_cluster", "--", *command]


@pytest.mark.skipif(
    not URL,
    reason=f"{postgres_cluster.URL_VAR} is not set: run through `make test` "
    "(python -m tests.postgres_cluster -- pytest ...) with PostgreSQL installed",
)
async def test_server_is_durable_and_makes_databases() -> None:
    connection = await asyncpg.connect(URL, timeout=10)
    try:
        assert await connection.fetchval("SHOW fsync") == "on"
        assert await connection.fetchval("SHOW synchronous_commit") == "on"
        name = f"sahra_probe_{uuid.uuid4().hex[:12]}"
        await connection.execute(f'CREATE DATABASE "{name}"')
        try:
            inside = await asyncpg.connect(URL, database=name, timeout=10)
            try:
                assert await inside.fetchval("SELECT current_database()") == name
            finally:
                await inside.close()
        finally:
            await connection.execute(f'DROP DATABASE "{name}"')
        query = "SELECT count(*) FROM pg_database WHERE datname = $1"
        assert await connection.fetchval(query, name) == 0
    finally:
        await connection.close()


def test_runner_starts_a_server_then_stops_it_and_cleans_up() -> None:
    if postgres_cluster.find_binaries() is None:
        pytest.skip("PostgreSQL is not installed (no initdb, pg_ctl, postgres)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(postgres_cluster.SERVER_USER)
        except KeyError:
            pytest.skip(f"root without the {postgres_cluster.SERVER_USER!r} user to run it as")
    # The runner's temporary directory goes in here, which must be empty afterwards; under root
    # the server runs as `postgres`, which has to reach it.
    base = Path(tempfile.mkdtemp(prefix="sahra-pg-test-"))
    base.chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if k != postgres_cluster.URL_VAR}
    environment["TMPDIR"] = str(base)
    try:
        done = subprocess.run(
            _runner(sys.executable, "-c", PRINT_URL),
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        url = urlsplit(done.stdout.strip())
        assert (url.scheme, url.username, url.hostname, url.path) == (
            "postgresql",
            "postgres",
            "127.0.0.1",
            "/postgres",
        ), done.stdout
        assert url.port, done.stdout
        assert f"ready on 127.0.0.1:{url.port}" in done.stderr
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", url.port), timeout=5).close()
        assert list(base.iterdir()) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_runner_uses_a_given_server_and_passes_the_exit_code_on() -> None:
    environment = {**os.environ, postgres_cluster.URL_VAR: "postgresql://elsewhere:5/db"}
    done = subprocess.run(
        _runner(sys.executable, "-c", f"{PRINT_URL}; raise SystemExit(7)"),
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (7, "postgresql://elsewhere:5/db\n", "")
