"""The Activity's Entry Point command (type 4) and the start-up command sync: Discord
refuses a bulk overwrite of the global commands that leaves the Entry Point out (50240),
which discord.py's own ``tree.sync()`` does; Sahra's sync sends it back as Discord has it,
creates one where Activities are on and there is none, and creates none where they are
off. An Entry Point whose handler is the app's own reaches the bot as an interaction, and
is answered with a launch (not the tree's "unknown command"). The real discord.py client
against the fake Discord."""

from __future__ import annotations

import gc
import logging
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord.texts import describe, text
from tests.bot.discord.conftest import on_sqlite, served
from tests.bot.discord.fake_discord import ENTRY_POINT, LAUNCH_ACTIVITY, entry_point
from tests.bot.support import eventually

ALI = 301
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2


def entry_points(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in commands if c.get("type") == ENTRY_POINT]


async def test_discord_refuses_a_plain_tree_sync_that_leaves_the_entry_point_out(
    tmp_path: Path,
) -> None:
    """What a start-up sync did before: the bot could not start with Activities on."""
    async with on_sqlite(tmp_path, commands=[entry_point()]) as guild:
        assert guild.bot is not None
        with pytest.raises(discord.HTTPException) as refused:
            await guild.bot.client.tree.sync()
        assert (refused.value.status, refused.value.code) == (400, 50240)
        assert guild.fake.commands == [entry_point()]  # nothing changed


async def test_the_start_up_sync_keeps_the_entry_point_as_discord_has_it(tmp_path: Path) -> None:
    ours = entry_point(handler=APP_HANDLER, command_id="1300000000000000777")
    async with on_sqlite(tmp_path, sync_commands=True, commands=[ours]) as guild:
        puts: list[Any] = guild.fake.requests("PUT", "/applications/")
        (sent,) = puts
        assert entry_points(sent) == [ours]  # sent back exactly as it was read
        (kept,) = entry_points(guild.fake.commands)
        assert (kept["id"], kept["name"], kept["handler"]) == (ours["id"], "launch", APP_HANDLER)
        assert [c["name"] for c in guild.fake.commands if c["type"] == 1] == ["sahra"]


@pytest.mark.parametrize("activities", [True, False])
async def test_the_start_up_sync_creates_an_entry_point_only_where_activities_are_on(
    tmp_path: Path, activities: bool
) -> None:
    async with on_sqlite(tmp_path, sync_commands=True, activities=activities) as guild:
        made = entry_points(guild.fake.commands)
        if not activities:
            assert made == []
            return
        (command,) = made
        assert command["name"] == "launch" and command["handler"] == DISCORD_LAUNCH_ACTIVITY
        assert command["description"] == describe("launch")
        assert (command["integration_types"], command["contexts"]) == ([0], [0])


async def test_an_entry_point_handled_by_the_app_is_answered_with_a_launch(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    commands = [entry_point(handler=APP_HANDLER)]
    async with served(tmp_path, activities=True, commands=commands) as guild:
        assert guild.bot is not None
        frontend = guild.bot.frontend
        done = frontend.commands_completed
        with caplog.at_level(logging.INFO):
            interaction = await guild.fake.entry_point(ALI)
            reply = await guild.fake.answered(interaction)
            await eventually(lambda: frontend.commands_completed > done)
            await guild.settle()
            gc.collect()  # a failed task of discord.py's tree is reported when collected
        assert reply["type"] == LAUNCH_ACTIVITY
        # The one answer: the command tree said nothing of an unknown command, and failed
        # nowhere (discord.py's tree cannot even name a type-4 command).
        assert len(guild.fake.requests("POST", f"/interactions/{interaction}/")) == 1
        assert guild.fake.notices_for(ALI) == []
        assert not [r for r in caplog.records if "unknown_command" in r.getMessage()]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_an_entry_point_that_fails_is_still_answered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """It comes as an event, not through the tree whose ``on_error`` answers a command."""
    commands = [entry_point(handler=APP_HANDLER)]
    async with served(tmp_path, commands=commands) as guild:
        await guild.slash(ALI, "new", variant="syrian41")
        assert guild.bot is not None

        def broken(*_: Any) -> str:
            raise RuntimeError("a bug")

        guild.bot.frontend.web_link = broken
        with caplog.at_level(logging.INFO, logger="sahra.discord"):
            await guild.fake.answered(await guild.fake.entry_point(ALI))
        language = guild.table().config.language
        assert guild.fake.notices_for(ALI)[-1] == text(language, "failed")
        (line,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert line.startswith("event=command_failed command=entry_point error=RuntimeError")
