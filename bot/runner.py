"""Running the bots: every platform with a token, over one table manager and one database
(a table lives on one platform; the router sends its events there).

Each platform is a role this process takes under a lease (``storage/lease.py``): the
``telegram`` lease, and one lease per Discord shard this process is told to run. Taking a
role loads that role's live tables from the log, re-arms their timers, starts the
platform and redraws the tables' screens. With SQLite the file's one lease covers every
role: one process runs everything and another stands by. With PostgreSQL the roles are
taken one by one, so processes can split Discord's shards and stand by for each other;
an update that reaches a process which does not own its table is forwarded through the
database to the one that does (``bot/cluster/``).

A process stops when it can no longer run a role it holds, so that a standby takes the
role over: when its leases are no longer certain (``LeaseLost``), and when a platform is
gone for good after it started — Discord closed the gateway with a code that must not be
retried (``RoleFailed``). A supervisor restarts it; it comes back as a standby.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.cluster.inbox import Inbox
from bot.cluster.partitions import Ownership, discord_partitions
from bot.delivery.router import PlatformRouter
from bot.logs import where
from bot.settings import Settings
from bot.tables import TableManager
from storage.backend import Backend
from storage.lease import Lease, lease_for
from storage.opening import open_backend
from storage.records import TableRecord

log = logging.getLogger("sahra")
LEASE_CHECK_SECONDS = 1.0


class LeaseLost(RuntimeError):
    """A lease was lost (the database stopped answering this process): it stopped so
    that a standby can take over; a supervisor restarts it as a standby."""


class RoleFailed(RuntimeError):
    """A role's platform stopped for good after it started (the Discord gateway closed
    with a fatal code: a reset token, refused intents, a sharding error). Its leases may
    not be kept by a process that no longer serves them: the process stopped, releasing
    every lease, so that a standby takes over; a supervisor restarts it as a standby.

    The whole process stops rather than the one role: with SQLite one lease stands for
    every role, and a role given up while the process lives would be taken again by the
    same process at once, failing the same way; a restart takes seconds, in which a
    standby (asking every second) takes it."""


@dataclass
class Role:
    """One part of the bot a process runs when it holds ``leases``."""

    name: str
    leases: list[str]
    partitions: set[str]
    own: Callable[[], Awaitable[None]]  # start serving (the tables are loaded first)
    stop: Callable[[], Awaitable[None]]
    running: bool = False  # something of it was started (stop it at shutdown)


async def run_bots(
    settings: Settings, ready: asyncio.Event | None = None, done: asyncio.Event | None = None
) -> None:
    """Start every configured platform; run until ``done`` is set, or SIGTERM / SIGINT.

    A process that cannot take a role's lease stands by for it, makes no platform call
    for it, and takes over within seconds when the holder dies. ``ready`` is set once
    every role runs here. Shutdown is graceful and bounded: updates stop coming, in-flight
    moves finish their commit, the outboxes get a moment to flush, the database closes;
    turn timers are stored, so the next start re-arms them. A signal during start-up (a
    login that hangs, a gateway that is down) is obeyed at once."""
    stopping = done or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stopping.set)
    url = settings.database_address()
    lease = lease_for(settings.database, url)
    lost = asyncio.Event()
    failed: list[str] = []  # roles whose platform stopped for good
    try:
        # SQLite: one process per file, so the file's lease comes before opening it.
        if url is None and not await lease.acquire(stopping):
            return  # asked to stop while standing by
        async with open_backend(settings.database, url, settings.sqlite_synchronous) as db:
            await _run(settings, db, lease, stopping, ready, lost, failed)
    finally:
        await lease.release()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signum)
    if lost.is_set():
        raise LeaseLost("a lease was lost")
    if failed:
        raise RoleFailed(f"{','.join(failed)} stopped for good (see event=role_failed)")


async def _watch(lease: Lease, stopping: asyncio.Event, lost: asyncio.Event) -> None:
    """Stop at once when the leases are no longer certain: another process may hold them
    soon (the server ends a dead session within seconds), and two owners must never run."""
    while not stopping.is_set():
        try:
            held = await lease.held()
        except Exception as error:  # a check that cannot answer is no certainty either
            log.error(
                "event=lease_check_failed error=%s where=%s", type(error).__name__, where(error)
            )
            held = False
        if not held:
            log.error("event=lease_lost")
            lost.set()
            stopping.set()
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), LEASE_CHECK_SECONDS)


class _Roles:
    """Takes each role as its lease comes, loading its tables and starting its platform."""

    def __init__(
        self,
        manager: TableManager,
        ownership: Ownership,
        inbox: Inbox | None,
        lease: Lease,
        stopping: asyncio.Event,
        lost: asyncio.Event,
    ) -> None:
        self.manager = manager
        self.ownership = ownership
        self.inbox = inbox
        self.lease = lease
        self.stopping = stopping
        self.lost = lost
        self.watchdog: asyncio.Task[None] | None = None

    async def take(self, role: Role) -> None:
        if not await self.lease.acquire(self.stopping, role.leases):
            return
        if self.watchdog is None:
            self.watchdog = asyncio.create_task(
                _watch(self.lease, self.stopping, self.lost), name="sahra-lease"
            )
        mine = Ownership(self.ownership.shard_count, set(role.partitions))

        def keep(record: TableRecord) -> bool:
            return mine.owns(record.platform, record.guild)

        tables = await self.manager.start(keep)
        role.running = True
        await role.own()
        self.ownership.add(role.partitions)
        if self.inbox is not None:
            self.inbox.wake()  # updates forwarded while nobody owned these may be waiting
        log.info("event=role_taken role=%s tables=%d", role.name, len(tables))
        await self.manager.resume(tables)  # their screens, redrawn where they were

    async def close(self) -> None:
        if self.watchdog is not None:
            self.watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.watchdog


async def _run(
    settings: Settings,
    db: Backend,
    lease: Lease,
    stopping: asyncio.Event,
    ready: asyncio.Event | None,
    lost: asyncio.Event,
    failed: list[str],
) -> None:
    router = PlatformRouter()
    manager = TableManager(db, router)
    web = None
    if settings.web_url:
        from bot.tables.pace import Pace
        from bot.tables.reviews import deal_analysis
        from bot.web.app import web_table

        telegram_token = settings.telegram_token
        web = await web_table(
            manager,
            router,
            public_url=settings.web_url,
            pace=Pace(scale=settings.web_pace),
            telegram_token=(
                telegram_token.get_secret_value() if telegram_token is not None else None
            ),
            # Each finished deal's double-dummy analysis (issue 35), off the event loop.
            analyse=deal_analysis,
        )
        web.arrivals.defaults = settings.table_defaults()
        web.arrivals.default_language = settings.default_language
        if settings.discord_activity:
            _enable_activity(web, settings)
    ownership = Ownership()
    # Forwarding needs a database other processes share: PostgreSQL.
    inbox = Inbox(manager.store, ownership) if db.dialect == "postgresql" else None
    roles: list[Role] = []
    listens: list[Callable[[], Awaitable[None]]] = []
    bots: list[Any] = []
    if settings.telegram_token is not None:
        from bot.telegram import app as telegram

        tg = telegram.build(
            settings.telegram_token.get_secret_value(),
            db,
            api_url=settings.telegram_api_url,
            manager=manager,
            router=router,
            group_interval=settings.telegram_group_interval,
            private_interval=settings.telegram_private_interval,
        )
        webhook = None
        if settings.telegram_webhook_url:
            # Unless configured, the secret is made once and kept in the database: every
            # process on it sets the same one, so Telegram's posts pass at any of them.
            configured = settings.telegram_webhook_secret is not None
            webhook = settings.telegram_webhook(
                None if configured else await telegram.webhook_secret(db)
            )
        if inbox is not None:
            tg.forward = lambda payload: _forward(inbox, "telegram", payload)
            inbox.handlers["telegram"] = tg.receive
        role = Role(
            "telegram",
            ["telegram"],
            {"telegram"},
            lambda: telegram.own(tg, webhook=webhook),
            lambda: telegram.stop(tg, stop_manager=False),
        )
        if inbox is not None and webhook:
            # Behind a load balancer: receive (and forward) before owning.
            async def listen(role: Role = role, webhook: dict[str, Any] = webhook) -> None:
                role.running = True
                await telegram.listen(tg, webhook)

            listens.append(listen)
        roles.append(role)
        bots.append(tg)
    if settings.discord_token is not None:
        from bot.discord import app as discord_app
        from bot.discord.forwarding import DmForwarding

        shard_ids, shard_count = settings.discord_shard_plan()
        partitions = discord_partitions(shard_ids, shard_count)
        dc = discord_app.build(
            db,
            api_url=settings.discord_api_url,
            sync_guild=settings.discord_guild,
            shard_ids=shard_ids,
            shard_count=shard_count,
            manager=manager,
            router=router,
            activities=settings.discord_activity,
        )
        leases = ["discord"]
        if shard_ids is not None and shard_count is not None and "discord:*" not in partitions:
            ownership.shard_count = shard_count
            leases = [f"discord:{shard}/{shard_count}" for shard in shard_ids]
            if inbox is not None:
                forwarding = DmForwarding(dc.client, manager.store, ownership, inbox)
                forwarding.install()
                inbox.handlers["discord"] = forwarding.receive
        token = settings.discord_token.get_secret_value()

        def gateway_lost() -> None:
            log.error("event=role_failed role=discord leases=%s", ",".join(leases))
            failed.append("discord")
            stopping.set()  # every lease released on the way out: a standby takes over

        dc.on_gateway_lost = gateway_lost
        roles.append(
            Role(
                "discord",
                leases,
                partitions,
                lambda: discord_app.start(dc, token, start_manager=False),
                lambda: discord_app.stop(dc, stop_manager=False),
            )
        )
        bots.append(dc)
    for bot in bots:  # the operator's defaults for new tables and chats
        bot.frontend.table_defaults = settings.table_defaults()
        bot.contacts.default_language = settings.default_language
    remote = None
    if web is not None:
        _offer_web(web, settings, bots)
        if inbox is not None:  # a page may reach any process: it serves every table
            from bot.web.remote import RemotePages

            remote = web.remote = RemotePages(manager, web.hub, inbox, ownership)
            await remote.start()
        await web.start(settings.web_listen, settings.web_port)
    taker = _Roles(manager, ownership, inbox, lease, stopping, lost)
    startup = asyncio.create_task(_start(taker, roles, listens, inbox))
    signalled = asyncio.create_task(stopping.wait())
    try:
        await asyncio.wait({startup, signalled}, return_when=asyncio.FIRST_COMPLETED)
        # A signal wins over a start-up that failed at the same moment (closing the client
        # is what made it fail): the operator asked to stop, and stopping is clean.
        if startup.done() and not stopping.is_set():
            startup.result()  # a platform that could not start stops Sahra with its error
            log.info("event=bots_started platforms=%s", ",".join(router.notifiers))
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
        # Each platform bounds its own shutdown; together they take the longest one's
        # time. A role never taken may still have a webhook receiver to stop.
        stops = [role.stop() for role in roles if role.running]
        results = await asyncio.gather(*stops, return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.error("event=bot_stop_failed error=%s", type(result).__name__)
        if web is not None:
            await web.stop()
        if remote is not None:
            await remote.close()
        await manager.close()
        if inbox is not None:
            await inbox.close()
        await taker.close()
        log.info("event=bots_stopped")


def _enable_activity(web: Any, settings: Settings) -> None:
    """The web table as a Discord Activity: launches proven with Discord's OAuth2 and the
    bot token (``bot/web/activity.py``). The settings' check made sure all are set."""
    from bot.web.activity import DiscordActivity

    assert settings.discord_client_id is not None
    assert settings.discord_client_secret is not None and settings.discord_token is not None
    web.enable_activity(
        DiscordActivity(
            api_url=settings.discord_api_url,
            client_id=settings.discord_client_id,
            client_secret=settings.discord_client_secret.get_secret_value(),
            bot_token=settings.discord_token.get_secret_value(),
        )
    )


def _offer_web(web: Any, settings: Settings, bots: list[Any]) -> None:
    """Each platform's way to the web table: Telegram's Mini App buttons, Discord's
    personal links; and who may watch a platform's tables (Telegram: a member of the
    group, asked through this process's bot, whether or not it holds the ``telegram``
    role; Discord's links are issued only in the table's channel, ``bot.web.identity``)."""
    from bot.discord.app import DiscordBot
    from bot.telegram.app import TelegramBot
    from bot.telegram.members import TelegramMembers
    from bot.telegram.webapp import MiniApp

    assert settings.web_url is not None
    for bot in bots:
        if isinstance(bot, TelegramBot):
            bot.notifier.mini_app = MiniApp(settings.web_url, settings.telegram_webapp)
            web.gate.members["telegram"] = TelegramMembers(bot.application.bot)
        elif isinstance(bot, DiscordBot):
            bot.notifier.web = True
            bot.frontend.web_link = lambda table, player: web.personal_link(
                "discord", table, player
            )


async def _forward(inbox: Inbox, target: str, payload: str) -> None:
    await inbox.forward(target, payload)


async def _start(
    taker: _Roles,
    roles: list[Role],
    listens: list[Callable[[], Awaitable[None]]],
    inbox: Inbox | None,
) -> None:
    """Receive what may be received before owning, then take every role (each waits for
    its own lease; a role that cannot start ends the start-up with its error)."""
    if inbox is not None:
        await inbox.start()
    for listen in listens:
        await listen()
    await asyncio.gather(*(taker.take(role) for role in roles))
