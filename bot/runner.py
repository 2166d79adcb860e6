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
from storage.backend import Backend
from storage.lease import Lease, lease_for
from storage.opening import open_backend

log = logging.getLogger("sahra")
LEASE_CHECK_SECONDS = 1.0


class LeaseLost(RuntimeError):
    """The leader lease was lost (the database stopped answering this process): it
    stopped so that a standby can take over; a supervisor restarts it as a standby."""


async def run_bots(
    settings: Settings, ready: asyncio.Event | None = None, done: asyncio.Event | None = None
) -> None:
    """Start every configured platform; run until ``done`` is set, or SIGTERM / SIGINT.

    Only the holder of the leader lease (``storage/lease.py``) runs: another process on
    the same database stands by, makes no platform call, and takes over within seconds
    when the holder dies. Shutdown is graceful and bounded: updates stop coming, in-flight
    moves finish their commit, the outboxes get a moment to flush, the database closes;
    turn timers are stored, so the next start re-arms them. A signal during start-up (a
    login that hangs, a gateway that is down) is obeyed at once, not after the platform
    answers."""
    stopping = done or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stopping.set)
    lease = lease_for(settings.database, settings.database_address())
    lost = asyncio.Event()
    watchdog: asyncio.Task[None] | None = None
    try:
        if not await lease.acquire(stopping):
            return  # asked to stop while standing by
        watchdog = asyncio.create_task(_watch(lease, stopping, lost), name="sahra-lease")
        async with open_backend(
            settings.database, settings.database_address(), settings.sqlite_synchronous
        ) as db:
            await _run(settings, db, stopping, ready)
    finally:
        if watchdog is not None:
            watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watchdog
        await lease.release()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signum)
    if lost.is_set():
        raise LeaseLost("the leader lease was lost")


async def _watch(lease: Lease, stopping: asyncio.Event, lost: asyncio.Event) -> None:
    """Stop at once when the lease is no longer certain: another process may hold it soon
    (the server ends a dead session within seconds), and two leaders must never poll."""
    while not stopping.is_set():
        if not await lease.held():
            log.error("event=lease_lost")
            lost.set()
            stopping.set()
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), LEASE_CHECK_SECONDS)


async def _run(
    settings: Settings, db: Backend, stopping: asyncio.Event, ready: asyncio.Event | None
) -> None:
    router = PlatformRouter()
    manager = TableManager(db, router)
    starts: list[Callable[[], Awaitable[None]]] = []
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
        webhook = settings.telegram_webhook()
        starts.append(lambda: telegram.start(tg, webhook=webhook, start_manager=False))
        stops.append(lambda: telegram.stop(tg, stop_manager=False))
        bots.append(tg)
    if settings.discord_token is not None:
        from bot.discord import app as discord_app

        shard_ids, shard_count = settings.discord_shard_plan()
        dc = discord_app.build(
            db,
            api_url=settings.discord_api_url,
            sync_guild=settings.discord_guild,
            shard_ids=shard_ids,
            shard_count=shard_count,
            manager=manager,
            router=router,
        )
        token = settings.discord_token.get_secret_value()
        starts.append(lambda: discord_app.start(dc, token, start_manager=False))
        stops.append(lambda: discord_app.stop(dc, stop_manager=False))
        bots.append(dc)
    for bot in bots:  # the operator's defaults for new tables and chats
        bot.frontend.table_defaults = settings.table_defaults()
        bot.contacts.default_language = settings.default_language
    await manager.start()
    startup = asyncio.create_task(_start_all(starts))
    signalled = asyncio.create_task(stopping.wait())
    try:
        await asyncio.wait({startup, signalled}, return_when=asyncio.FIRST_COMPLETED)
        # A signal wins over a start-up that failed at the same moment (closing the client
        # is what made it fail): the operator asked to stop, and stopping is clean.
        if startup.done() and not stopping.is_set():
            startup.result()  # a platform that could not start stops Sahra with its error
            log.info("event=bots_started platforms=%s", ",".join(router.notifiers))
            await manager.resume()  # every table's screens, redrawn where they were
            if ready is not None:
                ready.set()
            await signalled
            log.info("event=shutdown_requested")
        else:
            log.info("event=shutdown_requested during=startup")
    finally:
        for task in (startup, signalled):
            task.cancel()
        await asyncio.wait({startup, signalled}, timeout=1.0)
        if startup.done() and not startup.cancelled():
            startup.exception()  # retrieved (raised above, or lost to the shutdown)
        # Each platform bounds its own shutdown; together they take the longest one's time.
        results = await asyncio.gather(*(stop() for stop in stops), return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.error("event=bot_stop_failed error=%s", type(result).__name__, exc_info=result)
        await manager.close()
        log.info("event=bots_stopped")


async def _start_all(starts: list[Callable[[], Awaitable[None]]]) -> None:
    for begin in starts:
        await begin()
