"""Replies longer than one Discord message, end to end (real discord.py, the fake Discord,
which refuses content over 2,000 characters with 50035 as Discord does): ``/sahra rules``
without a game, where no table is, gives all four games, whole, in ordered ephemeral
messages."""

from __future__ import annotations

import pytest

from bot.render.codes import NEW_VARIANTS
from bot.render.rules_text import rules_text
from tests.bot.discord.conftest import Guild
from tests.bot.discord.fake_discord import too_long

ALI = 301


@pytest.mark.parametrize("language", ["ar", "en"])
async def test_rules_without_a_game_arrive_whole_in_ordered_ephemeral_messages(
    guild: Guild, language: str
) -> None:
    await guild.slash(ALI, "lang", language=language)
    before = len(guild.fake.notices_for(ALI))
    await guild.slash(ALI, "rules")
    arrived = guild.fake.notices_for(ALI)[before:]
    assert len(arrived) > 1  # four games do not fit one message
    every = "\n\n".join(rules_text(variant, language) for variant in NEW_VARIANTS)
    assert "\n\n".join(arrived) == every  # whole games, in order
    assert not [body for _, _, _, body in guild.fake.calls if too_long(body)]  # no 50035
