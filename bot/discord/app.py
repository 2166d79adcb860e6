"""Assembling and running the Discord bot: a discord.py client with the ``/sahra`` command
tree, the outbox, the notifier and the table manager."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl

from bot.backoff import backoff
from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.delivery.memory import StoredMessages
from bot.delivery.router import PlatformRouter
from bot.discord.client import SahraClient
from bot.discord.frontend import PLATFORM, DiscordFrontend
from bot.discord.notifier import DiscordNotifier
from bot.discord.sender import DiscordSender
from bot.discord.texts import CONTENT
from bot.tables import TableManager
from bot.tables.computers import Computers
from storage.backend import Backend
from storage.store import Store

log = logging.getLogger("sahra.discord")

DISCORD_API = "https://discord.com/api/v10"

# Discord documents no fixed number for message writes in a channel (its rate-limit page:
# limits "should not be hard coded"): each route's bucket arrives in X-RateLimit-* headers,
# and discord.py waits when a bucket is empty or a 429 comes. Observed buckets for a
# channel's messages are 5 per 5 s, so the outbox keeps an even pace under that — one
# channel write every CHANNEL_INTERVAL at most, never more than CHANNEL_LIMIT in any
# CHANNEL_WINDOW — and a table run by computers coalesces its edits instead of queueing
# them behind discord.py's waits or bursting and then freezing.
CHANNEL_INTERVAL = 1.25
CHANNEL_LIMIT = 4
CHANNEL_WINDOW = 5.0

# Shutdown is bounded whatever the network does (SIGTERM must end the process within 5 s):
# what cannot be flushed by then is re-rendered by the next start.
FLUSH_SECONDS = 2.0
CLOSE_SECONDS = 1.5


@dataclass
class Endpoints:
    """Where discord.py connects. It reads its REST base and its first gateway URL from two
    class attributes (``Route.BASE``, ``DiscordWebSocket.DEFAULT_GATEWAY``), not from the
    client, so they are set while the bot runs and put back when it stops: REST from the
    settings, the gateway from that server's ``GET /gateway/bot`` (as Discord documents).
    A process pointed at a local server thus talks to nothing else."""

    api_url: str = DISCORD_API
    saved: tuple[str, yarl.URL] | None = None

    def enter(self) -> None:
        if self.saved is None:
            gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
            self.saved = (discord.http.Route.BASE, gateway)
        discord.http.Route.BASE = self.api_url.rstrip("/")

    def use_gateway(self, url: str) -> None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

    def restore(self) -> None:
        if self.saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self.saved
            self.saved = None


@dataclass
class DiscordBot:
    client: SahraClient
    manager: TableManager
    outbox: Outbox
    notifier: DiscordNotifier
    contacts: Contacts
    frontend: DiscordFrontend
    sender: DiscordSender
    endpoints: Endpoints = field(default_factory=Endpoints)
    runner: asyncio.Task[None] | None = None
    memory: StoredMessages | None = None
    # Called once if the gateway loop ends after READY without ``stop``: Discord is gone
    # for good for this process (``_gateway_ended``).
    on_gateway_lost: Callable[[], None] | None = None
    closing: bool = False  # ``stop`` was called: the gateway loop is meant to end


def build(
    db: Backend,
    *,
    api_url: str = DISCORD_API,
    sync_guild: int | None = None,
    sync_commands: bool = True,
    outbox_clock: Callable[[], float] | None = None,
    outbox_sleep: Callable[[float], Awaitable[None]] | None = None,
    computers: Computers | None = None,
    guild_ready_timeout: float = 2.0,
    manager: TableManager | None = None,
    router: PlatformRouter | None = None,
    shard_ids: list[int] | None = None,
    shard_count: int | None = None,
    activities: bool = False,
) -> DiscordBot:
    """The bot, not yet connected. ``activities``: the application has Activities (the
    ``discord_activity`` setting): the start-up sync gives it an Entry Point command if it
    has none, and the table opens inside Discord wherever the web table is served."""
    client = SahraClient(
        sync_guild,
        guild_ready_timeout=guild_ready_timeout,
        shard_ids=shard_ids,
        shard_count=shard_count,
    )
    client.sync_commands = sync_commands
    client.activities = activities
    contacts = Contacts(db, PLATFORM)
    sender = DiscordSender(client)
    # discord.py keeps Discord's global rate limit itself: no bot-wide budget of ours.
    memory = StoredMessages(Store(db), PLATFORM)  # message ids survive a restart
    outbox = Outbox(
        sender,
        memory=memory,
        clock=outbox_clock,
        sleep=outbox_sleep,
        group_limit=CHANNEL_LIMIT,
        window=CHANNEL_WINDOW,
        group_interval=CHANNEL_INTERVAL,
        bot_limit=None,
        limit=CONTENT,
    )
    notifier = DiscordNotifier(outbox)
    if manager is None or router is None:  # alone in the process: a manager of its own
        router = PlatformRouter()
        manager = TableManager(db, router, computers=computers)
    router.add(PLATFORM, notifier)
    frontend = DiscordFrontend(manager, contacts, notifier, outbox, sender)
    outbox.on_unreachable = frontend.unreachable  # closed DMs; channels we may not post in
    frontend.activities = activities
    client.frontend = frontend
    return DiscordBot(
        client,
        manager,
        outbox,
        notifier,
        contacts,
        frontend,
        sender,
        Endpoints(api_url),
        memory=memory,
    )


async def start(
    bot: DiscordBot, token: str, *, start_manager: bool = True, connect_retry: float = 1.0
) -> None:
    """Load the tables (unless a shared manager was started already), log in and connect
    (the gateway runs in a task, watched from then on: ``on_gateway_lost``). Cancellable at
    any point: ``stop`` cleans up after it."""
    bot.closing = False
    await bot.contacts.load()
    if bot.memory is not None:
        bot.outbox.restore(await bot.memory.load())  # a restart edits the same messages
    if start_manager:
        await bot.manager.start()
    bot.endpoints.enter()
    await bot.client.login(token)
    _, gateway, limits = await bot.client.http.get_bot_gateway()
    bot.endpoints.use_gateway(gateway)
    bot.client.identify_concurrency = int(limits.get("max_concurrency") or 1)
    log.info(
        "event=discord_gateway url=%s session_starts_left=%s", gateway, limits.get("remaining")
    )
    bot.runner = asyncio.create_task(_stay_connected(bot.client, connect_retry))
    ready = asyncio.create_task(bot.client.wait_until_ready())
    try:
        await asyncio.wait({ready, bot.runner}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        ready.cancel()
    if not bot.client.is_ready():  # the gateway loop ended: a bad token, a refused intent
        bot.runner.result()
        raise RuntimeError("the Discord gateway closed before the bot was ready")
    bot.runner.add_done_callback(lambda runner: _gateway_ended(bot, runner))
    log.info("event=discord_started user=%s", bot.client.user)
    if start_manager:
        await bot.manager.resume()  # every table's screens, redrawn where they were


# Failures of a first connection worth another try: the gateway is down or refuses for now.
# (discord.py retries a connection that was up; one that never came up can even fail its
# own retry, resuming a session it never had — the AttributeError.)
RETRIED = (
    OSError,
    asyncio.TimeoutError,
    aiohttp.ClientError,
    discord.GatewayNotFound,
    AttributeError,
)


async def _stay_connected(client: discord.Client, first_delay: float = 1.0) -> None:
    """``client.connect(reconnect=True)``, with its first connection retried (capped
    backoff) until it comes up or the client is closed; a bad token still ends it."""
    attempt = 0
    while not client.is_closed():
        try:
            await client.connect(reconnect=True)
            return
        except RETRIED as error:
            if client.is_closed() or client.is_ready():
                raise  # a connection that was up is discord.py's to keep; closing ends it
            delay = backoff(attempt, first_delay, 60.0)
            log.warning(
                "event=discord_connect_failed error=%s retry_seconds=%.1f",
                type(error).__name__,
                delay,
            )
            await asyncio.sleep(delay)
            attempt += 1


def _gateway_ended(bot: DiscordBot, runner: asyncio.Task[None]) -> None:
    """The gateway loop of a ready client ended, and not by ``stop``.

    discord.py keeps a connection that was up through every outage it can recover from
    (a dropped socket, a gateway that stops answering heartbeats, one that refuses for a
    while: resumed or re-identified with backoff, for as long as it takes), so the loop
    ends only when Discord closed a session with a code that must not be retried —
    4004 authentication failed (the token was reset), 4010/4011 invalid shard or sharding
    required, 4012 API version, 4013/4014 invalid or disallowed intents — or on an error
    of its own; the client is closed by then. This process stays deaf to Discord for good,
    so it must not keep the Discord lease: ``on_gateway_lost`` gives the role up."""
    if bot.closing:
        return
    error = None if runner.cancelled() else runner.exception()
    code = getattr(error, "code", None)
    if isinstance(error, discord.PrivilegedIntentsRequired):
        code = 4014  # discord.py turns that close into this exception, without its code
    shard = getattr(error, "shard_id", None)
    log.error(
        "event=discord_gateway_lost error=%s code=%s shard=%s",
        "cancelled" if runner.cancelled() else type(error).__name__ if error else "none",
        "-" if code is None else code,
        "-" if shard is None else shard,
    )
    if bot.on_gateway_lost is not None:
        bot.on_gateway_lost()


async def stop(bot: DiscordBot, *, stop_manager: bool = True) -> None:
    """Flush what can be flushed in FLUSH_SECONDS, then close within CLOSE_SECONDS more —
    also with Discord unreachable, the REST API hanging or the client mid-reconnect."""
    bot.closing = True
    try:
        if stop_manager:
            await bot.manager.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(bot.outbox.flush(), timeout=FLUSH_SECONDS)
        await bot.outbox.close()
        await _close_client(bot)
    finally:
        bot.endpoints.restore()


async def _close_client(bot: DiscordBot) -> None:
    closing = asyncio.create_task(bot.client.close())
    await asyncio.wait({closing}, timeout=CLOSE_SECONDS)
    if not closing.done():  # a gateway that never answers our close frame
        log.warning("event=discord_close_timeout seconds=%s", CLOSE_SECONDS)
        closing.cancel()
        await asyncio.wait({closing}, timeout=0.5)
        await bot.client.http.close()  # drops the socket the close frame waited on
    runner = bot.runner
    if runner is not None:
        # Asleep in discord.py's reconnect backoff (up to minutes), the gateway loop does
        # not notice the close until it wakes: it is cancelled instead.
        runner.cancel()
        await asyncio.wait({runner}, timeout=0.5)
    for task in (closing, runner):
        if task is not None and task.done() and not task.cancelled() and task.exception():
            log.warning("event=discord_close_error error=%s", type(task.exception()).__name__)
