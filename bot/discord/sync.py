"""The application's global commands, synced at start without losing its Entry Point.

An application with Activities has an Entry Point command (type 4, PRIMARY_ENTRY_POINT:
the App Launcher's way into the Activity, created by Discord when Activities are
enabled). Syncing is a bulk overwrite (``PUT /applications/{id}/commands``), and Discord
refuses one that leaves the Entry Point out (400, code 50240), so discord.py's
``tree.sync()``, which knows no type-4 command and sends only the tree's, would fail at
every start. Here the current commands are read first and every Entry Point is sent back
exactly as Discord has it (its id, name and handler), beside the tree's commands built as
``tree.sync()`` builds them. Guild commands (``sync_guild``, development) are untouched by
this: an Entry Point is global only.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.texts import describe

log = logging.getLogger("sahra.discord")

ENTRY_POINT = 4  # application command type PRIMARY_ENTRY_POINT
DISCORD_LAUNCH_ACTIVITY = 2  # Entry Point handler: Discord launches the Activity itself
GUILD_INSTALL = 0  # integration type
GUILD = 0  # interaction context: a server's channels (where Sahra's tables are)


def entry_point() -> dict[str, Any]:
    """The Entry Point an application with Activities gets when it has none (one Discord
    made may have been deleted): Discord launches the Activity on its own (handler 2), so
    it works whether or not this process is connected."""
    return {
        "name": "launch",
        "type": ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "description": describe("launch"),
        "integration_types": [GUILD_INSTALL],
        "contexts": [GUILD],
    }


async def sync_global(
    client: discord.Client, tree: app_commands.CommandTree[Any], *, activities: bool
) -> list[dict[str, Any]]:
    """Overwrite the global commands with the tree's, keeping the Entry Point (creating
    one where ``activities`` and there is none). Returns the commands as Discord stored
    them."""
    app = client.application_id
    if app is None:
        raise app_commands.MissingApplicationID
    current: list[Any] = list(await client.http.get_global_commands(app))
    kept: list[dict[str, Any]] = [dict(c) for c in current if c.get("type") == ENTRY_POINT]
    commands = tree.get_commands()
    translator = tree.translator
    if translator:
        ours = [await command.get_translated_payload(tree, translator) for command in commands]
    else:
        ours = [command.to_dict(tree) for command in commands]
    entry = "kept" if kept else "none"
    if not kept and activities:
        kept, entry = [entry_point()], "created"
    try:
        stored: list[Any] = await client.http.bulk_upsert_global_commands(app, ours + kept)
    except discord.HTTPException as error:
        if error.status == 400 and error.code == 50035:  # as tree.sync: a command's data
            raise app_commands.CommandSyncFailure(error, commands) from None
        raise
    log.info("event=commands_synced scope=global commands=%d entry_point=%s", len(stored), entry)
    return [dict(c) for c in stored]
