"""Every interaction gets a polite ephemeral answer, whatever it carries — a button from
an older version, one no longer on its message, one that does not parse, a slash command
or option Discord still shows after it changed — logged as one warning line, no
traceback. And interactions of different channels are handled side by side."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from bot.render import refusal_notice
from bot.render.codes import encode
from tests.bot.discord.conftest import Guild, playable
from tests.bot.discord.fake_discord import CHANNEL
from tests.bot.discord.test_e2e import open_table
from tests.bot.support import CARD_IN_LOG, configured_logs, eventually, play_a_card_not_held

ALI, BADR = 301, 302
OTHER_CHANNEL = 555002
STALE = "هذا الزر قديم؛ استخدم أحدث رسالة."
UNKNOWN_TABLE = "لا توجد هذه الطاولة (ربما انتهت)."
BAD_OPTION = "هذا الخيار غير صالح."


def refusal_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "event=interaction_refused" in r.getMessage()]


def assert_one_warning(caplog: pytest.LogCaptureFixture, reason: str) -> None:
    lines = refusal_lines(caplog)
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].levelno == logging.WARNING and f"reason={reason}" in lines[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def ephemeral(reply: dict[str, Any]) -> bool:
    return reply["type"] == 4 and reply["data"]["flags"] & 64 == 64


async def click_answer(guild: Guild, user: int, custom_id: str, on: str = "own") -> str:
    """Click ``custom_id`` — on a message that carries it ("own", as Discord sends it), on
    the current table message that no longer does ("table"), or with no message ("none")
    — and return the ephemeral answer's text."""
    message = {
        "own": lambda: guild.fake.posted("an older table", [custom_id]),
        "table": guild.public,
        "none": lambda: None,
    }[on]()
    told = len(guild.fake.notices_for(user))
    interaction = await guild.fake.click(user, message, custom_id)
    reply = await guild.fake.answered(interaction)
    assert ephemeral(reply) or reply["type"] == 6, reply  # answered, or deferred: a followup
    await eventually(lambda: len(guild.fake.notices_for(user)) > told)
    return guild.fake.notices_for(user)[-1]


@pytest.mark.parametrize(
    ("custom_id", "on", "reason", "answer"),
    [
        ("sahra:7:play:QH", "own", "unknown_custom_id", STALE),  # an older version's format
        ("7:play:QH", "own", "unknown_custom_id", STALE),
        ("s:1:0:p<script>", "table", "unknown_custom_id", STALE),  # ours, garbled
        ("s:rr:0:h", "none", None, UNKNOWN_TABLE),  # no message came with the click
    ],
)
async def test_a_button_that_is_not_ours_anymore_gets_a_polite_answer(
    guild: Guild,
    caplog: pytest.LogCaptureFixture,
    custom_id: str,
    on: str,
    reason: str | None,
    answer: str,
) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    caplog.clear()
    with caplog.at_level(logging.INFO):
        assert await click_answer(guild, BADR, custom_id, on) == answer
    if reason is None:
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    else:
        assert_one_warning(caplog, reason)
    assert "QH" not in caplog.text  # the custom_id may name a card: never logged


async def test_a_removed_button_or_another_players_button_is_answered(guild: Guild) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    table = guild.table()
    # A join button of a table that has since ended, clicked on a message without it.
    gone = "s:" + encode(table.id + 40, 0, {"type": "join"})
    assert await click_answer(guild, BADR, gone, "table") == UNKNOWN_TABLE
    # A play press from someone without a seat, replayed onto the current message.
    replayed = "s:" + encode(table.id, table.seq, {"type": "play", "card": "QH"})
    text = await click_answer(guild, BADR, replayed, "table")
    assert text in ("ليس لك مقعد على هذه الطاولة.", "لا يُلعب على هذه الطاولة الآن.", STALE)
    assert guild.table().status == "lobby"


@pytest.mark.parametrize(
    ("command", "options", "reason", "answer"),
    [
        ("new", {"variant": "poker"}, "bad_option", BAD_OPTION),
        ("new", {"variant": "syrian41", "target": 99}, "bad_option", BAD_OPTION),
        ("lang", {"language": "fr"}, "bad_option", BAD_OPTION),
        ("dance", {}, "unknown_command", "هذا الأمر قديم أو ناقص."),
        (None, {}, "unknown_command", "هذا الأمر قديم أو ناقص."),  # a bare /sahra
    ],
)
async def test_a_slash_command_outside_its_choices_gets_a_polite_answer(
    guild: Guild,
    caplog: pytest.LogCaptureFixture,
    command: str | None,
    options: dict[str, Any],
    reason: str,
    answer: str,
) -> None:
    with caplog.at_level(logging.INFO):
        reply = await guild.slash(ALI, command, **options)
    assert ephemeral(reply), reply
    assert guild.fake.notices_for(ALI)[-1].startswith(answer)
    assert_one_warning(caplog, reason)
    assert guild.bot is not None
    assert guild.bot.manager.table_at(guild.table_place()) is None


async def test_a_slow_channel_does_not_hold_up_another(guild: Guild) -> None:
    """Discord dispatches each interaction as its own task; nothing of ours may serialise
    them: while one channel's answer hangs, another channel opens and posts its table."""
    guild.fake.held_channels.add(CHANNEL)
    held = await guild.fake.slash(ALI, "new", variant="syrian41")
    await eventually(lambda: bool(guild.fake.requests("POST", f"/interactions/{held}/")))
    other = await guild.fake.slash(BADR, "new", channel=OTHER_CHANNEL, variant="trix_complex")
    assert (await guild.fake.answered(other))["type"] == 5
    await eventually(lambda: len(guild.fake.in_channel(OTHER_CHANNEL)) == 1)
    await eventually(lambda: guild.fake.followups.get(f"tok{other}", 0) == 1)
    assert held not in guild.fake.responses  # still waiting, and nobody waited for it
    guild.fake.release()
    assert (await guild.fake.answered(held))["type"] == 5
    await eventually(lambda: len(guild.fake.in_channel(CHANNEL)) == 1)


async def test_an_expired_press_is_one_warning_and_changes_nothing(
    guild: Guild, caplog: pytest.LogCaptureFixture
) -> None:
    await open_table(guild, "tarneeb_solo", [ALI])
    table = guild.table()
    await guild.click(ALI, guild.public(), guild.button(guild.public(), "hand"))
    hand = guild.fake.latest_for(ALI)
    assert hand is not None and guild.bot is not None
    seq, done = table.seq, guild.bot.frontend.completed
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await guild.fake.click(ALI, hand, playable(hand)[0][0], expired=True)  # 10062
        await eventually(lambda: guild.bot is not None and guild.bot.frontend.completed > done)
    assert table.seq == seq
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "event=interaction_expired"
    ]


async def test_a_bug_behind_a_button_still_gets_an_answer(
    guild: Guild, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    assert guild.bot is not None

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(guild.bot.manager, "join", broken)
    with caplog.at_level(logging.INFO):
        text = await click_answer(guild, BADR, guild.button(guild.public(), "join"), "table")
    assert text == "عذرًا، لم ينجح ذلك. حاول مرة أخرى."
    assert "event=button_failed error=RuntimeError where=" in caplog.text  # a bug: where


async def test_a_slash_command_failing_on_a_card_is_logged_without_the_card(
    guild: Guild, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert guild.bot is not None
    monkeypatch.setattr(guild.bot.manager, "create", play_a_card_not_held)
    with configured_logs("text") as stream:
        await guild.slash(ALI, "new", variant="syrian41")
    assert guild.fake.notices_for(ALI)[-1] == "عذرًا، لم ينجح ذلك. حاول مرة أخرى."
    logged = stream.getvalue()
    assert (
        "event=command_failed command=sahra/new error=IllegalAction where=trickplay.py:" in logged
    )
    assert not CARD_IN_LOG.search(logged), logged


async def test_a_bug_naming_a_card_behind_a_button_is_logged_without_the_card(
    guild: Guild, monkeypatch: pytest.MonkeyPatch
) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    assert guild.bot is not None
    monkeypatch.setattr(guild.bot.manager, "join", play_a_card_not_held)
    with configured_logs("json") as stream:
        text = await click_answer(guild, BADR, guild.button(guild.public(), "join"), "table")
    assert text == "عذرًا، لم ينجح ذلك. حاول مرة أخرى."
    logged = stream.getvalue()
    failed = [
        data
        for data in map(json.loads, logged.splitlines())
        if data.get("event") == "button_failed"
    ]
    assert len(failed) == 1 and failed[0]["error"] == "IllegalAction", failed
    assert failed[0]["where"].startswith("trickplay.py:")
    assert not CARD_IN_LOG.search(logged), logged


async def test_a_passer_by_may_not_switch_the_language_under_a_live_table(guild: Guild) -> None:
    """The core's rule on who may change a chat's language, refused as on Telegram."""
    await guild.slash(ALI, "new", variant="syrian41")
    await guild.slash(BADR, "lang", language="en")  # not at the table, no Manage Server
    assert guild.fake.notices_for(BADR)[-1] == refusal_notice("ar", "language_not_allowed").text
    assert guild.bot.frontend.contacts.language(str(CHANNEL)) == "ar"
    await guild.slash(BADR, "lang", language="en", admin=True)
    assert guild.bot.frontend.contacts.language(str(CHANNEL)) == "en"


async def test_a_player_who_did_not_open_the_table_may_not_stop_it_and_is_told_as_anywhere(
    guild: Guild,
) -> None:
    """The stop policy is the core's (``bot.tables.table_commands``): its refusal reads
    here exactly as on Telegram, and the table stays."""
    await guild.slash(ALI, "new", variant="syrian41")
    await guild.click(BADR, guild.public(), guild.button(guild.public(), "join"))
    table = guild.table()
    await guild.slash(BADR, "stop")  # seated, no Manage Server, the creator still here
    assert table.status == "lobby"
    language = table.config.language
    assert guild.fake.notices_for(BADR)[-1] == refusal_notice(language, "stop_not_allowed").text
    await guild.slash(BADR, "stop", admin=True)  # Manage Server: Discord's admin
    assert table.status == "stopped"


async def test_a_seated_player_may_stop_a_table_whose_creator_left_the_server(
    guild: Guild,
) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    table = guild.table()
    guild.fake.left.add(ALI)
    await guild.slash(BADR, "stop")  # not seated: the creator's leaving gives no right
    assert table.status == "lobby"
    await guild.click(BADR, guild.public(), guild.button(guild.public(), "join"))
    await guild.slash(BADR, "stop")
    assert table.status == "stopped"
