"""``sahra doctor`` with an Activity: Discord's token endpoint takes the client id and
secret (a wrong secret is a FAIL that says so), the bot token's application is the
Activity's, an unreachable Discord fails, a plain-http table is a warning, and the secret
is never printed. Discord here is a small fake answering as Discord does."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp import web

from bot.cli import main

APP_ID = "1234567890"
SECRET = "s3cret-client-secret"
TOKEN = "bot-token"


@dataclass
class FakeDiscord:
    """OAuth2's token endpoint and the application and user of a bot token."""

    app_id: str = APP_ID
    tokens: list[dict[str, str]] = field(default_factory=list)  # the forms posted

    async def token(self, request: web.Request) -> web.Response:
        form = {key: str(value) for key, value in (await request.post()).items()}
        self.tokens.append(form)
        if form.get("client_id") != APP_ID or form.get("client_secret") != SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code" or "redirect_uri" in form:
            return web.json_response({"error": "invalid_request"}, status=400)
        return web.json_response(
            {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
            status=400,
        )

    async def application(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response({"id": self.app_id, "name": "Sahra"})

    async def user(self, request: web.Request) -> web.Response:
        return web.json_response({"id": self.app_id, "username": "sahra"})


@asynccontextmanager
async def serving(fake: FakeDiscord) -> AsyncIterator[str]:
    app = web.Application()
    app.router.add_post("/api/v10/oauth2/token", fake.token)
    app.router.add_get("/api/v10/applications/@me", fake.application)
    app.router.add_get("/api/v10/users/@me", fake.user)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()


@pytest.fixture
def activity(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """An operator's settings with the Activity on (no .env: the working folder is empty)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SAHRA_TELEGRAM_TOKEN", raising=False)
    monkeypatch.setenv("SAHRA_DATABASE", str(tmp_path / "sahra.sqlite"))
    monkeypatch.setenv("SAHRA_DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("SAHRA_DISCORD_ACTIVITY", "1")
    monkeypatch.setenv("SAHRA_DISCORD_CLIENT_ID", APP_ID)
    monkeypatch.setenv("SAHRA_DISCORD_CLIENT_SECRET", SECRET)
    monkeypatch.setenv("SAHRA_WEB_URL", "https://table.example.org")
    monkeypatch.setenv("SAHRA_WEB_PORT", "0")  # always free to listen on
    return monkeypatch


async def doctor(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = await asyncio.to_thread(main, ["doctor"])
    out = capsys.readouterr().out
    assert SECRET not in out
    return code, out


async def test_a_good_client_secret_and_the_bots_own_application_pass(
    activity: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeDiscord()
    async with serving(fake) as url:
        activity.setenv("SAHRA_DISCORD_API_URL", url)
        code, out = await doctor(capsys)
    assert code == 0, out
    assert re.search(r"^ok\s+activity\s+client id 1234567890, the table at https://", out, re.M)
    assert re.search(r"^ok\s+oauth2\s+the client id and secret are accepted", out, re.M)
    assert re.search(r"^ok\s+app\s+the bot and the Activity are application 1234567890", out, re.M)
    # The probe is a code exchange Discord can only refuse: no redirect, no real code.
    assert fake.tokens == [
        {
            "client_id": APP_ID,
            "client_secret": SECRET,
            "grant_type": "authorization_code",
            "code": "sahra-doctor-probe",
        }
    ]


async def test_a_wrong_client_secret_fails_and_says_which_settings(
    activity: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    activity.setenv("SAHRA_DISCORD_CLIENT_SECRET", "not-the-secret")
    async with serving(FakeDiscord()) as url:
        activity.setenv("SAHRA_DISCORD_API_URL", url)
        code, out = await doctor(capsys)
    assert code == 1
    assert re.search(
        r"^FAIL\s+oauth2\s+HTTP 401 invalid_client: wrong SAHRA_DISCORD_CLIENT_ID or"
        r" SAHRA_DISCORD_CLIENT_SECRET",
        out,
        re.M,
    )
    assert "not-the-secret" not in out
    assert re.search(r"^ok\s+app\s", out, re.M)  # the token is still the application's


async def test_a_bot_of_another_application_fails_as_a_mismatch(
    activity: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async with serving(FakeDiscord(app_id="999")) as url:
        activity.setenv("SAHRA_DISCORD_API_URL", url)
        code, out = await doctor(capsys)
    assert code == 1
    assert re.search(
        r"^FAIL\s+app\s+the bot token is application 999, SAHRA_DISCORD_CLIENT_ID is"
        r" 1234567890: the bot and the Activity must be one application$",
        out,
        re.M,
    )


async def test_an_unreachable_discord_fails_every_activity_probe(
    activity: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    activity.setenv("SAHRA_DISCORD_API_URL", "http://127.0.0.1:9/api/v10")  # closed
    code, out = await doctor(capsys)
    assert code == 1
    assert re.search(r"^FAIL\s+oauth2\s+unreachable: \w+", out, re.M)
    assert re.search(r"^FAIL\s+app\s+unreachable: \w+", out, re.M)


async def test_an_unexpected_answer_fails_with_its_status(
    activity: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async with serving(FakeDiscord()) as url:
        activity.setenv("SAHRA_DISCORD_API_URL", url + "/missing")  # every route a 404
        code, out = await doctor(capsys)
    assert code == 1
    assert re.search(r"^FAIL\s+oauth2\s+HTTP 404 unexpected answer$", out, re.M)
    assert re.search(r"^FAIL\s+app\s+HTTP 404", out, re.M)


async def test_a_plain_http_table_is_a_warning_not_a_failure(
    activity: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    activity.setenv("SAHRA_WEB_URL", "http://127.0.0.1:8080")
    async with serving(FakeDiscord()) as url:
        activity.setenv("SAHRA_DISCORD_API_URL", url)
        code, out = await doctor(capsys)
    assert code == 0, out
    assert re.search(
        r"^warn\s+activity\s+SAHRA_WEB_URL is http://127.0.0.1:8080: Discord's URL mapping"
        r" needs an https:// host",
        out,
        re.M,
    )


async def test_without_the_activity_doctor_probes_no_oauth2(
    activity: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    activity.setenv("SAHRA_DISCORD_ACTIVITY", "0")
    fake = FakeDiscord()
    async with serving(fake) as url:
        activity.setenv("SAHRA_DISCORD_API_URL", url)
        code, out = await doctor(capsys)
    assert code == 0, out
    assert re.search(r"^ok\s+discord\s+reachable as sahra", out, re.M)
    assert not re.search(r"^\S+\s+(activity|oauth2|app)\s", out, re.M)
    assert fake.tokens == []
