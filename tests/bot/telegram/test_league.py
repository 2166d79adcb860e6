"""The league and the rematch on Telegram, end to end (real PTB, fake Bot API): /history,
/stats and /top after finished matches, /record (refused while cards are hidden and to
anyone who did not play; its pages privately to a player), and a rematch in one tap —
Ready, computers after the wait, Swap partners.

Matches are dealt from a fixed seed, so each is known to be short: the one match played
by pressing private buttons, and the others whose humans' moves go through the real
manager (what a press does once Telegram delivered it) to keep the suite quick."""

from __future__ import annotations

import random

import pytest

from bot.league.service import counting
from bot.render.i18n import card_label, computer_name, isolate, joined, t, variant_name
from bot.tables import LiveTable
from bot.telegram import league as telegram_league
from tests.bot.support import dealt_hands, fields
from tests.bot.telegram.fake_api import Message
from tests.bot.telegram.harness import GROUP, World, play_out
from tests.bot.telegram.test_commands import button

ALI, BADR, CARLA, DANA = 401, 402, 403, 404
OTHER_GROUP = -100888
# Tarneeb 41 doubled dealt from this seed, every seat playing as the heuristic player
# does: five deals, 176 moves (the shortest team match of the first 3,000 seeds).
SHORT_SEED = 643
TELEGRAM_LIMIT = 4096  # characters of a message, counted in UTF-16 code units
DOUBLED = variant_name("en", "tarneeb41_double")


def en(key: str, **values: object) -> str:
    return t("en", key, **values)


def name(user: int) -> str:
    """A player's name as the screens show it (the fake's first name, isolated)."""
    return isolate(f"Player{user}")


def control(world: World, kind: str) -> tuple[Message, str]:
    """The group's latest message with a button for ``kind``, and that button's data."""
    message, data = button(world, GROUP, kind)
    assert isinstance(message, Message)
    return message, data


def latest(world: World, chat: int) -> str:
    return world.fake.in_chat(chat)[-1].text


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


async def open_lobby(
    world: World,
    humans: list[int],
    dms: tuple[int, ...] = (),
    names: dict[int, str] | None = None,
    group: int = GROUP,
) -> LiveTable:
    """An English Tarneeb 41 doubled lobby in ``group`` dealt from SHORT_SEED: the humans
    seated (the first opens it; ``names``: their Telegram names), computers in the other
    seats, and the private chats of ``dms`` open."""
    assert world.bot is not None
    world.bot.manager.seed_source = lambda: SHORT_SEED
    named = names or {}
    await world.say(group, humans[0], "/lang en")
    await world.deliver(world.fake.command(group, humans[0], "/new double", named.get(humans[0])))
    for user in humans[1:]:
        await world.deliver(world.fake.command(group, user, "/join", named.get(user)))
    for _ in range(4 - len(humans)):
        await world.say(group, humans[0], "/addbot")
    table = world.table(chat=group)
    for user in dms:
        await world.say(user, user, f"/start t{table.id}")
        await world.say(user, user, "/lang en")
    return table


async def finished(
    world: World, humans: list[int], dms: tuple[int, ...] = (), group: int = GROUP
) -> tuple[LiveTable, dict[int, list[str]]]:
    table = await open_lobby(world, humans, dms, group=group)
    await world.say(group, humans[0], "/begin")
    return table, await world.finish(table, humans)


def seating(table: LiveTable) -> list[tuple[str, str | None, str]]:
    return [(s.kind, s.owner, s.name) if s else ("empty", None, "") for s in table.seats]


def seat_mark(lobby: str, user: int) -> str:
    """The mark before a human's seat line in a rematch lobby (✅ confirmed, ⏳ waiting)."""
    for line in lobby.splitlines():
        if name(user) in line:
            return line.split()[0]
    raise AssertionError(f"Player{user} is not in {lobby!r}")


# ---------------------------------------------------------------- history, stats, top


async def test_a_match_played_to_the_end_is_in_history_and_stats_and_the_board_waits_for_five(
    world: World,
) -> None:
    table = await open_lobby(world, [ALI], dms=(ALI,))
    await world.say(GROUP, ALI, "/begin")
    await play_out(world, {table.seat_of(str(ALI)): ALI}, random.Random(5))  # type: ignore[dict-item]
    assert table.status == "finished"
    assert world.bot is not None
    await counting(world.bot.manager).settle()

    await world.say(GROUP, ALI, "/history")
    history = latest(world, GROUP)
    line = fields("history_line", history)
    assert line["table"] == str(table.id) and line["game"] == DOUBLED
    assert name(ALI) in line["players"] and line["players"].count("🤖") == 3
    assert "/record" in history

    await world.say(GROUP, ALI, "/stats")
    here = latest(world, GROUP)
    assert here.splitlines()[0] == en("stats_title_here", name=name(ALI))
    stats = fields("stats_line", here)
    assert stats["game"] == en("family_tarneeb") and stats["matches"] == "1"
    assert stats["rank"] == en("stats_unranked")

    # A match in another group counts there, and in private (every chat's matches).
    await finished(world, [ALI], group=OTHER_GROUP)
    await world.say(GROUP, ALI, "/stats")
    assert fields("stats_line", latest(world, GROUP))["matches"] == "1"
    await world.say(ALI, ALI, "/stats")
    everywhere = latest(world, ALI)
    assert everywhere.splitlines()[0] == en("stats_title_all", name=name(ALI))
    assert fields("stats_line", everywhere)["matches"] == "2"
    await world.say(GROUP, ALI, "/history")  # each group's history is its own
    shown = [fields("history_line", line) for line in latest(world, GROUP).splitlines()[1:-1]]
    assert [line["table"] for line in shown] == [str(table.id)]

    # Nobody has five matches here yet; /top names its game, or says how to.
    await world.say(GROUP, ALI, "/top")
    assert latest(world, GROUP).splitlines() == [
        en("top_title", game=en("family_tarneeb")),
        en("top_empty", count=5),
    ]
    await world.say(GROUP, ALI, "/top zzz")
    assert latest(world, GROUP) == en("tg_top_usage")


async def test_the_board_ranks_players_from_their_fifth_match_and_long_names_still_fit(
    world: World,
) -> None:
    players = [ALI, BADR, CARLA, DANA]
    # Telegram's longest names (64 characters), each counting 123 of a message's 4,096.
    names = {user: f"{user} " + "👑" * 60 for user in players}
    for played in range(1, 6):
        table = await open_lobby(world, players, names=names)
        await world.say(GROUP, ALI, "/begin")
        await world.finish(table, players)
        if played == 4:  # four matches are not enough yet
            await world.say(GROUP, ALI, "/top tarneeb")
            assert latest(world, GROUP).splitlines()[1] == en("top_empty", count=5)
    await world.say(GROUP, ALI, "/top tarneeb")
    board = latest(world, GROUP)
    assert utf16(board) <= TELEGRAM_LIMIT
    assert board.splitlines()[0] == en("top_title", game=en("family_tarneeb"))
    lines = [fields("top_line", line) for line in board.splitlines()[1:5]]
    assert [line["place"] for line in lines] == ["1", "2", "3", "4"]
    assert {line["name"] for line in lines} == {isolate(names[user]) for user in players}
    assert all(line["matches"] == "5" for line in lines)
    ratings = [int(line["rating"]) for line in lines]
    assert ratings == sorted(ratings, reverse=True)
    # A player's own stats give their place on this board.
    first = next(user for user in players if isolate(names[user]) == lines[0]["name"])
    await world.say(GROUP, first, "/stats")
    assert fields("stats_line", latest(world, GROUP))["rank"] == en("stats_rank", rank=1, of=4)
    # The history names four players a match: newest first, within one message.
    await world.say(GROUP, ALI, "/history")
    history = latest(world, GROUP)
    assert utf16(history) <= TELEGRAM_LIMIT
    shown = [fields("history_line", line)["table"] for line in history.splitlines()[1:-1]]
    assert shown and shown == [str(table.id - back) for back in range(len(shown))]
    # Another game's board is still empty.
    await world.say(GROUP, ALI, "/top solo")
    assert latest(world, GROUP).splitlines()[1] == en("top_empty", count=5)


# ---------------------------------------------------------------- the match record


async def test_record_while_the_match_is_played_is_refused_and_sends_nothing_private(
    world: World,
) -> None:
    table = await open_lobby(world, [ALI], dms=(ALI,))
    await world.say(GROUP, ALI, "/begin")
    before = [m.text for m in world.fake.in_chat(ALI)]
    await world.say(GROUP, ALI, f"/record {table.id}")
    assert latest(world, GROUP) == en("refuse_record_not_over")
    await world.say(ALI, ALI, f"/record {table.id}")  # asked privately: refused the same
    assert latest(world, ALI) == en("refuse_record_not_over")
    # Ali's private chat got the refusal and nothing else (his hand is edited in place).
    assert [m.text for m in world.fake.in_chat(ALI)[len(before) :]] == [
        en("refuse_record_not_over")
    ]
    assert table.status == "running"


async def test_record_after_the_end_goes_privately_to_a_player_with_a_one_line_pointer(
    world: World,
) -> None:
    table = await open_lobby(world, [ALI], dms=(ALI,))
    await world.say(GROUP, ALI, "/begin")
    assert table.match is not None
    dealt = {seat: table.match.hand(seat) for seat in range(4)}
    names = [name(ALI)] + [isolate(computer_name("en", seat)) for seat in (1, 2, 3)]
    played = await world.finish(table, [ALI])
    group_before = len(world.fake.in_chat(GROUP))
    private_before = len(world.fake.in_chat(ALI))
    calls_before = len(world.fake.calls)

    await world.say(GROUP, ALI, f"/record {table.id}")
    group = world.fake.in_chat(GROUP)[group_before:]
    assert [m.text for m in group] == [en("tg_record_sent", name=name(ALI))]
    pages = [m.text for m in world.fake.in_chat(ALI)[private_before:]]
    assert len(pages) >= 2 and all(utf16(page) <= TELEGRAM_LIMIT for page in pages)
    # The group is told only once every page is out (never a claim a refusal then belies).
    order = [c for c in world.fake.calls[calls_before:] if c.method == "sendMessage"]
    told = next(i for i, c in enumerate(order) if int(c.params["chat_id"]) == GROUP)
    last_page = max(i for i, c in enumerate(order) if int(c.params["chat_id"]) == ALI)
    assert told > last_page
    record = "\n".join(pages)
    assert record.startswith(en("record_title", variant=DOUBLED))
    # Every hand as dealt: each deal's four make the whole pack; the first deal's are the
    # cards the players were given, seat by seat.
    hands = dealt_hands(record)
    assert table.match is not None and len(hands) == table.match.deal_number
    for deal in hands:
        assert [len(hand) for hand in deal] == [13] * 4 and len(set().union(*deal)) == 52
    assert hands[0] == [{card_label(code) for code in dealt[seat]} for seat in range(4)]
    first = record.split(en("record_hands"), 1)[1].splitlines()[1:5]
    assert [line.split(": ", 1)[0] for line in first] == names
    # Every card the player played, in its trick.
    assert played[ALI]
    for code in played[ALI]:
        assert f"{name(ALI)} {card_label(code)}" in record
    deals = [fields("record_deal", line)["deal"] for line in record.splitlines() if "🃏" in line]
    assert deals == [str(n) for n in range(1, table.match.deal_number + 1)]  # in order

    # The result's Match record button: the same pages, the toast says where they went.
    message, data = control(world, "record")
    answer = await world.press(ALI, message, data)
    assert answer["text"] == en("tg_record_sent", name=name(ALI))
    assert [m.text for m in world.fake.in_chat(ALI)[private_before + len(pages) :]] == pages
    assert len(world.fake.in_chat(GROUP)) == group_before + 1


async def test_record_of_a_match_someone_did_not_play_is_refused_to_them(world: World) -> None:
    await world.say(CARLA, CARLA, "/start")  # Carla's private chat is open
    table, _ = await finished(world, [ALI])
    private_before = len(world.fake.in_chat(CARLA))
    await world.say(GROUP, CARLA, f"/record {table.id}")
    assert latest(world, GROUP) == en("refuse_record_not_player")
    message, data = control(world, "record")
    answer = await world.press(CARLA, message, data)
    assert answer["text"] == en("refuse_record_not_player")
    assert len(world.fake.in_chat(CARLA)) == private_before
    await world.say(GROUP, CARLA, "/record soon")
    assert latest(world, GROUP) == en("tg_record_usage")


# ---------------------------------------------------------------- rematch


async def test_rematch_opens_a_lobby_here_and_the_others_ready_starts_it_in_the_same_seats(
    world: World,
) -> None:
    old, _ = await finished(world, [ALI, BADR])
    message, data = control(world, "rematch")
    answer = await world.press(ALI, message, data)
    assert answer["text"] == en("tg_rematch_confirmed")
    new = world.table()
    assert new.id != old.id and new.place == old.place and new.status == "lobby"
    assert new.variant == old.variant and new.config.rematch_of == old.id
    assert seating(new) == seating(old)  # everyone where they sat, computers kept
    lobby, ready = control(world, "ready")
    assert lobby.text.startswith(en("rematch_title", variant=DOUBLED, old=old.id, table=new.id))
    assert seat_mark(lobby.text, ALI) == "✅" and seat_mark(lobby.text, BADR) == "⏳"

    answer = await world.press(BADR, lobby, ready)
    assert not answer.get("text")
    assert new.status == "running" and new.match is not None
    assert seating(new) == seating(old)
    # The old result's Rematch, pressed again, opens nothing more.
    answer = await world.press(BADR, message, data)
    assert answer["text"] == en("refuse_rematch_started") and world.table() is new


async def test_an_unconfirmed_rematch_starts_after_the_wait_with_a_computer_for_the_absent(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert world.bot is not None
    world.bot.frontend.table_defaults = {"rematch_seconds": 5}
    old, _ = await finished(world, [ALI, BADR])
    message, data = control(world, "rematch")
    await world.press(ALI, message, data)
    new = world.table()
    badr = new.seat_of(str(BADR))
    assert badr is not None and new.status == "lobby"
    manager = world.bot.manager
    await manager.run_due()
    assert new.status == "lobby"  # the wait is not over
    # Six seconds later, as the tables' deadlines see it: the wait (5 s, the shortest a
    # table may have) is over, and the deadline fires as its timer would.
    clock = manager.scheduler.clock
    monkeypatch.setattr(manager.scheduler, "clock", lambda: clock() + 6)
    await manager.run_due()
    await world.settle()
    assert new.status == "running" and new.seat_of(str(BADR)) is None
    taken = new.seats[badr]
    assert taken is not None and taken.kind == "computer"
    assert taken.name == computer_name("en", badr)
    assert new.seat_of(str(ALI)) == old.seat_of(str(ALI))
    line = f"{isolate(taken.name)} {en('computer_mark')}"
    assert en("rematch_filled", names=joined("en", [line])) in [
        m.text for m in world.fake.in_chat(GROUP)
    ]


async def test_swap_partners_rotates_the_three_seats_after_the_first(world: World) -> None:
    old, _ = await finished(world, [ALI, BADR])
    message, data = control(world, "rematch")
    await world.press(ALI, message, data)
    new = world.table()
    first, second, third, fourth = seating(old)
    assert (first[1], second[1]) == (str(ALI), str(BADR))
    lobby, swap = control(world, "swap")
    await world.press(BADR, lobby, swap)
    # Seats 2 to 4 rotate: Ali (seat 1) now partners the computer that partnered Badr.
    assert seating(new) == [first, third, fourth, second]
    lobby, swap = control(world, "swap")
    await world.press(ALI, lobby, swap)
    assert seating(new) == [first, fourth, second, third]  # Badr opposite Ali: partners
    lobby, ready = control(world, "ready")
    assert seat_mark(lobby.text, BADR) == "⏳"
    await world.press(BADR, lobby, ready)
    assert new.status == "running" and new.seat_of(str(BADR)) == 2


async def test_someone_not_seated_pressing_ready_swap_or_rematch_gets_a_toast_and_changes_nothing(
    world: World,
) -> None:
    await finished(world, [ALI, BADR])
    result, rematch = control(world, "rematch")
    answer = await world.press(CARLA, result, rematch)
    assert answer["text"] == en("refuse_rematch_not_player")
    assert world.table_or_none() is None
    await world.press(ALI, result, rematch)
    new = world.table()
    before = (new.status, seating(new), [s.ready if s else None for s in new.seats])
    messages = [(m.message_id, m.text) for m in world.fake.in_chat(GROUP)]
    for kind in ("ready", "swap"):
        lobby, data = control(world, kind)
        answer = await world.press(CARLA, lobby, data)
        assert answer["text"] == en("refuse_not_seated")
    assert (new.status, seating(new), [s.ready if s else None for s in new.seats]) == before
    assert [(m.message_id, m.text) for m in world.fake.in_chat(GROUP)] == messages
    # Ready twice is answered too.
    lobby, data = control(world, "ready")
    answer = await world.press(ALI, lobby, data)
    assert answer["text"] == en("refuse_already_ready") and new.status == "lobby"


async def test_a_long_record_arrives_whole_and_in_order_however_many_pages(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chat keeps at most three plain replies waiting; a record's pages are not replies
    to drop but parts of one answer, so every page arrives, in order."""
    monkeypatch.setattr(telegram_league, "PAGE", 700)  # many pages from one short match
    table = await open_lobby(world, [ALI], dms=(ALI,))
    await world.say(GROUP, ALI, "/begin")
    await world.finish(table, [ALI])
    private_before = len(world.fake.in_chat(ALI))
    await world.say(ALI, ALI, f"/record {table.id}")
    await world.settle()
    pages = [m.text for m in world.fake.in_chat(ALI)[private_before:]]
    assert len(pages) > 6 and all(utf16(page) <= 700 for page in pages)
    record = "\n".join(pages)
    assert table.match is not None
    deals = [fields("record_deal", line)["deal"] for line in record.splitlines() if "🃏" in line]
    assert deals == [str(n) for n in range(1, table.match.deal_number + 1)]
