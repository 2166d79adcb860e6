"""The web table's buttons on Telegram, through the real PTB Application and a fake Bot API
that refuses what Telegram refuses (a ``web_app`` button in a group or to a non-HTTPS
page): the group's lobby and table carry a URL button to the direct Mini App link, each
private hand a ``web_app`` button to the page, and the text table plays on as before."""

from __future__ import annotations

from typing import Any

from bot.render.i18n import t
from bot.tables.commands import PlayerRef, Press
from bot.telegram.webapp import MiniApp
from bot.web.identity import table_param
from engine.players import HeuristicPlayer
from tests.bot.support import until
from tests.bot.telegram.harness import GROUP, World
from tests.bot.telegram.test_e2e import ALI, BADR, open_table
from tests.bot.telegram.test_league import open_lobby

LINK = "https://t.me/sahra_test_bot/table?startapp=t{table}"
OPEN = t("ar", "web_open")  # a new table speaks Arabic


def buttons(world: World, chat: int) -> list[dict[str, Any]]:
    """The buttons under the chat's latest message."""
    return [button for row in world.fake.in_chat(chat)[-1].keyboard for button in row]


async def test_group_links_the_mini_app_and_private_hands_open_it_in_place(world: World) -> None:
    assert world.bot is not None
    world.bot.notifier.mini_app = MiniApp("https://table.example.org", "table")
    await world.say(GROUP, ALI, "/new syrian41")
    lobby = world.table()
    link = LINK.format(table=lobby.id)
    assert {"text": OPEN, "url": link} in buttons(world, GROUP)
    await open_table_rest(world, lobby.id)
    assert lobby.status == "running"
    group = buttons(world, GROUP)
    assert {"text": OPEN, "url": link} in group
    assert not any("web_app" in button for button in group)  # Telegram refuses those here
    for user in (ALI, BADR):
        hand = buttons(world, user)
        assert {
            "text": OPEN,
            "web_app": {"url": f"https://table.example.org/?table={lobby.id}"},
        } in hand
    # The text hand stays: the bidder's buttons are there beside the page's.
    assert lobby.match is not None
    bidder = int(lobby.seats[lobby.match.to_act[0]].owner)  # type: ignore[union-attr,arg-type]
    assert any("callback_data" in button for button in buttons(world, bidder))
    world.assert_group_got_only_checked_screens()


async def open_table_rest(world: World, table_id: int) -> None:
    await world.say(GROUP, BADR, "/join")
    for _ in range(2):
        await world.say(GROUP, ALI, "/addbot")
    for user in (ALI, BADR):
        await world.say(user, user, f"/start t{table_id}")
    await world.say(GROUP, ALI, "/begin")


async def test_a_page_without_https_gets_no_web_app_button_and_the_hand_arrives(
    world: World,
) -> None:
    """``http://127.0.0.1`` is for local use: Telegram would refuse a private hand that
    carried a ``web_app`` button to it, so the hand goes without the button."""
    assert world.bot is not None
    world.bot.notifier.mini_app = MiniApp("http://127.0.0.1:8080")
    table = await open_table(world, "syrian41", [ALI])
    assert table.match is not None
    hand = world.fake.in_chat(ALI)[-1]
    assert hand.text.startswith("ورقك — ")  # the private hand (hand_title)
    assert not any("web_app" in button for row in hand.keyboard for button in row)
    main_app = f"https://t.me/sahra_test_bot?startapp=t{table.id}"
    assert {"text": OPEN, "url": main_app} in buttons(world, GROUP)
    assert not [call for call in world.fake.calls if call.code not in (0, 200)]


async def test_a_deal_result_carries_review_to_the_deal_s_replay(world: World) -> None:
    """Issue 35, item 1: the deal's result in the group links the Mini App straight to the
    deal's replay (``startapp=t<table>d<deal>``); the server reads only the table from it."""
    assert world.bot is not None
    world.bot.notifier.mini_app = MiniApp("https://table.example.org", "table")
    table = await open_table(world, "syrian41", [ALI])
    seat = table.seat_of(str(ALI))
    manager = world.bot.manager
    while table.match is not None and table.match.deal_number == 1:
        match = table.match
        if seat in match.to_act:
            action = HeuristicPlayer().decide(match.view(seat))
            who = PlayerRef(user_id=str(ALI), name="Ali", language="ar")
            await manager.press(
                Press(table_id=table.id, version=table.seq, action=action, player=who)
            )
        await world.settle()
    review = {"text": t("ar", "btn_review"), "url": LINK.format(table=table.id) + "d1"}
    await until(
        lambda: any(
            review in row for message in world.fake.in_chat(GROUP) for row in message.keyboard
        ),
        "the deal's result with its Review link",
    )
    assert table_param(f"t{table.id}d1") == table.id  # the hello's table, as before
    assert [table_param(bad) for bad in ("t1d", "t1d0", "td1", "t1x2", "t0d1")] == [None] * 5


async def test_the_match_record_ends_with_review_of_its_last_deal(world: World) -> None:
    """Issue 35, item 1: the record's last page links the Mini App to the match's last
    scored deal's replay (the replay steps to the others)."""
    assert world.bot is not None
    world.bot.notifier.mini_app = MiniApp("https://table.example.org", "table")
    table = await open_lobby(world, [ALI], dms=(ALI,))
    await world.say(GROUP, ALI, "/begin")
    await world.finish(table, [ALI])
    assert table.match is not None and table.match.result is not None
    last = table.match.deal_number  # a match ends on a scored deal (T41.9)
    await world.say(ALI, ALI, f"/record {table.id}")
    review = {"text": t("en", "btn_review"), "url": LINK.format(table=table.id) + f"d{last}"}
    assert [review] in world.fake.in_chat(ALI)[-1].keyboard
