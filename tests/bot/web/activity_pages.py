"""Discord, offline, around the web table, for browser tests and benchmarks: the real
discord.py bot against the fake Discord (with its OAuth2 and activity-instance endpoints),
the real web table serving as the Activity, Discord's proxy and a harness playing the
Discord client (``discord_proxy.py``), and Chromium told that the application's
discordsays.com host is that proxy."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.delivery.router import PlatformRouter
from bot.tables.pace import Pace
from bot.web.activity import DiscordActivity
from bot.web.app import web_table
from bot.web.server import WebTable
from tests.backends import BackendFactory
from tests.bot.discord.conftest import Guild, booted
from tests.bot.discord.fake_activities import BOT_TOKEN, CLIENT_SECRET, FakeActivities
from tests.bot.discord.fake_discord import APP_ID
from tests.bot.support import until
from tests.bot.web.discord_proxy import DiscordProxy, browser_args, discord_proxy, launch_path
from tests.bot.web.pages import Player
from tests.browser import chromium


@dataclass
class InFrame:
    """A page's Activity frame, driven as a test drives a page: queries go to the frame
    inside the harness, bringing to the front to the harness's tab."""

    tab: Any
    frame: Any

    def __getattr__(self, name: str) -> Any:
        return getattr(self.frame, name)

    async def bring_to_front(self) -> None:
        await self.tab.bring_to_front()


@dataclass
class Discord:
    guild: Guild
    web: WebTable
    activities: FakeActivities
    proxy: DiscordProxy
    context: Any
    # Every address a tab asked for (the harness's and the page's): inside Discord the
    # Activity's CSP lets nothing reach another host than its own proxy.
    requested: list[str] = field(default_factory=list)

    async def launch(self, user: int, instance: str = "i-1", **where: Any) -> Player:
        """``user`` launches the Activity in ``instance``: the harness opens, the page loads
        in its iframe, and the test follows what the page draws."""
        tab = await self.context.new_page()
        tab.on("request", lambda request: self.requested.append(request.url))
        tab.on("websocket", lambda socket: self.requested.append(socket.url))
        player = Player(-1, tab)
        player.frames.attach(tab)
        await player.watch()
        await tab.goto(launch_path(user, instance, **where))
        frame = await until_frame(tab)
        player.page = InFrame(tab, frame)
        return player


async def until_frame(tab: Any) -> Any:
    """The harness's iframe, once the page in it has loaded its address."""
    await until(lambda: len(tab.frames) > 1 and "frame_id=" in tab.frames[1].url, "the Activity")
    return tab.frames[1]


@asynccontextmanager
async def discord(tmp_path: Path) -> AsyncIterator[Discord]:
    backend = BackendFactory("sqlite", tmp_path / "sahra.sqlite")
    async for guild in booted(backend):
        bot = guild.bot
        assert bot is not None and isinstance(bot.manager.notifier, PlatformRouter)
        activities = FakeActivities()
        guild.fake.routes.append(activities.route)
        web = await web_table(
            bot.manager, bot.manager.notifier, public_url="https://table.example.org", pace=Pace(0)
        )
        activity = DiscordActivity(
            api_url=guild.fake.base,
            client_id=APP_ID,
            client_secret=CLIENT_SECRET,
            bot_token=BOT_TOKEN,
        )
        web.enable_activity(activity)
        await web.start("127.0.0.1", 0)
        bot.notifier.web = True
        try:
            async with (
                discord_proxy(f"http://127.0.0.1:{web.port}", activities, tmp_path) as (
                    proxy,
                    port,
                ),
                chromium(browser_args(port)) as browser,
            ):
                context = await browser.new_context(
                    viewport={"width": 360, "height": 640}, ignore_https_errors=True
                )
                yield Discord(guild, web, activities, proxy, context)
        finally:
            await web.stop()
