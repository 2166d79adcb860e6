"""Caddy as the balancer in front of several ``sahra run`` processes, with the project's
own ``deploy/Caddyfile`` (plain HTTP on 127.0.0.1 here: the site address is a URL, so
Caddy obtains no certificate). Without a ``caddy`` binary the tests that need it skip on
a developer's machine and fail in CI (``SAHRA_CADDY_REQUIRED``, set by ``.ci/run``)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

CADDYFILE = Path(__file__).resolve().parents[1] / "deploy" / "Caddyfile"


def caddy_path() -> str:
    found = shutil.which("caddy")
    if found is None:
        if os.environ.get("SAHRA_CADDY_REQUIRED"):
            pytest.fail("this run requires Caddy (apt-get install caddy)")
        pytest.skip("no Caddy here (CI installs it)")
    return found


@asynccontextmanager
async def caddy(port: int, upstreams: list[int], folder: Path) -> AsyncIterator[str]:
    """Caddy on ``port`` balancing over ``upstreams`` (ports on 127.0.0.1); yields its URL
    once it answers ``/healthz`` through an upstream."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "WEB_HOST": f"http://127.0.0.1:{port}",
        "WEB_UPSTREAMS": " ".join(f"127.0.0.1:{upstream}" for upstream in upstreams),
        "CADDY_ADMIN": "off",
    }
    command = [caddy_path(), "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"]
    with (folder / "caddy.log").open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 15
        async with aiohttp.ClientSession() as http:
            while True:
                try:
                    async with http.get(url + "/healthz") as answer:
                        if answer.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                assert process.poll() is None, (folder / "caddy.log").read_text()
                assert time.monotonic() < deadline, "Caddy never answered"
                await asyncio.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
