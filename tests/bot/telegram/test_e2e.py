"""Telegram end to end: the real PTB Application polls a fake Bot API on 127.0.0.1. A group
opens a table, players join (some computers), open their private chat by the deep link,
and whole matches are played by pressing the buttons of their private hands."""

from __future__ import annotations

import random

import pytest

from bot.render.codes import encode
from tests.bot.support import eventually
from tests.bot.telegram.harness import GROUP, World, play_out

ALI, BADR, CARLA = 101, 102, 103


async def open_table(world: World, variant: str, humans: list[int]) -> None:
    """/new, /join, /addbot for the empty seats, everyone opens the DM, /begin."""
    await world.say(GROUP, humans[0], f"/new {variant}")
    for user in humans[1:]:
        await world.say(GROUP, user, "/join")
    for _ in range(4 - len(humans)):
        await world.say(GROUP, humans[0], "/addbot")
    table = world.table()
    for user in humans:  # the deep link t.me/<bot>?start=t<table> opens the DM with /start
        await world.say(user, user, f"/start t{table.id}")
    await world.say(GROUP, humans[0], "/begin")
    assert table.status == "running"


@pytest.mark.parametrize(
    ("variant", "humans"),
    [
        ("syrian41", [ALI, BADR]),
        ("tarneeb41_double", [ALI]),
        ("tarneeb_solo", [ALI, BADR]),
        ("trix_complex", [ALI, BADR]),
    ],
)
async def test_whole_matches_are_played_by_pressing_private_buttons(
    world: World, variant: str, humans: list[int]
) -> None:
    await open_table(world, variant, humans)
    table = world.table()
    users = {table.seat_of(str(user)): user for user in humans}
    presses = await play_out(world, users, random.Random(variant))  # type: ignore[arg-type]
    assert table.status == "finished" and table.match is not None
    assert table.match.result is not None
    assert presses > 20 and world.leaks_checked > 20
    # The group's budget: never more than 20 writes in any 60 s (outbox time).
    assert world.bot is not None
    assert world.bot.outbox.writes_in_window(str(GROUP)) <= 20
    # Every write that reached the fake went through the outbox.
    group_writes = world.fake.writes_to(GROUP)
    logged = [entry for entry in world.bot.outbox.log if entry[1] == str(GROUP)]
    assert len(group_writes) == len(logged)
    # The last table message is the result; the hands' last messages too.
    assert "🏁" in world.fake.in_chat(GROUP)[-1].text or any(
        "🏁" in m.text for m in world.fake.in_chat(GROUP)
    )


async def test_stale_forged_and_other_players_buttons_change_nothing(world: World) -> None:
    await open_table(world, "syrian41", [ALI, BADR])
    table = world.table()
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    ali_seat = table.seat_of(str(ALI))
    mover = ALI if seat == ali_seat else BADR
    other = BADR if mover == ALI else ALI
    message = world.fake.latest_with_buttons(mover)
    assert message is not None
    data = message.keyboard[0][0]["callback_data"]
    before = (table.seq, match.to_json())
    # Another player presses the mover's button (a forged callback from their account).
    answer = await world.press(other, message, data)
    assert answer.get("text") in ("It is not your turn.", "ليس دورك.")
    # Forged and garbled data.
    for forged in (
        "zz",
        "1:0:p<x>",
        encode(table.id, table.seq, {"type": "play", "card": "AS"}),
        encode(9999, 0, {"type": "bid", "value": 5}),
    ):
        answer = await world.press(mover, message, forged)
        assert answer.get("text"), forged
    assert (table.seq, match.to_json()) == before
    # A real move, then the same (now stale) button again.
    await world.press(mover, message, data)
    assert table.seq == before[0] + 1 or table.seq > before[0]
    after = (table.seq, match.to_json())
    answer = await world.press(mover, message, data)
    assert answer.get("text") in (
        "That button is out of date; use the latest message.",
        "هذا الزر قديم؛ استخدم أحدث رسالة.",
        "It is not your turn.",
        "ليس دورك.",
    )
    assert (table.seq, match.to_json()) == after


async def test_a_player_the_bot_cannot_write_to_gets_a_deep_link(world: World) -> None:
    world.fake.forbidden.add(CARLA)  # Carla blocked the bot after opening it once
    await world.say(GROUP, ALI, "/new syrian41")
    await world.say(GROUP, CARLA, "/join")
    await world.say(CARLA, CARLA, f"/start t{world.table().id}")
    await world.say(GROUP, ALI, "/addbot")
    await world.say(GROUP, ALI, "/addbot")
    await world.say(ALI, ALI, f"/start t{world.table().id}")
    await world.say(GROUP, ALI, "/begin")
    await world.settle()
    links = [
        button["url"]
        for message in world.fake.in_chat(GROUP)
        for row in message.keyboard
        for button in row
        if "url" in button
    ]
    assert any(link.endswith(f"?start=t{world.table().id}") for link in links)
    assert world.bot is not None and not world.bot.contacts.dm_ok(str(CARLA))


async def test_a_429_is_waited_out_and_the_match_completes(world: World) -> None:
    await open_table(world, "tarneeb_solo", [ALI])
    world.fake.fail_next.append(("editMessageText", 1))
    world.fake.fail_next.append(("sendMessage", 1))
    table = world.table()
    await play_out(world, {table.seat_of(str(ALI)): ALI}, random.Random(4))  # type: ignore[dict-item]
    assert table.status == "finished"
    assert not world.fake.fail_next  # both 429s were served, and waited out


async def test_a_restart_mid_match_resumes_the_same_match(world: World) -> None:
    await open_table(world, "syrian41", [ALI, BADR])
    table = world.table()
    users = {table.seat_of(str(ALI)): ALI, table.seat_of(str(BADR)): BADR}
    await play_out(world, users, random.Random(1), stop_after=15)  # type: ignore[arg-type]
    match = table.match
    assert match is not None
    hands = [match.hand(seat) for seat in range(4)]
    seq, scores, deal = table.seq, match.scores, match.deal_number
    await world.shutdown()
    await world.boot()
    resumed = world.table()
    assert resumed is not table and resumed.seq == seq
    assert resumed.match is not None
    assert [resumed.match.hand(seat) for seat in range(4)] == hands
    assert (resumed.match.scores, resumed.match.deal_number) == (scores, deal)
    # Old buttons still drive the match; it plays on to its end.
    await play_out(world, users, random.Random(2))  # type: ignore[arg-type]
    await eventually(lambda: resumed.status == "finished")
