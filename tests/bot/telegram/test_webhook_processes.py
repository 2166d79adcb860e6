"""Webhook mode with two ``sahra run`` processes behind a load balancer, one bot token,
one PostgreSQL database.

Telegram POSTs each update to the balancer, which hands them to the processes in turn.
The process holding the ``telegram`` lease applies what it receives; the other forwards
every update through the database to it. Each acknowledged move is in the log exactly
once, at its own number. SIGKILL the owner mid-deal: the other takes the lease within
10 s, the balancer sends everything to it, and the match goes on."""

from __future__ import annotations

import itertools
import os
import signal
import socket
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from storage.store import Store
from tests.backends import BackendFactory
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.telegram.harness import GROUP
from tests.bot.test_failover import (
    ALI,
    FAST_WRITES,
    TAKEOVER_LIMIT,
    lobby_full,
    press_once,
    show_chat,
    show_logs,
    spawn,
    stop_all,
    text,
    until,
)

pytestmark = pytest.mark.backend_matters  # processes that share one PostgreSQL database


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Balancer:
    """Round robin over the processes' webhook ports; a process that does not answer is
    skipped (as a balancer's health check would), so Telegram retries nothing."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.sent: dict[int, int] = dict.fromkeys(ports, 0)
        self._turn = itertools.cycle(range(len(ports)))
        self._runner: web.AppRunner | None = None
        self.url = ""

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/telegram", self._pass)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        port = free_port()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()
        self.url = f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _pass(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower().startswith("x-telegram")}
        headers["Content-Type"] = "application/json"
        for _ in self.ports:
            port = self.ports[next(self._turn)]
            try:
                async with (
                    aiohttp.ClientSession() as session,
                    session.post(
                        f"http://127.0.0.1:{port}/telegram", data=body, headers=headers
                    ) as answer,
                ):
                    if answer.status < 500:
                        self.sent[port] += 1
                        return web.Response(status=answer.status)
            except (aiohttp.ClientError, OSError):
                continue
        return web.Response(status=502)


async def test_updates_spread_over_two_processes_are_applied_once_and_survive_a_sigkill(
    backend: BackendFactory, tmp_path: Path
) -> None:
    if backend.url is None:
        pytest.skip("processes that share updates share a PostgreSQL database")
    fake = FakeBotAPI()
    url = await fake.start()
    ports = [free_port(), free_port()]
    balancer = Balancer(ports)
    await balancer.start()
    env = {
        **os.environ,
        "SAHRA_TELEGRAM_TOKEN": "123:TEST",
        "SAHRA_TELEGRAM_API_URL": url,
        "SAHRA_TELEGRAM_WEBHOOK_URL": balancer.url,
        "SAHRA_TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
        "SAHRA_DATABASE_URL": backend.url,
        "SAHRA_LOG_LEVEL": "INFO",
        "PTB_TIMEDELTA": "true",
        "PYTHONUNBUFFERED": "1",
        **FAST_WRITES,
    }
    env.pop("SAHRA_DISCORD_TOKEN", None)
    env.pop("SAHRA_TELEGRAM_WEBHOOK_SECRET", None)  # made by the first, read by the second
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    processes = [spawn({**env, "SAHRA_TELEGRAM_WEBHOOK_PORT": str(ports[0])}, logs[0])]
    try:
        await until(lambda: "event=role_taken role=telegram" in text(logs[0]), "the first owns")
        processes.append(spawn({**env, "SAHRA_TELEGRAM_WEBHOOK_PORT": str(ports[1])}, logs[1]))
        await until(lambda: "event=telegram_listening" in text(logs[1]), "the second listens")
        assert "role=telegram" not in text(logs[1])
        assert fake.webhook == balancer.url + "/telegram"
        # Both set the webhook, with the one secret the first made and kept in the
        # database: Telegram's posts pass at either process.
        secrets = {c.params.get("secret_token") for c in fake.calls if c.method == "setWebhook"}
        assert len(secrets) == 1 and fake.webhook_secret in secrets
        assert fake.webhook_secret is not None and len(fake.webhook_secret) == 64
        # A post that did not come from Telegram is refused at the process that would
        # forward it, so the owner only ever applies what a process verified.
        forged = {
            "update_id": 10_000,
            "message": {
                "message_id": 1,
                "date": int(time.time()),
                "chat": fake.chat(GROUP),
                "from": fake.user(ALI),
                "text": "/new solo 31",
                "entities": [{"type": "bot_command", "offset": 0, "length": 4}],
            },
        }
        for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "not-the-secret"}):
            async with (
                aiohttp.ClientSession() as session,
                session.post(
                    f"http://127.0.0.1:{ports[1]}/telegram", json=forged, headers=headers
                ) as answer,
            ):
                assert answer.status == 403
        assert "event=forwarded" not in text(logs[1])

        fake.command(GROUP, ALI, "/new solo 31")
        await until(lambda: fake.latest_with_buttons(GROUP) is not None, "the lobby")
        for _ in range(3):  # each may reach either process, the owner by a forward or not
            fake.command(GROUP, ALI, "/addbot")
        await until(lambda: lobby_full(fake), "the computers seated")
        fake.command(ALI, ALI, "/start t1")
        await until(lambda: fake.in_chat(ALI), "Ali's private chat")
        fake.command(GROUP, ALI, "/begin")
        acked: list[tuple[int, int, dict[str, object]]] = []
        for _ in range(4):
            await press_once(fake, acked)
        assert balancer.sent[ports[1]] >= 3  # the balancer gave the second its share…
        assert "event=forwarded target=telegram" in text(logs[1])  # …which it forwarded
        assert "event=forward_claimed target=telegram" in text(logs[0])
        assert "event=action" not in text(logs[1])  # and never applied itself

        processes[0].send_signal(signal.SIGKILL)  # the owner dies mid-deal
        processes[0].wait()
        killed = time.monotonic()
        await until(
            lambda: "event=role_taken role=telegram" in text(logs[1]),
            "the second owns",
            TAKEOVER_LIMIT + 5,
        )
        took = time.monotonic() - killed
        print(f"takeover: the second owned Telegram {took:.2f} s after the SIGKILL")
        assert took < TAKEOVER_LIMIT
        for _ in range(3):
            await press_once(fake, acked)

        db = backend.make()
        await db.start()
        try:
            stored = await Store(db).load_table(1)
        finally:
            await db.close()
        assert stored is not None
        humans = [a for a in stored.actions if a.source == "human"]
        assert len(humans) == len(acked) == 7  # none lost, none applied twice
        moves = {a.seq: a for a in stored.actions}
        for _, version, action in acked:
            assert moves[version + 1].action == action
    finally:
        await stop_all(processes)
        await balancer.close()
        await fake.close()
        show_logs(logs)
        show_chat(fake, ALI)
