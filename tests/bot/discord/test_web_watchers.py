"""Who may watch a Discord table on the web (issue 32, item 5): a Discord page opens only
with a personal link, and the link is the proof that its holder can see the table's
channel, so it is issued only for a press in that channel of that server. A press that
reaches the table from anywhere else (another channel, another server, a DM: a crafted or
a forwarded press) gets no link. The real discord.py client against the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

from bot.delivery.router import PlatformRouter
from bot.discord.activity import pressed_where
from bot.render.i18n import t
from bot.tables.live import Place
from bot.web.app import web_table
from bot.web.server import WebTable
from tests.bot.discord.conftest import Guild
from tests.bot.discord.fake_discord import CHANNEL, GUILD
from tests.bot.discord.test_e2e import ALI, open_table
from tests.bot.support import eventually

CARLA = 303  # not at the table
ELSEWHERE = CHANNEL + 7  # another channel of the same server


@pytest.fixture
async def served(guild: Guild) -> AsyncIterator[WebTable]:
    """The web table beside the bot, offered the way ``sahra run`` offers it."""
    bot = guild.bot
    assert bot is not None and isinstance(bot.manager.notifier, PlatformRouter)
    web = await web_table(bot.manager, bot.manager.notifier, public_url="https://t.example.org")
    bot.notifier.web = True
    bot.frontend.web_link = lambda table, player: web.personal_link("discord", table, player)
    yield web


def link_buttons(reply: dict[str, Any]) -> list[dict[str, Any]]:
    rows = reply.get("data", {}).get("components", [])
    return [b for row in rows for b in row["components"] if b.get("style") == 5]


async def test_open_the_table_pressed_in_another_channel_gives_no_link(
    guild: Guild, served: WebTable
) -> None:
    await open_table(guild, "syrian41", [ALI])
    table = guild.table()
    web = guild.button(guild.public(), "web")
    assert guild.bot is not None
    done = guild.bot.frontend.completed
    interaction = await guild.fake.click(CARLA, None, web, channel=ELSEWHERE)
    reply = await guild.fake.answered(interaction)
    assert reply["data"]["flags"] & 64 and link_buttons(reply) == []
    assert reply["data"]["content"] == t(table.config.language, "web_denied_not_member")
    bot = guild.bot
    await eventually(lambda: bot.frontend.completed > done)  # the handler ended after it
    # The same press in the table's own channel gets Carla her link to watch.
    reply = await guild.click(CARLA, guild.public(), web)
    assert len(link_buttons(reply)) == 1


def press(channel: int | None, guild: int | None) -> Any:
    return SimpleNamespace(channel_id=channel, guild_id=guild)


@pytest.mark.parametrize(
    ("interaction", "allowed"),
    [
        (press(CHANNEL, GUILD), True),
        (press(CHANNEL + 1, GUILD), False),  # another channel of the server
        (press(CHANNEL, GUILD + 1), False),  # the same id elsewhere: never, but not trusted
        (press(700_303, None), False),  # a DM
        (press(None, None), False),
    ],
)
def test_a_link_is_issued_only_for_a_press_in_the_table_s_own_channel(
    interaction: Any, allowed: bool
) -> None:
    table: Any = SimpleNamespace(place=Place("discord", str(CHANNEL), "", str(GUILD)))
    assert pressed_where(interaction, table) is allowed
    # A table from before the server was kept (no guild): its channel decides alone.
    older: Any = SimpleNamespace(place=Place("discord", str(CHANNEL), ""))
    assert pressed_where(interaction, older) is (interaction.channel_id == CHANNEL)
