"""Running the bots as ``sahra run`` does: both platforms in one process over one table
manager and one database, Discord reached only at the configured server, and SIGTERM
obeyed within 5 s whatever the network does (fake servers for both platforms)."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import discord.backoff
import discord.gateway
import discord.http
import pytest
from pydantic import SecretStr

from bot.console.play import play
from bot.runner import RoleFailed, _watch, run_bots
from bot.settings import Settings
from storage.database import Database
from tests.bot.discord.fake_discord import FakeDiscord
from tests.bot.support import eventually
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.telegram.harness import GROUP

ROOT = Path(__file__).resolve().parents[2]
EXIT_SECONDS = 5.0


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.close()


def paths(fake: FakeDiscord) -> set[str]:
    return {f"{method} {path.split('/')[1]}" for _, method, path, _ in fake.calls}


async def test_both_platforms_share_one_manager_and_database(
    tmp_path: Path, fake: FakeDiscord
) -> None:
    telegram = FakeBotAPI()
    await telegram.start()
    defaults = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    settings = Settings(
        database=tmp_path / "both.sqlite",
        telegram_token=SecretStr("123:TEST"),
        telegram_api_url=telegram.url,
        discord_token=SecretStr("fake"),
        discord_api_url=fake.base,
    )
    ready, done = asyncio.Event(), asyncio.Event()
    runner = asyncio.create_task(run_bots(settings, ready, done))
    try:
        await asyncio.wait_for(ready.wait(), timeout=20)
        telegram.command(GROUP, 1, "/new syrian41")
        interaction = await fake.slash(2, "new", variant="trix_complex")
        await fake.answered(interaction)

        async def platforms() -> set[str]:
            async with Database.open(settings.database) as db:
                rows = await db.fetchall("SELECT platform FROM tables")
            return {row["platform"] for row in rows}

        await eventually(lambda: any("طرنيب" in m.text for m in telegram.in_chat(GROUP)))
        await eventually(lambda: len(fake.in_channel()) >= 1)
        assert await platforms() == {"telegram", "discord"}
    finally:
        done.set()
        await asyncio.wait_for(runner, timeout=20)
        await telegram.close()
    # The gateway came from the configured server's /gateway/bot, and nothing of it is
    # left behind in discord.py once the bot has stopped.
    assert fake.identified == 1
    assert {"GET users", "GET gateway", "WS gw"} <= paths(fake)
    after = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    assert after == defaults


class SahraRun:
    """``sahra run`` in a process of its own, configured only through its environment;
    its log is read as it comes."""

    def __init__(self, tmp_path: Path, fake: FakeDiscord) -> None:
        self.tmp_path, self.fake = tmp_path, fake
        self.lines: list[str] = []
        self.process: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SAHRA_")}
        env |= {
            "PYTHONPATH": str(ROOT),
            "SAHRA_DISCORD_TOKEN": "fake-token",
            "SAHRA_DISCORD_API_URL": self.fake.base,
            "SAHRA_DATABASE": str(self.tmp_path / "run.sqlite"),
            "SAHRA_LOG_LEVEL": "INFO",
        }
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "run",
            cwd=self.tmp_path,  # no stray .env
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        async for line in self.process.stderr:
            self.lines.append(line.decode())

    @property
    def log(self) -> str:
        return "".join(self.lines)

    async def terminate(self) -> float:
        """SIGTERM, then the seconds until the process was gone."""
        assert self.process is not None and self.reader is not None
        sent = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), timeout=30)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        elapsed = time.monotonic() - sent
        await self.reader
        return elapsed


async def test_sahra_run_plays_on_the_configured_discord_and_stops_on_sigterm(
    tmp_path: Path, fake: FakeDiscord
) -> None:
    run = SahraRun(tmp_path, fake)
    await run.start()
    try:
        await eventually(lambda: "event=bots_started" in run.log, timeout=30)
        interaction = await fake.slash(301, "new", variant="syrian41")
        assert (await fake.answered(interaction))["type"] == 5
        await eventually(lambda: len(fake.in_channel()) == 1)  # the lobby, posted
    finally:
        elapsed = await run.terminate()
    assert run.process is not None and run.process.returncode == 0, run.log
    assert elapsed < EXIT_SECONDS, (elapsed, run.log)
    assert "event=bots_stopped" in run.log
    # Every request went to the fake: login, application, command sync, gateway, table.
    assert {"GET users", "GET oauth2", "PUT applications", "GET gateway", "WS gw"} <= paths(fake)


@pytest.mark.parametrize(
    ("state", "reached", "proof"),
    [
        # The login request reached the fake, which holds it unanswered.
        ("rest_hanging", "GET users", lambda run, fake: fake.hanging == 1),
        # The gateway refused the first connection and discord.py said it will retry: the
        # process is waiting in that retry's pause.
        (
            "gateway_refused",
            "WS gw",
            lambda run, fake: "Failed to connect for shard_id" in run.log,
        ),
        # Connected, and the fake never says HELLO: waiting for HELLO / READY.
        ("gateway_silent", "WS gw", lambda run, fake: True),
    ],
    ids=["rest_hanging", "gateway_refused", "gateway_silent"],
)
async def test_sigterm_during_startup_exits_within_5_seconds(
    tmp_path: Path,
    fake: FakeDiscord,
    state: str,
    reached: str,
    proof: Callable[[SahraRun, FakeDiscord], bool],
) -> None:
    fake.hang = ["/"] if state == "rest_hanging" else []
    fake.gateway_mode = {"gateway_refused": "refuse", "gateway_silent": "silent"}.get(
        state, "normal"
    )
    run = SahraRun(tmp_path, fake)
    await run.start()
    try:
        await eventually(lambda: reached in paths(fake) and proof(run, fake), timeout=30)
    finally:
        elapsed = await run.terminate()
    assert elapsed < EXIT_SECONDS, (state, elapsed, run.log)
    assert run.process is not None and run.process.returncode == 0, run.log
    assert "during=startup" in run.log and "event=bots_stopped" in run.log
    # Still inside the state when the signal came: never identified, never ready.
    assert fake.identified == 0 and "event=bots_started" not in run.log, run.log


async def test_sigterm_while_the_rest_api_hangs_exits_within_5_seconds(
    tmp_path: Path, fake: FakeDiscord
) -> None:
    run = SahraRun(tmp_path, fake)
    await run.start()
    try:
        await eventually(lambda: "event=bots_started" in run.log, timeout=30)
        fake.hang = ["/channels/"]  # a table whose first post never gets an answer
        await fake.slash(301, "new", variant="syrian41")
        # The lobby's post reached the fake, which holds it: the process waits on it.
        await eventually(lambda: fake.hanging == 1)
    finally:
        elapsed = await run.terminate()
    assert elapsed < EXIT_SECONDS, (elapsed, run.log)
    assert run.process is not None and run.process.returncode == 0, run.log
    assert "event=bots_stopped" in run.log


async def test_sigterm_during_reconnect_backoff_exits_within_5_seconds(
    tmp_path: Path, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After a long outage discord.py sleeps up to minutes between attempts (once 300 s).
    # It asks its backoff for the pause right before sleeping it: that is the proof the
    # process is asleep in the backoff when the signal comes.
    backing_off = asyncio.Event()

    def delay(self: discord.backoff.ExponentialBackoff[Any]) -> float:
        backing_off.set()
        return 300.0

    monkeypatch.setattr(discord.backoff.ExponentialBackoff, "delay", delay)
    settings = Settings(
        database=tmp_path / "backoff.sqlite",
        discord_token=SecretStr("fake"),
        discord_api_url=fake.base,
    )
    ready = asyncio.Event()
    runner = asyncio.create_task(run_bots(settings, ready))
    await asyncio.wait_for(ready.wait(), timeout=20)
    assert not backing_off.is_set()
    await fake.drop()
    await asyncio.wait_for(backing_off.wait(), timeout=20)
    sent = time.monotonic()
    os.kill(os.getpid(), signal.SIGTERM)  # run_bots's handler, as in the real process
    await asyncio.wait_for(runner, timeout=30)
    assert time.monotonic() - sent < EXIT_SECONDS


async def test_a_gateway_closed_for_good_after_ready_stops_the_process(
    tmp_path: Path, fake: FakeDiscord
) -> None:
    # An outage is not that: discord.py reconnects and the role is kept (the backoff test
    # above would end with RoleFailed otherwise).
    settings = Settings(
        database=tmp_path / "lost.sqlite",
        discord_token=SecretStr("fake"),
        discord_api_url=fake.base,
    )
    ready = asyncio.Event()
    runner = asyncio.create_task(run_bots(settings, ready))
    try:
        await asyncio.wait_for(ready.wait(), timeout=20)
        interaction = await fake.slash(301, "new", variant="syrian41")
        assert (await fake.answered(interaction))["type"] == 5
        await fake.revoke("fake")  # the token reset: the session closes with 4004, for good
        with pytest.raises(RoleFailed, match="discord"):
            await asyncio.wait_for(runner, timeout=20)  # every lease released on the way
    finally:
        if not runner.done():
            runner.cancel()
            await asyncio.wait({runner}, timeout=10)
    assert fake.identified == 1  # a revoked token is not tried again


async def test_sahra_run_never_loads_a_console_table_in_its_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A console match saved in the bot's file (``sahra play --db`` it while the bot is
    stopped) is not the bot's: ``sahra run`` does not load it, so no timer of the bot's
    ever plays for the console player."""
    database = tmp_path / "bot.sqlite"
    out = io.StringIO()
    assert await play("syrian41", "en", 0, database, io.StringIO(""), out) == 0
    assert "the match is saved" in out.getvalue()
    telegram = FakeBotAPI()
    await telegram.start()
    settings = Settings(
        database=database, telegram_token=SecretStr("123:TEST"), telegram_api_url=telegram.url
    )
    caplog.set_level(logging.INFO, logger="sahra")
    caplog.clear()
    ready, done = asyncio.Event(), asyncio.Event()
    runner = asyncio.create_task(run_bots(settings, ready, done))
    try:
        await asyncio.wait_for(ready.wait(), timeout=20)
    finally:
        done.set()
        await asyncio.wait_for(runner, timeout=20)
        await telegram.close()
    loaded = [r.getMessage() for r in caplog.records if "event=tables_loaded" in r.getMessage()]
    assert loaded == ["event=tables_loaded count=0 held=0"]
    assert "event=role_taken role=telegram tables=0" in caplog.text


async def test_a_lease_check_that_fails_stops_the_process_as_a_lost_lease(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The watchdog is supervised too: a check that raises (a connection in a state no one
    foresaw) is no certainty, so the process stops as for a lost lease instead of running
    on unwatched while a standby may take the same tables."""

    class Broken:
        async def held(self) -> bool:
            raise RuntimeError("the lease's connection is in a state no one foresaw")

    caplog.set_level(logging.ERROR, logger="sahra")
    stopping, lost = asyncio.Event(), asyncio.Event()
    await asyncio.wait_for(_watch(Broken(), stopping, lost), timeout=5)  # type: ignore[arg-type]
    assert lost.is_set() and stopping.is_set()
    assert "event=lease_check_failed error=RuntimeError" in caplog.text
