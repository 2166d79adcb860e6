"""Webhook mode always has a secret token: the configured one, or one Sahra makes once and
keeps in the database. ``setWebhook`` passes it, Telegram (the fake, as Telegram does)
sends it back in ``X-Telegram-Bot-Api-Secret-Token``, and a post without it is refused
(403). Without a secret anyone who reaches the port could post an update in another
player's name and play their cards.

The check is ours, not PTB's: PTB's receiver compares the header with ``!=``, whose time
shows how much of a guess was right; ``bot/telegram/webhook.py`` compares with
``hmac.compare_digest`` before anything of PTB sees the post."""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr

from bot.runner import run_bots
from bot.settings import Settings
from bot.telegram.app import build, listen, stop, webhook_secret
from bot.telegram.webhook import secret_matches
from storage.database import Database
from storage.store import Store
from tests.backends import BackendFactory
from tests.bot.support import eventually
from tests.bot.telegram.fake_api import FakeBotAPI, Message
from tests.bot.telegram.harness import GROUP, playable

ALI = 101
TELEGRAMS_ALPHABET = re.compile(r"[A-Za-z0-9_-]{64}")
SECRET = "s3cret-" + "k" * 57  # 64 characters, as Sahra makes them


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


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotAPI]:
    """The fake Bot API, closed whatever the test did."""
    api = FakeBotAPI()
    await api.start()
    yield api
    await api.close()


def said(update_id: int, text: str) -> dict[str, object]:
    """A plain message in the group, as Telegram would post it."""
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "chat": FakeBotAPI.chat(GROUP),
            "from": FakeBotAPI.user(ALI),
            "text": text,
        },
    }


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


async def test_our_constant_time_check_decides_every_post_before_ptb_sees_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake: FakeBotAPI
) -> None:
    """A process that listens and forwards (the second of two behind a balancer): every
    post, whatever its header, is decided by ``hmac.compare_digest`` on our side (a wrong
    secret of the right length, shorter, longer, none at all); only the right one reaches
    the application, which forwards it to the owner as before. PTB's own webhook server,
    whose check is ``token != self.secret_token``, is never started."""
    compared: list[bytes] = []
    real = hmac.compare_digest

    def recording(a: bytes, b: bytes) -> bool:
        secret = SECRET.encode()
        if secret in (a, b):  # this test's posts, not any other caller's
            compared.append(b if a == secret else a)  # what the post presented
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", recording)
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram"
    forwarded: list[dict[str, object]] = []

    async def forward(payload: str) -> None:
        forwarded.append(json.loads(payload))

    async with Database.open(tmp_path / "bot.sqlite") as db:
        bot = build("123:TEST", db, api_url=fake.url)
        bot.forward = forward
        webhook = {
            "listen": "127.0.0.1",
            "port": port,
            "url_path": "telegram",
            "webhook_url": url,
            "secret_token": SECRET,
        }
        await listen(bot, webhook)
        try:
            assert (fake.webhook, fake.webhook_secret) == (url, SECRET)
            assert bot.application.updater is not None
            assert not bot.application.updater.running  # PTB's server: never listening

            header = "X-Telegram-Bot-Api-Secret-Token"
            near_miss = SECRET[:-1] + "K"  # right length, wrong only in its last character
            refused = [near_miss, SECRET[:-1], SECRET + "k", "x"]
            for update_id, wrong in enumerate(refused, 1):
                assert await post(url, said(update_id, "forged"), {header: wrong}) == 403
            assert await post(url, said(9, "forged"), {}) == 403
            assert await post(url, said(10, "from Telegram"), {header: SECRET}) == 200
            assert await post(url + "/", said(11, "from Telegram"), {header: SECRET}) == 200

            # Each post was decided by compare_digest, with what it presented (a missing
            # header as an empty one): none was refused early by its length.
            presented = [wrong.encode() for wrong in refused] + [b""]
            assert compared == [*presented, SECRET.encode(), SECRET.encode()]
            await eventually(lambda: len(forwarded) == 2)
            await bot.application.update_queue.join()
            assert [update["update_id"] for update in forwarded] == [10, 11]
        finally:
            await stop(bot, stop_manager=False)
        assert bot.receiver is None


async def test_a_right_secret_still_needs_a_json_update(tmp_path: Path, fake: FakeBotAPI) -> None:
    """Past the secret, what PTB refused stays refused: a body that is not JSON (403, as
    PTB), or JSON that is no update (400); neither reaches the application."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram"
    forwarded: list[str] = []

    async def forward(payload: str) -> None:
        forwarded.append(payload)

    async with Database.open(tmp_path / "bot.sqlite") as db:
        bot = build("123:TEST", db, api_url=fake.url)
        bot.forward = forward
        await listen(
            bot,
            {
                "listen": "127.0.0.1",
                "port": port,
                "url_path": "telegram",
                "webhook_url": url,
                "secret_token": SECRET,
            },
        )
        header = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
        try:
            async with aiohttp.ClientSession() as session:
                plain = {**header, "Content-Type": "text/plain"}
                async with session.post(url, data=b"{}", headers=plain) as answer:
                    assert answer.status == 403
                broken = {**header, "Content-Type": "application/json"}
                async with session.post(url, data=b"{not json", headers=broken) as answer:
                    assert answer.status == 400
                async with session.post(url, json={"no": "update"}, headers=header) as answer:
                    assert answer.status == 400
                async with session.get(url, headers=header) as answer:
                    assert answer.status == 405
            await bot.application.update_queue.join()
            assert forwarded == []
        finally:
            await stop(bot, stop_manager=False)


def test_any_header_is_compared_without_an_error() -> None:
    """``compare_digest`` refuses a str that is not ASCII; a header may hold anything (and
    aiohttp keeps undecodable bytes as surrogates): each is simply not the secret."""
    assert secret_matches(SECRET, SECRET)
    for presented in (None, "", "é" * 64, "\udcff" * 64, SECRET + "\x00", SECRET.upper()):
        assert not secret_matches(SECRET, presented)
