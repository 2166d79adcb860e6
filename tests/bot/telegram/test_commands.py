"""Telegram commands and lobby buttons end to end (real PTB, fake Bot API): the variant
picker, lobby buttons, forum topics, who may stop a table, the command menu in Arabic and
English, /lang, /rules and /help."""

from __future__ import annotations

from bot.render.codes import decode
from bot.telegram.handlers import COMMAND_NAMES
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
    assert "هذا لمنشئ الطاولة أو مشرف المجموعة فقط." in world.fake.in_chat(GROUP)[-1].text
    world.fake.admins.add(CARLA)
    await world.say(GROUP, CARLA, "/stop")
    assert table.status == "stopped"


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
    assert "syrian41" in world.fake.in_chat(GROUP)[-1].text
    await world.say(GROUP, ALI, "/join")
    assert "/new" in world.fake.in_chat(GROUP)[-1].text  # no table here yet


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
