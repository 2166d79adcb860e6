"""A new table's language: the channel's, where ``/sahra lang`` chose one; else the
asker's Discord language where it is Arabic (Discord's list has none yet: this is for the
day it does, or a client that sends one); else the operator's default — an English
locale does not override it, since an Arabic reader's client is most often in English.
The real discord.py client against the fake Discord."""

from __future__ import annotations

from pathlib import Path

from tests.bot.discord.conftest import Guild, on_sqlite
from tests.bot.discord.fake_discord import CHANNEL

ALI = 301
CHOSEN = CHANNEL + 1  # a channel whose language was chosen with /sahra lang
OTHER = CHANNEL + 2


def language_at(guild: Guild, channel: int) -> str:
    assert guild.bot is not None
    table = guild.bot.manager.table_at(Guild.table_place(channel))
    assert table is not None
    return table.config.language


async def test_a_new_table_takes_an_arabic_locale_where_the_channel_chose_no_language(
    tmp_path: Path,
) -> None:
    async with on_sqlite(tmp_path) as guild:
        assert guild.bot is not None
        guild.bot.contacts.default_language = "en"  # the operator's default
        await guild.slash(ALI, "lang", language="en", channel=CHOSEN)
        await guild.slash(ALI, "new", variant="syrian41", locale="ar")
        await guild.slash(ALI, "new", variant="syrian41", locale="ar", channel=CHOSEN)
        assert (language_at(guild, CHANNEL), language_at(guild, CHOSEN)) == ("ar", "en")
        guild.bot.contacts.default_language = "ar"
        await guild.slash(ALI, "new", variant="syrian41", locale="en-GB", channel=OTHER)
        assert language_at(guild, OTHER) == "ar"
