"""A Discord gateway that closes for good after the bot was ready hands the role over.

Two ``sahra run`` processes on one PostgreSQL database: the leader runs Discord, the other
stands by. Discord ends the leader's session with a close code discord.py must not retry
(4004, authentication failed); the leader logs it, releases its leases and exits with
code 4, and the standby takes Discord over: it identifies and serves a slash command and
a button."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.backends import BackendFactory
from tests.bot.discord.conftest import buttons
from tests.bot.discord.fake_discord import CHANNEL, FakeDiscord, Message
from tests.bot.test_failover import show_logs, spawn, stop_all, text, until

pytestmark = pytest.mark.backend_matters  # processes that share one PostgreSQL database

ALI = 301
OLD, NEW = "old-token", "new-token"


def lobby(fake: FakeDiscord) -> Message | None:
    found = [
        m
        for m in fake.in_channel(CHANNEL)
        if any(a["type"] == "add_computer" for _, a in buttons(m))
    ]
    return max(found, key=lambda m: m.id) if found else None


async def test_a_leader_whose_gateway_closes_for_good_exits_and_the_standby_takes_discord(
    backend: BackendFactory, tmp_path: Path
) -> None:
    if backend.url is None:
        pytest.skip("the standby is in another process, on a shared PostgreSQL database")
    fake = FakeDiscord()
    await fake.start()
    env = {
        **os.environ,
        "SAHRA_DISCORD_API_URL": fake.base,
        "SAHRA_DATABASE_URL": backend.url,
        "SAHRA_LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("SAHRA_TELEGRAM_TOKEN", None)
    # The bot's token is reset while the leader runs with the old one and the standby was
    # deployed with the new one: Discord closes the old token's sessions with 4004 and
    # refuses it from then on, and the standby's IDENTIFY is accepted. Of the fatal codes
    # only this one can end one process's session and not the standby's faithfully:
    # 4010-4014 come from the application or the shard plan, which both processes share.
    logs = [tmp_path / "leader.log", tmp_path / "standby.log"]
    leader = spawn({**env, "SAHRA_DISCORD_TOKEN": OLD}, logs[0])
    processes = [leader]
    try:
        await until(lambda: "event=bots_started" in text(logs[0]), "the leader runs Discord")
        processes.append(spawn({**env, "SAHRA_DISCORD_TOKEN": NEW}, logs[1]))
        await until(lambda: "event=standby" in text(logs[1]), "the other stands by")
        assert list(fake.sessions.values()) == [OLD]

        await fake.revoke(OLD)
        await until(lambda: leader.poll() is not None, "the leader exits", 15)
        assert leader.returncode == 4
        assert "event=discord_gateway_lost error=ConnectionClosed code=4004" in text(logs[0])
        assert "event=role_failed role=discord" in text(logs[0])

        await until(lambda: "event=bots_started" in text(logs[1]), "the standby runs", 15)
        assert list(fake.sessions.values()) == [OLD, NEW]  # the standby identified
        reply = await fake.answered(await fake.slash(ALI, "new", variant="tarneeb_solo"), 15)
        assert reply["type"] == 5
        await until(lambda: lobby(fake) is not None, "the lobby")
        message = lobby(fake)
        assert message is not None
        custom_id = next(c for c, a in buttons(message) if a["type"] == "add_computer")
        reply = await fake.answered(await fake.click(ALI, message, custom_id), 15)
        assert reply["type"] in (6, 7), reply  # the computer added, the lobby redrawn
        assert processes[1].poll() is None
    finally:
        await stop_all(processes)
        await fake.close()
        show_logs(logs)
