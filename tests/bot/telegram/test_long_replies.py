"""Replies longer than one Telegram message, end to end (real PTB, the fake Bot API, which
refuses a text over 4,096 UTF-16 units as Telegram does): /rules arrives whole, in
ordered messages, and a group is told "sent to you privately" only once it was."""

from __future__ import annotations

import pytest

from bot.render.codes import NEW_VARIANTS
from bot.render.rules_text import rules_text
from bot.telegram.texts import text
from tests.bot.telegram.fake_api import TEXT_LIMIT
from tests.bot.telegram.harness import GROUP, World

ALI = 201


def all_rules(language: str) -> str:
    return "\n\n".join(rules_text(variant, language) for variant in NEW_VARIANTS)


def refused(world: World) -> list[int]:
    """The writes the fake refused as Telegram would (400: too long, or empty)."""
    return [call.code for call in world.fake.calls if call.code == 400]


@pytest.mark.parametrize("language", ["ar", "en"])
async def test_rules_in_a_private_chat_arrive_whole_in_ordered_messages(
    world: World, language: str
) -> None:
    await world.say(ALI, ALI, f"/lang {language}")
    before = len(world.fake.in_chat(ALI))
    await world.say(ALI, ALI, "/rules")
    arrived = [message.text for message in world.fake.in_chat(ALI)[before:]]
    assert len(arrived) > 1  # four games do not fit one message
    assert all(len(piece.encode("utf-16-le")) // 2 <= TEXT_LIMIT for piece in arrived)
    assert "\n\n".join(arrived) == all_rules(language)  # whole games, in order
    assert not refused(world)


async def test_rules_asked_in_a_group_are_pointed_to_once_they_arrived_privately(
    world: World,
) -> None:
    await world.say(GROUP, ALI, "/lang en")
    await world.say(ALI, ALI, "/start")  # Ali's private chat is open
    await world.say(GROUP, ALI, "/rules")  # no table here: all four games
    private = [message.text for message in world.fake.in_chat(ALI)[1:]]
    assert "\n\n".join(private) == all_rules("en")
    pointer = world.fake.in_chat(GROUP)[-1]
    assert "private chat" in pointer.text and "\n" not in pointer.text
    writes = [c for c in world.fake.calls if c.method == "sendMessage"]
    last_private = max(i for i, c in enumerate(writes) if int(c.params["chat_id"]) == ALI)
    assert int(writes[-1].params["chat_id"]) == GROUP and len(writes) - 1 > last_private
    assert not refused(world)


async def test_a_group_is_not_told_the_rules_were_sent_when_the_private_chat_refused_them(
    world: World,
) -> None:
    await world.say(GROUP, ALI, "/lang en")
    await world.say(ALI, ALI, "/start")
    world.fake.forbidden.add(ALI)  # then Ali blocked the bot
    group_before = len(world.fake.in_chat(GROUP))
    await world.say(GROUP, ALI, "/rules syrian")
    claimed = text("en", "rules_sent", name="\0").split("\0")[1]  # after the name
    assert not any(claimed in m.text for m in world.fake.in_chat(GROUP)[group_before:])
    # The bot learnt the private chat is closed: asked again, the rules come to the group.
    await world.say(GROUP, ALI, "/rules syrian")
    assert world.fake.in_chat(GROUP)[-1].text == rules_text("syrian41", "en")
