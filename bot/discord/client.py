"""The discord.py client Sahra runs: IDENTIFY paced by Discord's buckets, the ``/sahra``
command tree synced at start (keeping the Activity's Entry Point: ``sync``), and every
interaction handed to the frontend."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands

from bot.discord.frontend import DiscordFrontend
from bot.discord.sync import ENTRY_POINT, sync_global

IDENTIFY_SECONDS = 5.0  # one IDENTIFY per rate-limit bucket per 5 s (Discord's gateway docs)


def is_entry_point(interaction: discord.Interaction[Any]) -> bool:
    """The application's Entry Point command (type 4), which discord.py's tree cannot run."""
    data: dict[str, Any] = dict(interaction.data or {})
    return (
        interaction.type is discord.InteractionType.application_command
        and data.get("type") == ENTRY_POINT
    )


class SahraTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        # discord.py hands every application command to the tree, and the tree takes a
        # type it does not know for a context menu (``AppCommandType(4)`` raises there):
        # the Entry Point is left alone here, for ``SahraClient.on_interaction``.
        if is_entry_point(interaction):
            return False
        await self.client.frontend.prefetch(interaction)  # the channel's language, first
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        # The library's default only logs a traceback and leaves the user with "This
        # interaction failed"; a stale or garbled command deserves an answer instead.
        try:
            await self.client.frontend.command_failed(interaction, error)
        finally:
            self.client.frontend.commands_completed += 1


class SahraClient(discord.AutoShardedClient):
    """Sharded as Discord requires past 2,500 servers: ``shard_count`` None takes Discord's
    recommendation (one shard for a small bot); every shard runs in this process."""

    frontend: DiscordFrontend

    def __init__(self, sync_guild: int | None = None, **options: Any) -> None:
        # No message of ours may ping anyone: a display name could say @everyone.
        super().__init__(
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.tree = SahraTree(self)
        self.sync_guild = sync_guild
        self.sync_commands = True
        self.activities = False  # the application has Activities: it gets an Entry Point
        self.identify_concurrency = 1  # from /gateway/bot: IDENTIFY buckets per 5 s

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord's documented IDENTIFY limit: shard k is in bucket k % max_concurrency,
        and each bucket may IDENTIFY once every 5 s. Shards start in order, so only the
        first of each round of ``max_concurrency`` shards waits (discord.py's default
        waits 5 s before every shard after the first)."""
        concurrency = max(1, self.identify_concurrency)
        if not initial and shard_id is not None and shard_id % concurrency == 0:
            await asyncio.sleep(IDENTIFY_SECONDS)

    async def setup_hook(self) -> None:
        self.tree.add_command(self.frontend.commands())
        if not self.sync_commands:
            return
        if self.sync_guild is not None:  # development: a guild's commands update at once
            guild = discord.Object(id=self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await sync_global(self, self.tree, activities=self.activities)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: Any
    ) -> None:
        # discord.py runs a command in a task of its own and reports its end only by this
        # event (or the tree's on_error): the count says when a command's effects are all
        # queued, which a caller's answer alone does not.
        self.frontend.commands_completed += 1

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Buttons are routed here from their custom_id (``bot.discord.views``), so that a
        click on any button is answered; slash commands go through the command tree, the
        Entry Point command (when its handler is the app's) comes here."""
        if interaction.type is discord.InteractionType.component:
            await self.frontend.prefetch(interaction)
            await self.frontend.on_component(interaction)
        elif interaction.type is discord.InteractionType.modal_submit:
            await self.frontend.on_unknown(interaction, "modal")
        elif is_entry_point(interaction):
            await self.frontend.prefetch(interaction)
            await self.frontend.on_entry_point(interaction)
