"""Telegram end to end: the real PTB Application polls a fake Bot API on 127.0.0.1. A group
opens a table, players join (some computers), open their private chat by the deep link,
and whole matches are played by pressing the buttons of their private hands."""

from __future__ import annotations

import random
import time

import pytest

from bot.render import refusal_notice
from bot.render.codes import decode, encode
from bot.render.i18n import t, variant_name
from bot.render.model import Screen
from bot.tables import LiveTable
from engine.players import HeuristicPlayer
from tests.bot.support import eventually
from tests.bot.telegram.harness import GROUP, World, play_out, playable

ALI, BADR, CARLA = 101, 102, 103
OTHER_GROUP = -100888


async def open_table(
    world: World, variant: str, humans: list[int], group: int = GROUP
) -> LiveTable:
    """/new, /join, /addbot for the empty seats, everyone opens the DM, /begin."""
    await world.say(group, humans[0], f"/new {variant}")
    for user in humans[1:]:
        await world.say(group, user, "/join")
    for _ in range(4 - len(humans)):
        await world.say(group, humans[0], "/addbot")
    table = world.table(chat=group)
    for user in humans:  # the deep link t.me/<bot>?start=t<table> opens the DM with /start
        await world.say(user, user, f"/start t{table.id}")
    await world.say(group, humans[0], "/begin")
    assert table.status == "running"
    return table


async def press_when_ready(world: World, table: LiveTable, user: int) -> str:
    """Wait until it is ``user``'s turn and their hand shows it, press a legal button as a
    sensible player would, and return the callback query's id (not waiting for it)."""
    seat = table.seat_of(str(user))
    assert seat is not None

    def current() -> list[str]:
        match = table.match
        if match is None or seat not in match.to_act:
            return []
        message = world.fake.latest_with_buttons(user)
        choices = playable(message) if message is not None else []
        return [data for data in choices if decode(data)[1] == table.seq]  # type: ignore[index]

    await eventually(lambda: bool(current()))
    assert table.match is not None
    wanted = HeuristicPlayer().decide(table.match.view(seat))
    choices = current()
    chosen = [data for data in choices if decode(data)[2] == wanted]  # type: ignore[index]
    message = world.fake.latest_with_buttons(user)
    assert message is not None
    query, _ = world.fake.press(user, message, (chosen or choices)[0])
    return query


# One whole match per variant family (team Tarneeb, Solo, Trix); Tarneeb 41 doubled shares
# the team family's screens and is played for a deal's worth of presses below.
@pytest.mark.backend_matters(variant="trix_complex")  # the durable path once on PostgreSQL
@pytest.mark.parametrize(
    ("variant", "humans"),
    [
        # Two humans' private chats at once are played in Trix and in the restart test.
        ("syrian41", [ALI]),
        ("tarneeb_solo", [BADR]),
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
    language = table.config.language
    title = t(language, "result_title", variant=variant_name(language, variant))
    for chat in (GROUP, *humans):
        assert world.fake.in_chat(chat)[-1].text.startswith(title), chat


async def test_tarneeb41_double_is_played_by_pressing_private_buttons(world: World) -> None:
    await open_table(world, "tarneeb41_double", [ALI])
    table = world.table()
    users = {table.seat_of(str(ALI)): ALI}
    presses = await play_out(world, users, random.Random(4), stop_after=14)  # type: ignore[arg-type]
    assert presses == 14 and table.seq >= 14 and world.leaks_checked > 10


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
    assert answer.get("text") == refusal(table, other, "not_your_turn")
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
    answer = await world.press(mover, message, data)
    assert not answer.get("text")  # accepted: no refusal shown
    assert world.bot is not None
    stored = await world.bot.manager.store.load_table(table.id)
    assert stored is not None
    moved = stored.actions[before[0]]  # the move right after the state pressed on
    decoded = decode(data)
    assert decoded is not None
    assert (moved.seq, moved.seat, moved.action, moved.source) == (
        before[0] + 1,
        seat,
        decoded[2],
        "human",
    )
    after = (table.seq, match.to_json())
    answer = await world.press(mover, message, data)
    assert answer.get("text") == refusal(table, mover, "stale")
    assert (table.seq, match.to_json()) == after


def refusal(table: LiveTable, user: int, code: str) -> str:
    """The refusal ``code`` as ``user`` reads it (in their seat's language)."""
    seat = table.seat_of(str(user))
    assert seat is not None
    occupant = table.seats[seat]
    assert occupant is not None
    return refusal_notice(occupant.language, code).text


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
    # /hand answers with the link, in words that do not assume she never opened the chat.
    await world.say(GROUP, CARLA, "/hand")
    notice = world.fake.in_chat(GROUP)[-1]
    assert notice.text.startswith("Player103") and "محظور" in notice.text
    assert "بعد" not in notice.text and notice.keyboard[0][0]["url"].endswith(
        f"?start=t{world.table().id}"
    )


async def test_a_429_is_waited_out_and_the_match_completes(world: World) -> None:
    await open_table(world, "tarneeb_solo", [ALI])
    world.fake.fail_next.append(("editMessageText", 1))
    world.fake.fail_next.append(("sendMessage", 1))
    table = world.table()
    await play_out(world, {table.seat_of(str(ALI)): ALI}, random.Random(4))  # type: ignore[dict-item]
    assert table.status == "finished"
    assert not world.fake.fail_next  # both 429s were served, and waited out


async def test_a_429_in_one_group_pauses_only_that_group_then_its_newest_table_arrives(
    real_time_world: World,
) -> None:
    world = real_time_world
    assert world.bot is not None
    # Solo: a deal is never cancelled and redealt (TS.5), so the flooded group's only
    # pending write is its table message.
    table = await open_table(world, "tarneeb_solo", [ALI])
    other = await open_table(world, "tarneeb_solo", [BADR], group=OTHER_GROUP)
    await world.settle()
    queued: list[str] = []  # the screens of the flooded group's table message, in order
    outbox = world.bot.outbox
    for name in ("post", "show"):

        def spy(
            chat: str,
            key: object,
            screen: Screen,
            _original: object = getattr(outbox, name),
            **options: object,
        ) -> None:
            if chat == str(GROUP) and isinstance(key, tuple) and key[:2] == ("table", table.id):
                queued.append(screen.text)
            _original(chat, key, screen, **options)  # type: ignore[operator]

        setattr(outbox, name, spy)
    flood = 6.0  # long enough for two presses to be queued even on a loaded machine
    began = time.monotonic()
    world.fake.flood(GROUP, flood)  # Telegram's flood control, for this group only
    ended = began + flood
    await world.fake.answered(await press_when_ready(world, table, ALI))

    def refused() -> list[float]:  # when the group's writes were answered 429
        return [c.at for c in world.fake.writes_to(GROUP) if began <= c.at < ended]

    await eventually(lambda: bool(refused()))
    paused = refused()[0]
    await world.fake.answered(await press_when_ready(world, other, BADR))
    await world.fake.answered(await press_when_ready(world, table, ALI))
    assert time.monotonic() < ended and len(queued) >= 2  # two moves queued while paused
    # (b) neither the private chats nor the other group waited for the flooded group: each
    # gets a write before the flood ends (a private chat still keeps its own 1 s spacing).
    for chat in (ALI, BADR, OTHER_GROUP):

        def written(chat: int = chat) -> bool:
            return any(paused < call.at < ended for call in world.fake.writes_to(chat))

        await eventually(lambda: written() or time.monotonic() >= ended)
        assert written(), chat
    # (a) once the wait is over, the group gets the newest screen, and only that one.
    await outbox.flush()
    during = [c for c in world.fake.writes_to(GROUP) if paused <= c.at < ended]
    after = [c for c in world.fake.writes_to(GROUP) if c.at >= ended]
    assert during and len(after) == 1
    assert after[0].params["text"] == queued[-1]
    shown = [m.text for m in world.fake.in_chat(GROUP) if m.text == queued[-1]]
    assert shown == [queued[-1]]


async def test_a_server_error_is_retried_until_the_write_arrives(world: World) -> None:
    world.fake.broken[GROUP] = 3  # three answers of 502 Bad Gateway, then it recovers
    await world.say(GROUP, ALI, "/help")
    attempts = [c for c in world.fake.calls if c.method == "sendMessage"]
    assert len(attempts) == 4
    assert "سهرة" in world.fake.in_chat(GROUP)[-1].text


async def test_a_restart_mid_match_resumes_the_same_match(world: World) -> None:
    await open_table(world, "syrian41", [ALI, BADR])
    table = world.table()
    users = {table.seat_of(str(ALI)): ALI, table.seat_of(str(BADR)): BADR}
    await play_out(world, users, random.Random(1), stop_after=15)  # type: ignore[arg-type]
    match = table.match
    assert match is not None
    hands = [match.hand(seat) for seat in range(4)]
    seq, scores, deal = table.seq, match.scores, match.deal_number
    calls = len(world.fake.calls)
    await world.shutdown()
    await world.boot()
    resumed = world.table()
    assert resumed is not table and resumed.seq == seq
    # Restarts are invisible: the same messages are edited (their ids were stored), the
    # group's table and the hand of whoever is to act, at once (no timer needed).
    await world.bot.outbox.flush()  # type: ignore[union-attr]
    writes = [
        c for c in world.fake.calls[calls:] if c.method in ("sendMessage", "editMessageText")
    ]
    assert [c for c in writes if c.method == "sendMessage"] == []
    edited = {str(c.params["chat_id"]) for c in writes}
    assert str(GROUP) in edited
    seat_to_act = resumed.match.to_act[0] if resumed.match else None  # type: ignore[union-attr]
    if seat_to_act in users:
        assert str(users[seat_to_act]) in edited
    assert resumed.match is not None
    assert [resumed.match.hand(seat) for seat in range(4)] == hands
    assert (resumed.match.scores, resumed.match.deal_number) == (scores, deal)
    # Old buttons still drive the match.
    presses = await play_out(world, users, random.Random(2), stop_after=10)  # type: ignore[arg-type]
    assert presses == 10 and resumed.seq >= seq + 10
