"""What the Activity's tests share: the web table serving as a Discord Activity, against a
fake of the Discord REST endpoints it calls (``tests/bot/discord/fake_activities.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.tables.live import LiveTable, Place
from bot.web.activity import DiscordActivity
from tests.bot.discord.fake_activities import BOT_TOKEN, CLIENT_SECRET, FakeActivities
from tests.bot.discord.fake_discord import APP_ID, CHANNEL, GUILD
from tests.bot.web.support import Page, Site, player, site

ORIGIN = f"https://{APP_ID}.discordsays.com"
CHANNEL_PLACE = Place("discord", str(CHANNEL), "", str(GUILD))


@asynccontextmanager
async def discord_rest(activities: FakeActivities) -> AsyncIterator[str]:
    """The fake's endpoints alone on a loopback port; yields the API base URL."""

    async def handle(request: web.Request) -> web.StreamResponse:
        answer = await activities.route(request, "/" + request.match_info["path"])
        return answer if answer is not None else web.json_response({"code": 0}, status=404)

    app = web.Application()
    app.router.add_route("*", "/api/v10/{path:.*}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    server = web.TCPSite(runner, "127.0.0.1", 0)
    await server.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()


@dataclass
class ActivitySite:
    site: Site
    fake: FakeActivities
    waits: list[float] = field(default_factory=list)  # the 429 waits the server slept

    async def open(self, user: int | None, instance: str = "i-1", **extra: Any) -> Page:
        """A page in ``instance`` opened by ``user`` (a code Discord issued them; None: a
        code Discord never issued)."""
        code = self.fake.issue_code(user) if user is not None else "forged-code-0123456789"
        hello = {"discord": {"code": code, "instance": instance}, **extra}
        return await self.site.open(hello, Origin=ORIGIN)

    async def table(self, humans: list[int], *, running: bool = True) -> LiveTable:
        """A table in the Activity's channel, of ``humans`` and computers."""
        manager = self.site.manager
        first, *others = humans
        table = await manager.create(
            CHANNEL_PLACE, player(first, f"P{first}"), {"variant": "syrian41"}
        )
        for user in others:
            await manager.join(table.id, player(user, f"P{user}"))
        if running:
            for _ in range(4 - len(humans)):
                await manager.add_computer(table.id, str(first))
            await manager.begin(table.id, str(first))
        return table


@asynccontextmanager
async def activity_site(
    tmp_path: Path, *, secret: str = CLIENT_SECRET
) -> AsyncIterator[ActivitySite]:
    fake = FakeActivities()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)  # honoured, but a test need not sit through it

    async with discord_rest(fake) as api:
        activity = DiscordActivity(
            api_url=api, client_id=APP_ID, client_secret=secret, bot_token=BOT_TOKEN, sleep=sleep
        )
        async with site(tmp_path, activity=activity) as served:
            yield ActivitySite(served, fake, waits)
