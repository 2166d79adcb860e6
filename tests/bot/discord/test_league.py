"""The league and the rematch on Discord, end to end (real discord.py, fake Discord):
``/sahra history``, ``/sahra stats``, ``/sahra top``, ``/sahra record`` (refused while
cards are hidden and to anyone who did not play; its pages only to a player, each within
Discord's 2,000 characters as sent), and Rematch → Ready → a running table.

Matches are dealt from a fixed seed, so each is known to be short; the humans' moves go
through the real manager (what a click does once Discord delivered it), which keeps the
suite quick — whole matches by clicking are played in ``test_e2e.py``."""

from __future__ import annotations

from bot.render.i18n import card_label, computer_name, isolate, t, variant_name
from bot.tables import LiveTable
from tests.bot.discord.conftest import Guild, buttons
from tests.bot.discord.fake_discord import Message
from tests.bot.discord.test_e2e import notice
from tests.bot.support import dealt_hands, eventually, fields

ALI, BADR, CARLA, DANA = 501, 502, 503, 504
# Tarneeb 41 doubled dealt from this seed, every seat playing as the heuristic player
# does: five deals, 176 moves.
SHORT_SEED = 643
DOUBLED = variant_name("en", "tarneeb41_double")
DISCORD_LIMIT = 2000  # characters of a message's content, as sent
# A display name Discord's markdown would act on: every copy of it is sent escaped, so
# longer than it reads.
HOSTILE = "@everyone **Bold** <@&1> ||x||"


def en(key: str, **values: object) -> str:
    return t("en", key, **values)


def name(user: int, guild: Guild) -> str:
    return isolate(guild.fake.names.get(user, f"Player {user}"))


def newest_public(guild: Guild) -> Message:
    return max(guild.fake.in_channel(), key=lambda m: m.id)


def with_button(guild: Guild, kind: str) -> Message:
    """The newest public message with a ``kind`` button."""
    for message in sorted(guild.fake.in_channel(), key=lambda m: m.id, reverse=True):
        if any(action["type"] == kind for _, action in buttons(message)):
            return message
    raise AssertionError(f"no public message with a {kind} button")


def private(guild: Guild, user: int) -> list[Message]:
    """What only ``user`` was shown (ephemeral), oldest first."""
    mine = [m for m in guild.fake.messages.values() if m.ephemeral_for == user]
    return sorted(mine, key=lambda m: m.id)


async def open_lobby(guild: Guild, humans: list[int]) -> LiveTable:
    """An English lobby in the channel dealt from SHORT_SEED: the humans seated (the first
    opens it) and computers in the other seats."""
    assert guild.bot is not None
    guild.bot.manager.seed_source = lambda: SHORT_SEED
    await guild.slash(humans[0], "lang", language="en")
    await guild.slash(humans[0], "new", variant="tarneeb41_double")
    for user in humans[1:]:
        await guild.click(user, guild.public(), guild.button(guild.public(), "join"))
    for _ in range(4 - len(humans)):
        await guild.click(humans[0], guild.public(), guild.button(guild.public(), "add_computer"))
    return guild.table()


async def begin(guild: Guild, user: int) -> None:
    await guild.click(user, guild.public(), guild.button(guild.public(), "begin"))


def seating(table: LiveTable) -> list[tuple[str, str | None, str]]:
    return [(s.kind, s.owner, s.name) if s else ("empty", None, "") for s in table.seats]


async def test_history_stats_and_top_answer_after_a_finished_match(guild: Guild) -> None:
    table = await open_lobby(guild, [ALI])
    await begin(guild, ALI)
    await guild.finish(table, [ALI])

    reply = await guild.slash(ALI, "history")
    assert reply["type"] == 4 and not reply["data"].get("flags")  # in the channel
    history = newest_public(guild)
    assert len(history.content) <= DISCORD_LIMIT
    line = fields("history_line", history.displayed)
    assert line["table"] == str(table.id) and line["game"] == DOUBLED
    assert name(ALI, guild) in line["players"] and line["players"].count("🤖") == 3
    assert "/sahra record" in history.displayed

    await guild.slash(ALI, "stats")  # only Ali sees his figures
    stats = notice(guild, ALI)
    assert stats.splitlines()[0] == en("stats_title_here", name=name(ALI, guild))
    figures = fields("stats_line", stats)
    assert figures["game"] == en("family_tarneeb") and figures["matches"] == "1"
    assert figures["rank"] == en("stats_unranked")
    await guild.slash(BADR, "stats")  # Badr has played nothing
    assert notice(guild, BADR).splitlines()[1] == en("stats_empty")

    reply = await guild.slash(ALI, "top")
    assert reply["type"] == 4 and not reply["data"].get("flags")
    assert newest_public(guild).displayed.splitlines() == [
        en("top_title", game=en("family_tarneeb")),
        en("top_empty", count=5),
    ]
    await guild.slash(ALI, "top", game="solo")
    assert newest_public(guild).displayed.splitlines()[0] == en(
        "top_title", game=en("family_solo")
    )


async def test_record_is_refused_before_the_end_and_to_others_then_only_its_player_sees_it(
    guild: Guild,
) -> None:
    guild.fake.names[ALI] = HOSTILE  # every copy of his name is sent longer than it reads
    table = await open_lobby(guild, [ALI])
    await begin(guild, ALI)
    assert table.match is not None
    dealt = {seat: table.match.hand(seat) for seat in range(4)}
    names = [name(ALI, guild)] + [isolate(computer_name("en", seat)) for seat in (1, 2, 3)]

    seen = len(private(guild, ALI))
    await guild.slash(ALI, "record", table=table.id)
    assert [m.displayed for m in private(guild, ALI)[seen:]] == [en("refuse_record_not_over")]
    played = await guild.finish(table, [ALI])
    await guild.slash(CARLA, "record", table=table.id)
    assert [m.displayed for m in private(guild, CARLA)] == [en("refuse_record_not_player")]

    # The result's Match record button: the pages, to him alone (the click is done when
    # the last one is sent).
    public = len(guild.fake.in_channel())
    seen = len(private(guild, ALI))
    result = with_button(guild, "record")
    await guild.click(ALI, result, guild.button(result, "record"))
    pages = private(guild, ALI)[seen:]
    assert len(pages) >= 2 and len(guild.fake.in_channel()) == public  # nothing public
    sizes = [len(page.content) for page in pages]
    assert max(sizes) <= DISCORD_LIMIT, sizes
    record = "\n".join(page.displayed for page in pages)
    assert record.startswith(en("record_title", variant=DOUBLED))
    deals = [fields("record_deal", line)["deal"] for line in record.splitlines() if "🃏" in line]
    assert table.match is not None  # every deal, in order
    assert deals == [str(n) for n in range(1, table.match.deal_number + 1)]
    # Every hand as dealt: each deal's four make the whole pack; the first deal's are the
    # cards the players were given, seat by seat.
    hands = dealt_hands(record)
    assert len(hands) == table.match.deal_number
    for deal in hands:
        assert [len(hand) for hand in deal] == [13] * 4 and len(set().union(*deal)) == 52
    assert hands[0] == [{card_label(code) for code in dealt[seat]} for seat in range(4)]
    first = record.split(en("record_hands"), 1)[1].splitlines()[1:5]
    assert [line.split(": ", 1)[0] for line in first] == names
    assert played[ALI]
    for code in played[ALI]:  # every card he played, in its trick
        assert f"{names[0]} {card_label(code)}" in record

    # /sahra record: the same pages.
    seen += len(pages)
    await guild.slash(ALI, "record", table=table.id)
    await eventually(lambda: len(private(guild, ALI)) >= seen + len(pages))
    assert [m.content for m in private(guild, ALI)[seen:]] == [m.content for m in pages]
    assert len(guild.fake.in_channel()) == public


async def test_rematch_then_ready_starts_the_match_with_everyone_in_their_seats(
    guild: Guild,
) -> None:
    old = await open_lobby(guild, [ALI, BADR])
    await begin(guild, ALI)
    await guild.finish(old, [ALI, BADR])
    result = with_button(guild, "rematch")
    await guild.click(CARLA, result, guild.button(result, "rematch"))
    assert notice(guild, CARLA) == en("refuse_rematch_not_player")
    assert guild.bot is not None and guild.bot.manager.table_at(guild.table_place()) is None

    await guild.click(ALI, result, guild.button(result, "rematch"))
    assert notice(guild, ALI) == "✓"
    new = guild.table()
    assert new.id != old.id and new.status == "lobby" and new.config.rematch_of == old.id
    assert new.variant == old.variant and seating(new) == seating(old)
    lobby = with_button(guild, "ready")
    title = en("rematch_title", variant=DOUBLED, old=old.id, table=new.id)
    assert lobby.displayed.startswith(title)
    marks = {
        user: next(line.split()[0] for line in lobby.displayed.splitlines() if who in line)
        for user, who in ((ALI, name(ALI, guild)), (BADR, name(BADR, guild)))
    }
    assert marks == {ALI: "✅", BADR: "⏳"}

    await guild.click(CARLA, lobby, guild.button(lobby, "ready"))  # not at the table
    assert notice(guild, CARLA) == en("refuse_not_seated") and new.status == "lobby"
    await guild.click(BADR, lobby, guild.button(lobby, "ready"))
    assert new.status == "running" and new.match is not None
    assert seating(new) == seating(old)  # the same seats, the computers kept


async def test_the_board_ranks_players_from_their_fifth_match_and_any_name_fits_a_message(
    guild: Guild,
) -> None:
    players = [ALI, BADR, CARLA, DANA]
    for user in players:  # 31 characters, every one of them sent escaped or spaced
        guild.fake.names[user] = f"**{user}** <@&1> ||x|| __y__ ~~z~~"
    for played in range(1, 6):
        table = await open_lobby(guild, players)
        await begin(guild, ALI)
        await guild.finish(table, players)
        if played == 4:  # four matches are not enough yet
            await guild.slash(ALI, "top")
            assert newest_public(guild).displayed.splitlines()[1] == en("top_empty", count=5)
    await guild.slash(ALI, "top")
    board = newest_public(guild)
    assert len(board.content) <= DISCORD_LIMIT
    lines = [fields("top_line", line) for line in board.displayed.splitlines()[1:5]]
    assert [line["place"] for line in lines] == ["1", "2", "3", "4"]
    assert {line["name"] for line in lines} == {name(user, guild) for user in players}
    assert all(line["matches"] == "5" for line in lines)
    ratings = [int(line["rating"]) for line in lines]
    assert ratings == sorted(ratings, reverse=True)
    # The history names four players a match: newest first, within one message as sent.
    await guild.slash(ALI, "history")
    history = newest_public(guild)
    assert len(history.content) <= DISCORD_LIMIT
    shown = [
        fields("history_line", line)["table"] for line in history.displayed.splitlines()[1:-1]
    ]
    assert shown and shown == [str(table.id - back) for back in range(len(shown))]
