"""The table opened inside Discord: where the operator enabled Activities, **Open the
table** and ``/sahra play`` answer with callback type 12 (LAUNCH_ACTIVITY), and Discord
opens the web table in the channel; where Discord refuses the launch, the same press gets
the personal link instead, in the one answer an interaction may have; with Activities off,
the link as before. A press from another channel gets neither. The real discord.py client
against the fake Discord, the real web table."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest

from bot.discord.texts import text
from bot.render import refusal_notice
from bot.render.i18n import t
from tests.bot.discord.conftest import Guild, on_sqlite, served
from tests.bot.discord.fake_discord import CHANNEL, LAUNCH_ACTIVITY
from tests.bot.support import eventually

ALI, CARLA = 301, 303  # Carla is in the channel, not at the table
ELSEWHERE = CHANNEL + 7  # another channel of the same server
LINK = re.compile(r"^https://table\.example\.org/#link=[\w.-]+$")


def callbacks(guild: Guild, interaction: int) -> list[int]:
    """The callback types the bot sent for one interaction, accepted or not, in order."""
    return [body["type"] for body in guild.fake.requests("POST", f"/interactions/{interaction}/")]


def links(reply: dict[str, Any]) -> list[str]:
    rows = reply.get("data", {}).get("components", [])
    return [b["url"] for row in rows for b in row["components"] if b.get("style") == 5]


async def press_open(guild: Guild, user: int, channel: int = CHANNEL) -> int:
    """**Open the table** on the table message, pressed in ``channel``; answered."""
    assert guild.bot is not None
    done = guild.bot.frontend.completed
    button = guild.button(guild.public(), "web")
    message = guild.public() if channel == CHANNEL else None
    interaction = await guild.fake.click(user, message, button, channel=channel)
    await guild.fake.answered(interaction)
    bot = guild.bot
    await eventually(lambda: bot.frontend.completed > done)  # the handler has ended
    return interaction


async def test_open_the_table_launches_the_activity_where_activities_are_on(
    tmp_path: Path,
) -> None:
    async with served(tmp_path, activities=True) as guild:
        await guild.slash(ALI, "new", variant="syrian41")
        before = len(guild.fake.messages)
        interaction = await press_open(guild, CARLA)
        assert callbacks(guild, interaction) == [LAUNCH_ACTIVITY]
        assert len(guild.fake.messages) == before  # Discord opens the Activity: no message


async def test_a_launch_discord_refuses_falls_back_to_the_link_in_the_one_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with served(tmp_path, activities=True, activities_enabled=False) as guild:
        await guild.slash(ALI, "new", variant="syrian41")
        with caplog.at_level(logging.INFO, logger="sahra.discord"):
            interaction = await press_open(guild, CARLA)
        assert callbacks(guild, interaction) == [LAUNCH_ACTIVITY, 4]  # refused, then the link
        reply = guild.fake.responses[interaction]
        assert reply["data"]["flags"] & 64 and LINK.match(links(reply)[0])
        (line,) = [r.getMessage() for r in caplog.records if "activity_launch" in r.getMessage()]
        assert line.startswith("event=activity_launch_refused status=400 code=50035")
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_open_the_table_gives_the_link_where_activities_are_off(tmp_path: Path) -> None:
    async with served(tmp_path) as guild:
        await guild.slash(ALI, "new", variant="syrian41")
        interaction = await press_open(guild, CARLA)
        assert callbacks(guild, interaction) == [4]
        assert LINK.match(links(guild.fake.responses[interaction])[0])


async def test_a_press_from_another_channel_gets_neither_launch_nor_link(tmp_path: Path) -> None:
    async with served(tmp_path, activities=True) as guild:
        await guild.slash(ALI, "new", variant="syrian41")
        interaction = await press_open(guild, CARLA, channel=ELSEWHERE)
        assert callbacks(guild, interaction) == [4]
        reply = guild.fake.responses[interaction]
        assert links(reply) == []
        denied = t(guild.table().config.language, "web_denied_not_member")
        assert reply["data"]["content"] == denied


async def test_sahra_play_launches_the_activity_for_the_channel(tmp_path: Path) -> None:
    async with served(tmp_path, activities=True) as guild:
        # No table here yet: the Activity is launched all the same (it offers to start one).
        reply = await guild.slash(CARLA, "play")
        assert reply["type"] == LAUNCH_ACTIVITY
        await guild.slash(ALI, "new", variant="syrian41")
        reply = await guild.slash(CARLA, "play")
        assert reply["type"] == LAUNCH_ACTIVITY


async def test_sahra_play_gives_the_link_where_activities_are_off_and_a_table_is_here(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as guild:
        await guild.slash(CARLA, "play")  # no table: nothing to link to
        assert guild.bot is not None
        language = guild.bot.contacts.language(str(CHANNEL))
        assert guild.fake.notices_for(CARLA) == [refusal_notice(language, "unknown_table").text]
        await guild.slash(ALI, "new", variant="syrian41")
        reply = await guild.slash(CARLA, "play")
        assert reply["type"] == 4 and LINK.match(links(reply)[0])


async def test_sahra_play_says_so_politely_where_the_web_table_is_not_served(
    tmp_path: Path,
) -> None:
    async with on_sqlite(tmp_path, activities=True) as guild:
        await guild.slash(ALI, "new", variant="syrian41")
        reply = await guild.slash(CARLA, "play")
        assert reply["type"] == 4
        assert guild.fake.notices_for(CARLA) == [text(guild.table().config.language, "web_off")]
