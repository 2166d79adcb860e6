"""Webhook mode always has a secret token: the configured one, or one Sahra makes once and
keeps in the database. ``setWebhook`` passes it, Telegram (the fake, as Telegram does)
sends it back in ``X-Telegram-Bot-Api-Secret-Token``, and PTB refuses a post without it
(403). Without a secret anyone who reaches the port could post an update in another
player's name and play their cards."""

from __future__ import annotations

import asyncio
import re
import socket
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr

from bot.runner import run_bots
from bot.settings import Settings
from bot.telegram.app import webhook_secret
from storage.database import Database
from storage.store import Store
from tests.backends import BackendFactory
from tests.bot.support import eventually
from tests.bot.telegram.fake_api import FakeBotAPI, Message
from tests.bot.telegram.harness import GROUP, playable

ALI = 101
TELEGRAMS_ALPHABET = re.compile(r"[A-Za-z0-9_-]{64}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def hand(fake: FakeBotAPI) -> Message | None:
    message = fake.latest_with_buttons(ALI)
    return message if message is not None and playable(message) else None


async def post(url: str, update: dict[str, object], headers: dict[str, str]) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=update, headers=headers) as answer,
    ):
        return answer.status


async def test_a_forged_press_without_the_secret_is_refused_and_plays_nothing(
    tmp_path: Path,
) -> None:
    fake = FakeBotAPI()
    api = await fake.start()
    port = free_port()
    settings = Settings(
        database=tmp_path / "bot.sqlite",
        telegram_token=SecretStr("123:TEST"),
        telegram_api_url=api,
        telegram_webhook_url=f"http://127.0.0.1:{port}",
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_port=port,
        telegram_webhook_secret=None,  # the operator set none: Sahra makes one
    )
    ready, done = asyncio.Event(), asyncio.Event()
    runner = asyncio.create_task(run_bots(settings, ready, done))
    try:
        await asyncio.wait_for(ready.wait(), timeout=20)
        webhook = f"http://127.0.0.1:{port}/telegram"
        assert fake.webhook == webhook
        fake.command(ALI, ALI, "/start")  # Ali's private chat, where his hand goes
        await eventually(lambda: bool(fake.in_chat(ALI)))
        for command in ("/new solo 31", "/addbot", "/addbot", "/addbot", "/begin"):
            fake.command(GROUP, ALI, command)  # one chat's updates are handled in order
        await eventually(lambda: hand(fake) is not None, timeout=20)
        message = hand(fake)
        assert message is not None
        data = playable(message)[0]

        # Anyone who reaches the port posts Ali's press: no header, then a wrong one.
        forged = [fake.press_update(ALI, message, data) for _ in range(2)]
        for update_id, update in enumerate(forged, 10_000):
            update["update_id"] = update_id
        assert await post(webhook, forged[0], {}) == 403
        wrong = {"X-Telegram-Bot-Api-Secret-Token": "x" * 64}
        assert await post(webhook, forged[1], wrong) == 403

        # Ali's own press of that very button is still the move: nothing was played in
        # his name before it (a played card would make it stale and refused).
        query, _ = fake.press(ALI, message, data)
        answer = await fake.answered(query)
        assert not answer.get("text"), answer
        async with Database.open(settings.database) as db:
            stored = await Store(db).load_table(1)
        assert stored is not None
        assert len([a for a in stored.actions if a.source == "human"]) == 1
        assert not {u["callback_query"]["id"] for u in forged} & set(fake.answers)  # type: ignore[index]

        secret = fake.webhook_secret  # made once, set with the webhook, never logged
        assert secret is not None and TELEGRAMS_ALPHABET.fullmatch(secret)
        async with Database.open(settings.database) as db:
            assert await webhook_secret(db) == secret  # kept for the next start
    finally:
        done.set()
        await asyncio.wait_for(runner, timeout=20)
        await fake.close()


@pytest.mark.backend_matters  # several processes making the secret at once
async def test_processes_on_one_database_make_and_share_one_webhook_secret(
    backend: BackendFactory,
) -> None:
    """Two processes starting at once (two connections of their own) each make a secret;
    the one stored first is the one both use, and every later start reads it."""
    first, second = backend.make(), backend.make()
    await first.start()
    await second.start()
    try:
        made = await asyncio.gather(webhook_secret(first), webhook_secret(second))
        assert made[0] == made[1]
        assert TELEGRAMS_ALPHABET.fullmatch(made[0])
        assert await webhook_secret(second) == made[0]
    finally:
        await first.close()
        await second.close()
    again = backend.make()
    await again.start()
    try:
        assert await webhook_secret(again) == made[0]
    finally:
        await again.close()
