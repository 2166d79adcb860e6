"""Assembling and running the Discord bot: a discord.py client with the ``/sahra`` command
tree and the dynamic table buttons, the outbox, the notifier and the table manager."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.delivery.router import PlatformRouter
from bot.discord.frontend import PLATFORM, DiscordFrontend
from bot.discord.notifier import DiscordNotifier
from bot.discord.sender import DiscordSender
from bot.discord.views import SahraButton
from bot.tables import TableManager
from bot.tables.computers import Computers
from storage.database import Database

log = logging.getLogger("sahra.discord")

# Discord allows about 5 message writes per 5 s in a channel; the outbox keeps under it.
CHANNEL_LIMIT = 50


class SahraClient(discord.Client):
    frontend: DiscordFrontend

    def __init__(self, sync_guild: int | None = None, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), **options)
        self.tree = app_commands.CommandTree(self)
        self.sync_guild = sync_guild
        self.sync_commands = True

    async def setup_hook(self) -> None:
        self.add_dynamic_items(SahraButton)  # buttons survive restarts (custom_id holds all)
        self.tree.add_command(self.frontend.commands())
        if not self.sync_commands:
            return
        if self.sync_guild is not None:  # development: a guild's commands update at once
            guild = discord.Object(id=self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


@dataclass
class DiscordBot:
    client: SahraClient
    manager: TableManager
    outbox: Outbox
    notifier: DiscordNotifier
    contacts: Contacts
    frontend: DiscordFrontend
    runner: asyncio.Task[None] | None = None


def build(
    db: Database,
    *,
    sync_guild: int | None = None,
    sync_commands: bool = True,
    outbox_clock: Callable[[], float] | None = None,
    outbox_sleep: Callable[[float], Awaitable[None]] | None = None,
    computers: Computers | None = None,
    guild_ready_timeout: float = 2.0,
    manager: TableManager | None = None,
    router: PlatformRouter | None = None,
) -> DiscordBot:
    client = SahraClient(sync_guild, guild_ready_timeout=guild_ready_timeout)
    client.sync_commands = sync_commands
    contacts = Contacts(db, PLATFORM)
    outbox = Outbox(
        DiscordSender(client), clock=outbox_clock, sleep=outbox_sleep, group_limit=CHANNEL_LIMIT
    )
    notifier = DiscordNotifier(outbox)
    outbox.on_unreachable = notifier.unreachable  # a closed private chat, reported once
    if manager is None or router is None:  # alone in the process: a manager of its own
        router = PlatformRouter()
        manager = TableManager(db, router, computers=computers)
    router.add(PLATFORM, notifier)
    frontend = DiscordFrontend(manager, contacts, notifier, outbox)
    client.frontend = frontend
    return DiscordBot(client, manager, outbox, notifier, contacts, frontend)


async def start(bot: DiscordBot, token: str, *, start_manager: bool = True) -> None:
    """Load the tables (unless a shared manager was started already), log in and connect
    (the gateway runs in a task)."""
    await bot.contacts.load()
    if start_manager:
        await bot.manager.start()
    await bot.client.login(token)
    bot.runner = asyncio.create_task(bot.client.connect(reconnect=True))
    await bot.client.wait_until_ready()
    log.info("event=discord_started user=%s", bot.client.user)


async def stop(bot: DiscordBot, *, stop_manager: bool = True) -> None:
    if stop_manager:
        await bot.manager.close()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(bot.outbox.flush(), timeout=5)
    await bot.outbox.close()
    await bot.client.close()
    if bot.runner is not None:
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await bot.runner
