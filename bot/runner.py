"""Running the bots: every platform with a token, in one process, over one table manager
and one SQLite database (a table lives on one platform; the router sends its events there)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import Any

from bot.delivery.router import PlatformRouter
from bot.settings import Settings
from bot.tables import TableManager
from storage.database import Database

log = logging.getLogger("sahra")


async def run_bots(
    settings: Settings, ready: asyncio.Event | None = None, done: asyncio.Event | None = None
) -> None:
    """Start every configured platform; run until ``done`` is set, or SIGTERM / SIGINT.

    Shutdown is graceful: updates stop coming, in-flight moves finish their commit, the
    outboxes get a moment to flush, the database closes; turn timers are stored, so the
    next start re-arms them."""
    stopping = done or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stopping.set)
    async with Database.open(settings.database, synchronous=settings.sqlite_synchronous) as db:
        router = PlatformRouter()
        manager = TableManager(db, router)
        stops: list[Callable[[], Awaitable[None]]] = []
        bots: list[Any] = []
        if settings.telegram_token is not None:
            from bot.telegram import app as telegram

            tg = telegram.build(
                settings.telegram_token.get_secret_value(),
                db,
                api_url=settings.telegram_api_url,
                manager=manager,
                router=router,
            )
            stops.append(lambda: telegram.stop(tg, stop_manager=False))
            bots.append(tg)
        if settings.discord_token is not None:
            from bot.discord import app as discord_app

            dc = discord_app.build(
                db, sync_guild=settings.discord_guild, manager=manager, router=router
            )
            stops.append(lambda: discord_app.stop(dc, stop_manager=False))
            bots.append(dc)
        for bot in bots:  # the operator's defaults for new tables and chats
            bot.frontend.table_defaults = settings.table_defaults()
            bot.contacts.default_language = settings.default_language
        await manager.start()
        try:
            if settings.telegram_token is not None:
                await telegram.start(tg, webhook=settings.telegram_webhook(), start_manager=False)
            if settings.discord_token is not None:
                await discord_app.start(
                    dc, settings.discord_token.get_secret_value(), start_manager=False
                )
            log.info("event=bots_started platforms=%s", ",".join(router.notifiers))
            if ready is not None:
                ready.set()
            await stopping.wait()
            log.info("event=shutdown_requested")
        finally:
            for stop in stops:
                await stop()
            await manager.close()
            log.info("event=bots_stopped")
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signum)
