"""The page as a Discord Activity, on the wire: a launch is proven with Discord (the code
exchanged once, the user read, the activity instance's users and channel checked), and
every launch that proves nothing gets a clear refusal and changes nothing. Against a fake of
Discord's REST endpoints (``fake_activities.py``); the page in Chromium is
``test_activity_page.py``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.tables.live import Place
from tests.bot.discord.fake_activities import CLIENT_SECRET, Instance
from tests.bot.discord.fake_discord import CHANNEL
from tests.bot.web.activity_support import CHANNEL_PLACE, ORIGIN, ActivitySite, activity_site
from tests.bot.web.support import Page

ALI, BADR, CARLA, DANA = 101, 102, 103, 104


async def first(page: Page, *kinds: str) -> dict[str, Any]:
    """The first frame of ``kinds`` the page gets (an error ends the wait too)."""
    while True:
        frame = await page.frame()
        if frame["type"] in (*kinds, "error"):
            return frame


async def refused(run: ActivitySite, page: Page) -> str:
    """The code a page's hello was refused with; no page of it stays attached."""
    frame = await first(page, "welcome", "start")
    assert frame["type"] == "error", frame
    assert frame["message"]  # said in words, not only a code
    assert not run.site.web.hub.every_socket()
    return str(frame["code"])


async def test_a_player_in_the_instance_of_the_tables_channel_is_seated(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        table = await run.table([ALI, BADR])
        run.fake.instances["i-1"] = Instance(users={ALI, BADR})
        page = await run.open(ALI)
        said = await first(page, "authenticate")
        assert said["type"] == "authenticate"
        token = said["access_token"]
        assert isinstance(token, str) and token in run.fake.tokens  # the user's own token
        welcome = await page.until("welcome")
        assert welcome["table"] == table.id and welcome["seat"] == table.seat_of(str(ALI))
        state = await page.state()
        assert len(state["hand"]) == 13
        assert run.fake.calls == [("token", 200), ("user", 200), ("instance", 200)]


async def test_anyone_else_in_the_instance_watches_without_a_hand(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        await run.table([ALI])
        run.fake.instances["i-1"] = Instance(users={ALI, CARLA})
        page = await run.open(CARLA)
        welcome = await page.until("welcome")
        assert welcome["seat"] is None
        state = await page.state()
        assert state["you"] is None and state["hand"] == [] and state["decisions"] == []


async def test_a_code_is_good_once_and_a_forged_one_never(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        await run.table([ALI])
        run.fake.instances["i-1"] = Instance(users={ALI})
        code = run.fake.issue_code(ALI)
        hello = {"discord": {"code": code, "instance": "i-1"}}
        page = await run.site.open(hello, Origin=ORIGIN)
        await page.until("welcome")
        await page.ws.close()
        again = await run.site.open(hello, Origin=ORIGIN)
        assert await refused(run, again) == "bad_activity"
        assert await refused(run, await run.open(None)) == "bad_activity"


@pytest.mark.parametrize(
    ("users", "instance", "code"),
    [
        ({BADR}, "i-1", "not_in_activity"),  # Ali is not in this instance
        ({ALI}, "i-unknown", "not_in_activity"),  # no such instance
    ],
)
async def test_a_user_not_in_the_instance_is_refused(
    tmp_path: Path, users: set[int], instance: str, code: str
) -> None:
    async with activity_site(tmp_path) as run:
        await run.table([ALI, BADR])
        run.fake.instances["i-1"] = Instance(users=users)
        assert await refused(run, await run.open(ALI, instance)) == code


async def test_an_instance_in_another_channel_opens_no_table_of_this_one(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        table = await run.table([ALI])
        run.fake.instances["elsewhere"] = Instance(channel=CHANNEL + 1, users={ALI})
        page = await run.open(ALI, "elsewhere", table=table.id)  # naming this channel's table
        assert await refused(run, page) == "other_channel"
        # Without naming one, that channel has no table: the page may start one there.
        page = await run.open(ALI, "elsewhere")
        start = await first(page, "start")
        assert start["type"] == "start"
        assert run.site.manager.table_at(Place("discord", str(CHANNEL + 1), "")) is None


async def test_a_wrong_client_secret_is_the_operators_to_fix_and_never_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with activity_site(tmp_path, secret="not-the-secret-9876543210") as run:
        await run.table([ALI])
        run.fake.instances["i-1"] = Instance(users={ALI})
        assert await refused(run, await run.open(ALI)) == "activity_unavailable"
    assert "event=activity_misconfigured step=token status=401" in caplog.text
    assert "not-the-secret" not in caplog.text and CLIENT_SECRET not in caplog.text


async def test_an_expired_token_proves_nobody(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        await run.table([ALI])
        run.fake.instances["i-1"] = Instance(users={ALI})
        run.fake.token_seconds = 0  # Discord answers 401 for it at once
        assert await refused(run, await run.open(ALI)) == "bad_activity"
        assert ("user", 401) in run.fake.calls


async def test_discords_rate_limit_is_waited_out_as_it_asks(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        table = await run.table([ALI])
        run.fake.instances["i-1"] = Instance(users={ALI})
        run.fake.limited = {"token": [0.25], "user": [0.5], "instance": [1.5]}
        page = await run.open(ALI)
        assert (await page.until("welcome"))["seat"] == table.seat_of(str(ALI))
        assert run.waits == [0.25, 0.5, 1.5]  # each retry_after, as Discord said
        assert [status for _, status in run.fake.calls] == [429, 200, 429, 200, 429, 200]


async def test_a_long_rate_limit_sends_the_page_back_later(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        await run.table([ALI])
        run.fake.instances["i-1"] = Instance(users={ALI})
        run.fake.limited = {"token": [60.0]}
        page = await run.open(ALI)
        frame = await first(page, "welcome")
        assert frame["code"] == "starting" and frame["fatal"] is False  # it comes back
        assert run.waits == []
        # The code was not spent: the page's next hello with it is let in.
        code = next(iter(run.fake.codes))
        again = await run.site.open({"discord": {"code": code, "instance": "i-1"}}, Origin=ORIGIN)
        assert (await again.until("welcome"))["seat"] == 0


async def test_a_page_that_says_who_it_is_is_not_listened_to(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        table = await run.table([ALI, BADR])
        run.fake.instances["i-1"] = Instance(users={ALI, BADR})
        for extra in ({"user_id": str(BADR)}, {"seat": 1}):
            page = await run.open(ALI, **extra)
            frame = await first(page, "welcome")
            assert frame["code"] == "bad_frame"
        assert run.fake.calls == []  # nothing asked of Discord, no code spent
        page = await run.open(ALI)
        assert (await page.until("welcome"))["seat"] == table.seat_of(str(ALI))


async def test_a_channel_without_a_table_is_offered_one_and_starts_it(tmp_path: Path) -> None:
    async with activity_site(tmp_path) as run:
        run.fake.instances["i-1"] = Instance(users={ALI, BADR})
        page = await run.open(ALI)
        offer = await first(page, "start")
        # An English Discord client is no proof of an English reader: the operator's default.
        assert offer["type"] == "start" and offer["language"] == "ar"
        assert {v["value"] for v in offer["variants"]} >= {"syrian41", "trix_complex"}
        await page.ws.send_json({"type": "start", "variant": "nonsense", "language": "ar"})
        assert (await page.until("refused"))["code"] == "bad_option"
        await page.ws.send_json({"type": "start", "variant": "syrian41", "language": "en"})
        welcome = await page.until("welcome")
        table = run.site.manager.table_at(CHANNEL_PLACE)
        assert table is not None and welcome["table"] == table.id and welcome["seat"] == 0
        assert table.config.language == "en" and table.variant == "syrian41"
        # The next person in the instance finds it there.
        other = await run.open(BADR)
        assert (await other.until("welcome"))["table"] == table.id


async def test_the_activity_is_served_under_the_proxy_prefix_from_discords_origin(
    tmp_path: Path,
) -> None:
    async with activity_site(tmp_path) as run:
        await run.table([ALI])
        run.fake.instances["i-1"] = Instance(users={ALI})
        http, url = run.site.http, run.site.url
        for prefix in ("", "/.proxy"):
            async with http.get(f"{url}{prefix}/") as response:
                html = await response.text()
                assert response.status == 200 and 'src="static/app.js?v=' in html
                policy = response.headers["Content-Security-Policy"]
                assert "https://*.discordsays.com" in policy and f"wss://{ORIGIN[8:]}" in policy
            async with http.get(f"{url}{prefix}/static/app.js") as response:
                assert response.status == 200
        code = run.fake.issue_code(ALI)
        async with http.ws_connect(f"{url}/.proxy/ws", headers={"Origin": ORIGIN}) as ws:
            await ws.send_json({"type": "hello", "discord": {"code": code, "instance": "i-1"}})
            frames = [await ws.receive_json(timeout=5) for _ in range(2)]
            assert [f["type"] for f in frames] == ["authenticate", "welcome"]
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(f"{url}/ws", headers={"Origin": "https://9.discordsays.com"})
