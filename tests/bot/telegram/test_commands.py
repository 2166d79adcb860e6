"""Telegram commands and lobby buttons end to end (real PTB, fake Bot API): the variant
picker, lobby buttons, forum topics, who may stop a table, the command menu in Arabic and
English, /lang, /rules and /help."""

from __future__ import annotations

import pytest

from bot.render import refusal_notice
from bot.render.codes import decode
from bot.render.i18n import CATALOG
from bot.telegram.handlers import COMMAND_NAMES
from bot.telegram.texts import commands, text
from tests.bot.support import CARD_IN_LOG, configured_logs, play_a_card_not_held
from tests.bot.telegram.harness import GROUP, World

ALI, BADR, CARLA = 201, 202, 203


def button(world: World, chat: int, kind: str, **fields: object) -> tuple[object, str]:
    """The latest message in ``chat`` with a button for action ``kind``, and its data."""
    for message in reversed(world.fake.in_chat(chat)):
        for row in message.keyboard:
            for item in row:
                decoded = decode(item.get("callback_data", ""))
                if (
                    decoded
                    and decoded[2]["type"] == kind
                    and all(decoded[2].get(k) == v for k, v in fields.items())
                ):
                    return message, item["callback_data"]
    raise AssertionError(f"no {kind} button in chat {chat}")


async def test_the_command_menu_is_registered_in_arabic_and_english(world: World) -> None:
    menus = [c.params for c in world.fake.calls if c.method == "setMyCommands"]
    languages = {params.get("language_code") for params in menus}
    assert languages == {None, "ar"}
    names = {command["command"] for command in menus[0]["commands"]}
    assert set(COMMAND_NAMES) - {"start"} == names  # /start comes from deep links


async def test_new_without_a_variant_offers_a_picker_then_the_lobby_buttons_work(
    world: World,
) -> None:
    await world.say(GROUP, ALI, "/new")
    message, data = button(world, GROUP, "new", variant="tarneeb_solo")
    await world.press(ALI, message, data)  # type: ignore[arg-type]
    message, data = button(world, GROUP, "new", variant="tarneeb_solo", target=51)
    await world.press(ALI, message, data)  # type: ignore[arg-type]
    table = world.table()
    assert table.config.variant == "tarneeb_solo" and table.config.target == 51
    lobby, join = button(world, GROUP, "join")
    answer = await world.press(BADR, lobby, join)  # type: ignore[arg-type]
    assert not answer.get("text")
    assert table.seat_of(str(BADR)) is not None
    answer = await world.press(BADR, lobby, join)  # type: ignore[arg-type]
    assert answer["text"] == "لك مقعد على هذه الطاولة بالفعل."  # already seated (Arabic)
    for _ in range(2):
        lobby, add = button(world, GROUP, "add_computer")
        await world.press(ALI, lobby, add)  # type: ignore[arg-type]
    lobby, begin = button(world, GROUP, "begin")
    await world.press(BADR, lobby, begin)  # type: ignore[arg-type]
    assert table.status == "running"
    # Nobody opened a private chat yet: "My hand" answers with the deep link.
    table_message, hand = button(world, GROUP, "hand")
    answer = await world.press(ALI, table_message, hand)  # type: ignore[arg-type]
    assert str(answer["url"]).endswith(f"?start=t{table.id}")


async def test_a_handler_failing_on_a_card_logs_where_it_failed_but_not_the_card(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    lobby, join = button(world, GROUP, "join")
    assert world.bot is not None
    monkeypatch.setattr(world.bot.manager, "join", play_a_card_not_held)
    with configured_logs("text") as stream:
        answer = await world.press(BADR, lobby, join)  # type: ignore[arg-type]
    assert answer.get("text")  # answered all the same
    logged = stream.getvalue()
    assert "event=handler_error error=IllegalAction where=trickplay.py:" in logged
    assert not CARD_IN_LOG.search(logged), logged


async def test_tables_in_forum_topics_are_separate(world: World) -> None:
    await world.say(GROUP, ALI, "/new syrian41", thread=11)
    await world.say(GROUP, BADR, "/new trix", thread=12)
    first, second = world.table(thread=11), world.table(thread=12)
    assert first.id != second.id
    assert (first.variant, second.variant) == ("syrian41", "trix_complex")
    await world.say(GROUP, CARLA, "/join", thread=12)
    assert second.seat_of(str(CARLA)) is not None and first.seat_of(str(CARLA)) is None
    threads = {m.thread for m in world.fake.in_chat(GROUP)}
    assert {11, 12} <= threads


async def test_only_the_creator_or_an_admin_stops_a_table(world: World) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    table = world.table()
    await world.say(GROUP, BADR, "/stop")
    assert table.status == "lobby"
    assert "منشئُها أو مشرفُ المجموعة" in world.fake.in_chat(GROUP)[-1].text
    world.fake.members[(GROUP, CARLA)] = "administrator"
    await world.say(GROUP, CARLA, "/stop")
    assert table.status == "stopped"


async def test_the_group_s_owner_may_stop_a_table(world: World) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    world.fake.members[(GROUP, BADR)] = "creator"  # the Bot API's status of the owner
    await world.say(GROUP, BADR, "/stop")
    assert world.table_or_none() is None


@pytest.mark.parametrize("gone", ["left", "kicked", "restricted_left"])
async def test_a_seated_player_may_stop_a_table_whose_creator_left_the_group(
    world: World, gone: str
) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    table = world.table()
    await world.say(GROUP, BADR, "/join")
    world.fake.members[(GROUP, ALI)] = gone
    await world.say(GROUP, BADR, "/stop")
    assert table.status == "stopped"


@pytest.mark.parametrize("status", ["member", "restricted"])
async def test_while_the_creator_is_in_the_group_another_player_may_not_stop(
    world: World, status: str
) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    table = world.table()
    await world.say(GROUP, BADR, "/join")
    world.fake.members[(GROUP, ALI)] = status
    await world.say(GROUP, BADR, "/stop")
    assert table.status == "lobby"
    asked = [c.params for c in world.fake.calls if c.method == "getChatMember"]
    assert {int(p["user_id"]) for p in asked} == {ALI, BADR}  # the creator was checked
    # The core's refusal, word for word as every platform says it.
    said = world.fake.in_chat(GROUP)[-1].text
    assert said == refusal_notice(table.config.language, "stop_not_allowed").text


async def test_a_passer_by_may_not_switch_the_language_under_a_live_table(world: World) -> None:
    """Who may change a chat's language is the core's rule (``table_commands``): its
    refusal reads here as on Discord, and the language stays."""
    await world.say(GROUP, ALI, "/new syrian41")
    await world.say(GROUP, CARLA, "/lang en")  # not at the table, not an admin
    assert world.fake.in_chat(GROUP)[-1].text == refusal_notice("ar", "language_not_allowed").text
    await world.say(GROUP, CARLA, "/help")
    assert "سهرة" in world.fake.in_chat(GROUP)[-1].text  # still Arabic
    world.fake.members[(GROUP, CARLA)] = "administrator"
    await world.say(GROUP, CARLA, "/lang en")
    assert "English" in world.fake.in_chat(GROUP)[-1].text


async def test_someone_not_at_the_table_may_not_stop_it_even_when_its_creator_left(
    world: World,
) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    table = world.table()
    world.fake.members[(GROUP, ALI)] = "left"
    await world.say(GROUP, CARLA, "/stop")
    assert table.status == "lobby"
    assert "غادر منشئها المجموعة" in world.fake.in_chat(GROUP)[-1].text


async def test_lang_rules_and_help_answer_in_the_group_s_language(world: World) -> None:
    await world.say(GROUP, ALI, "/help")
    assert "سهرة" in world.fake.in_chat(GROUP)[-1].text
    await world.say(GROUP, ALI, "/lang en")
    assert "English" in world.fake.in_chat(GROUP)[-1].text
    await world.say(GROUP, ALI, "/rules trix")
    assert world.fake.in_chat(GROUP)[-1].text.startswith("Trix Complex Partnership")
    await world.say(GROUP, ALI, "/new double")
    assert world.table().config.language == "en"
    await world.say(GROUP, ALI, "/lang xx")
    assert "/lang ar" in world.fake.in_chat(GROUP)[-1].text
    await world.say(ALI, ALI, "/new")  # tables are opened in groups
    assert "المجموعات" in world.fake.in_chat(ALI)[-1].text  # Arabic: the bot's default


async def test_a_garbage_command_argument_gets_a_polite_answer(world: World) -> None:
    await world.say(GROUP, ALI, "/new poker")
    assert world.table_or_none() is None
    assert "poker" in world.fake.in_chat(GROUP)[-1].text
    assert "syrian41" in world.fake.in_chat(GROUP)[-1].text
    await world.say(GROUP, ALI, "/join")
    assert "/new" in world.fake.in_chat(GROUP)[-1].text  # no table here yet


async def test_new_with_words_it_does_not_understand_opens_nothing_and_names_them(
    world: World,
) -> None:
    await world.say(GROUP, ALI, "/lang en")
    await world.say(GROUP, ALI, "/new 41 999 insane")
    assert world.table_or_none() is None
    reply = world.fake.in_chat(GROUP)[-1].text
    assert "I did not understand" in reply
    assert "“999”" in reply and "“insane”" in reply  # named back, each one
    assert "syrian41" in reply and "31, 51 or 61" in reply and "easy or hard" in reply


async def test_a_solo_target_must_be_31_51_or_61(world: World) -> None:
    await world.say(GROUP, ALI, "/lang en")
    await world.say(GROUP, ALI, "/new solo 45")
    assert world.table_or_none() is None
    reply = world.fake.in_chat(GROUP)[-1].text
    assert "31, 51 or 61" in reply and "45" in reply
    await world.say(GROUP, ALI, "/new solo 51 hard")
    config = world.table().config
    assert (config.target, config.difficulty) == (51, "hard")


async def test_a_target_for_a_game_that_has_none_is_refused(world: World) -> None:
    await world.say(GROUP, ALI, "/lang en")
    await world.say(GROUP, ALI, "/new trix 51")
    assert world.table_or_none() is None
    reply = world.fake.in_chat(GROUP)[-1].text
    assert "no target" in reply and "/new trix_complex" in reply


async def test_rules_of_an_unknown_game_name_it_and_the_games_accepted(world: World) -> None:
    await world.say(GROUP, ALI, "/lang en")
    before = len(world.fake.in_chat(GROUP))
    await world.say(GROUP, ALI, "/rules zzz")
    replies = world.fake.in_chat(GROUP)[before:]
    assert len(replies) == 1  # not the four rule texts
    assert "zzz" in replies[0].text
    assert all(name in replies[0].text for name in ("syrian41", "tarneeb_solo", "trix"))


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        ("/join 5 6", "/join"),
        ("/lang xx", "/lang ar"),
        ("/lang en fr", "/lang ar"),
        ("/score now", "/score"),
        ("/begin please", "/begin"),
        ("/stop it", "/stop"),
    ],
)
async def test_garbage_after_a_command_gets_its_usage_line_and_changes_nothing(
    world: World, command: str, usage: str
) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    table = world.table()
    before = (table.status, list(table.seats), world.bot.contacts.language(str(GROUP)))  # type: ignore[union-attr]
    await world.say(GROUP, BADR, command)
    assert usage in world.fake.in_chat(GROUP)[-1].text
    after = (table.status, list(table.seats), world.bot.contacts.language(str(GROUP)))  # type: ignore[union-attr]
    assert after == before


async def test_a_hostile_display_name_reaches_the_group_as_plain_text(world: World) -> None:
    hostile = "@everyone **Bold** <b>x</b> ||x||"
    await world.say(GROUP, ALI, "/new syrian41")
    update = world.fake.command(GROUP, BADR, "/join", name=hostile)
    await world.deliver(update)
    seat = world.table().seats[1]
    assert seat is not None and seat.name == hostile
    lobby = world.fake.in_chat(GROUP)[0]
    assert hostile in lobby.text  # exactly the characters the player chose
    writes = world.fake.writes_to(GROUP)
    assert writes
    for call in writes:
        assert "parse_mode" not in call.params and "entities" not in call.params


def test_the_unreachable_notice_is_true_for_a_chat_never_opened_and_a_blocked_bot() -> None:
    english, arabic = CATALOG["en"]["tg_dm_needed"], CATALOG["ar"]["tg_dm_needed"]
    assert "yet" not in english and "never" in english and "blocked" in english
    assert "بعد" not in arabic and "لم تُفتح" in arabic and "محظور" in arabic


def test_the_menu_and_the_solo_targets_come_from_one_place() -> None:
    assert [name for name, _ in commands("en")] == [name for name, _ in commands("ar")]
    assert all(about for _, about in commands("ar"))
    # TS.1's targets are read from the engine, not restated in the catalog.
    assert "31, 51 or 61" in text("en", "new_bad_target", target=45)
    assert "31 أو 51 أو 61" in text("ar", "new_bad_target", target=45)


async def test_new_tables_take_the_operator_s_defaults(world: World) -> None:
    assert world.bot is not None
    world.bot.frontend.table_defaults = {"turn_seconds": 20, "difficulty": "hard"}
    world.bot.contacts.default_language = "en"
    await world.say(GROUP, ALI, "/new solo 61")
    config = world.table().config
    assert (config.turn_seconds, config.difficulty, config.target) == (20, "hard", 61)
    assert config.language == "en"


async def test_a_second_new_table_in_the_same_place_is_refused_politely(world: World) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    first = world.table()
    await world.say(GROUP, BADR, "/new trix")
    assert world.table() is first and first.variant == "syrian41"
    assert world.fake.in_chat(GROUP)[-1].text == "هناك طاولة مفتوحة هنا؛ أنهوها أو أوقفوها أولًا."


async def test_hand_before_the_deal_says_the_table_is_not_playing_yet(world: World) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    await world.say(ALI, ALI, f"/start t{world.table().id}")
    await world.say(GROUP, ALI, "/hand")
    assert world.fake.in_chat(GROUP)[-1].text == "لا يُلعب على هذه الطاولة الآن."


async def test_rules_asked_in_a_group_go_privately_with_a_one_line_pointer(world: World) -> None:
    await world.say(GROUP, ALI, "/lang en")
    await world.say(GROUP, ALI, "/new syrian41")
    await world.say(ALI, ALI, f"/start t{world.table().id}")  # Ali's private chat is open
    group_before = len(world.fake.in_chat(GROUP))
    await world.say(GROUP, ALI, "/rules")
    assert world.fake.in_chat(ALI)[-1].text.startswith("Syrian Tarneeb 41")
    pointer = world.fake.in_chat(GROUP)[-1].text
    assert len(world.fake.in_chat(GROUP)) == group_before + 1
    assert "\n" not in pointer and "private chat" in pointer


async def test_score_in_a_group_is_one_short_line(world: World) -> None:
    await world.say(GROUP, ALI, "/lang en")
    await world.say(GROUP, ALI, "/new syrian41")
    for _ in range(3):
        await world.say(GROUP, ALI, "/addbot")
    await world.say(GROUP, ALI, "/begin")
    await world.say(GROUP, ALI, "/score")
    line = world.fake.in_chat(GROUP)[-1].text
    assert "\n" not in line and "Team A" in line and "target 41" in line
