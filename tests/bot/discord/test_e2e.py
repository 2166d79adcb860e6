"""Discord end to end: the real discord.py client against a fake REST + gateway server. A
slash command opens a lobby, players join by button, and whole matches are played by
clicking the buttons of ephemeral hands."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from bot.render import refusal_notice
from engine.players import HeuristicPlayer
from tests.bot.discord.conftest import Guild, playable
from tests.bot.support import eventually

ALI, BADR = 301, 302


async def open_table(guild: Guild, variant: str, humans: list[int]) -> None:
    await guild.slash(humans[0], "new", variant=variant)
    for user in humans[1:]:
        await guild.click(user, guild.public(), guild.button(guild.public(), "join"))
    for _ in range(4 - len(humans)):
        await guild.click(humans[0], guild.public(), guild.button(guild.public(), "add_computer"))
    await guild.click(humans[0], guild.public(), guild.button(guild.public(), "begin"))
    assert guild.table().status == "running"


async def play(
    guild: Guild, users: dict[int, int], rng: random.Random, stop_after: int | None = None
) -> int:
    table = guild.table()
    presses = 0
    while table.status == "running" and (stop_after is None or presses < stop_after):
        assert not guild.leaks, guild.leaks[0]
        match = table.match
        assert match is not None
        humans = [seat for seat in match.to_act if seat in users]
        if not humans:
            await guild.settle()
            continue
        seat = humans[0]
        user = users[seat]
        # "My hand" on the public table: an ephemeral reply only this player sees.
        await guild.click(user, guild.public(), guild.button(guild.public(), "hand"))
        hand = guild.fake.latest_for(user)
        assert hand is not None and hand.ephemeral_for == user
        choices = playable(hand)
        assert choices, hand.content
        wanted = HeuristicPlayer().decide(match.view(seat)) if rng.random() < 0.9 else None
        chosen = [c for c, a in choices if a == wanted] or [rng.choice(choices)[0]]
        before = table.seq
        reply = await guild.click(user, hand, chosen[0])
        # Answered in place (UPDATE_MESSAGE): the pressed button is gone at once, and no
        # button is left to press while the move is made.
        assert reply["type"] == 7
        assert chosen[0] not in str(reply.get("data", {}).get("components", []))
        assert table.seq > before
        presses += 1
    assert not guild.leaks, guild.leaks[0]
    return presses


# One whole match per variant family (team Tarneeb, Solo, Trix); Tarneeb 41 doubled shares
# the team family's screens and is played for a deal's worth of clicks below.
@pytest.mark.backend_matters(variant="trix_complex")  # the durable path once on PostgreSQL
@pytest.mark.parametrize(
    ("variant", "humans"),
    [
        # Two humans' hands at once are played in Trix and in the restart test.
        ("syrian41", [ALI]),
        ("tarneeb_solo", [BADR]),
        ("trix_complex", [ALI, BADR]),
    ],
)
async def test_whole_matches_are_played_by_clicking_ephemeral_hands(
    guild: Guild, variant: str, humans: list[int]
) -> None:
    await open_table(guild, variant, humans)
    table = guild.table()
    users = {table.seat_of(str(user)): user for user in humans}
    presses = await play(guild, users, random.Random(variant))  # type: ignore[arg-type]
    assert table.status == "finished" and presses > 10
    public = guild.fake.in_channel()
    assert all(message.displayed in guild.public_texts for message in public)
    assert "🏁" in "".join(message.content for message in public)
    # Old public copies lose their buttons: each deal's table became its sheet; only the
    # final result offers something, and only what a finished match offers.
    live = [m for m in public if m.components]
    assert [m.id for m in live] == [public[-1].id]
    ids = [b["custom_id"] for row in live[0].components for b in row["components"]]
    assert sorted(code.rsplit(":", 1)[1] for code in ids) == ["m", "o"]  # rematch, record


async def test_tarneeb41_double_is_played_by_clicking_ephemeral_hands(guild: Guild) -> None:
    await open_table(guild, "tarneeb41_double", [ALI])
    table = guild.table()
    users = {table.seat_of(str(ALI)): ALI}
    presses = await play(guild, users, random.Random(4), stop_after=14)  # type: ignore[arg-type]
    assert presses == 14 and table.seq >= 14
    public = guild.fake.in_channel()
    assert all(message.displayed in guild.public_texts for message in public)


def notice(guild: Guild, user: int) -> str:
    """The newest ephemeral text ``user`` was sent (a refusal or a confirmation)."""
    mine = [m for m in guild.fake.messages.values() if m.ephemeral_for == user]
    return max(mine, key=lambda m: m.id).displayed


async def test_stale_and_other_players_clicks_are_refused_and_change_nothing(
    guild: Guild,
) -> None:
    await open_table(guild, "syrian41", [ALI, BADR])
    table = guild.table()
    match = table.match
    assert match is not None
    seat = match.to_act[0]
    mover = ALI if table.seat_of(str(ALI)) == seat else BADR
    other = BADR if mover == ALI else ALI
    await guild.click(mover, guild.public(), guild.button(guild.public(), "hand"))
    hand = guild.fake.latest_for(mover)
    assert hand is not None
    custom_id, _ = playable(hand)[0]
    before = (table.seq, match.to_json())
    await guild.click(other, hand, custom_id)  # someone else's button (forged click)
    assert notice(guild, other) in ("ليس دورك.", "هذه الورقة ليست معك.", "هذه الحركة غير مسموحة.")
    # (Discord only sends clicks on buttons that exist, so a forged custom_id never comes.)
    assert (table.seq, match.to_json()) == before
    old_hand = dataclasses.replace(hand, components=copy.deepcopy(hand.components))
    await guild.click(mover, hand, custom_id)  # the real move (the hand is redrawn)
    after = (table.seq, match.to_json())
    assert after[0] > before[0]
    await guild.click(mover, old_hand, custom_id)  # an older copy of the hand: stale now
    assert notice(guild, mover) in ("هذا الزر قديم؛ استخدم أحدث رسالة.", "ليس دورك.")
    assert (table.seq, match.to_json()) == after


async def test_closed_dms_fall_back_to_the_ephemeral_hand(guild: Guild) -> None:
    guild.fake.closed_dms.add(ALI)
    await open_table(guild, "tarneeb_solo", [ALI])
    reply = await guild.slash(ALI, "hand", mode="dm")
    assert reply["type"] == 4 and reply["data"]["flags"] == 64  # the hand, ephemeral
    await guild.settle()
    assert guild.bot is not None and not guild.bot.notifier.dm_users
    forbidden = [c for c in guild.fake.calls if c[1] == "POST" and c[2].startswith("/channels/7")]
    assert forbidden  # the DM was tried, refused with 50007, and the table went on
    table = guild.table()
    await play(guild, {table.seat_of(str(ALI)): ALI}, random.Random(5))  # type: ignore[dict-item]
    assert table.status == "finished"


async def test_a_client_restart_mid_match_resumes_it(guild: Guild) -> None:
    await open_table(guild, "trix_complex", [ALI, BADR])
    table = guild.table()
    users = {table.seat_of(str(ALI)): ALI, table.seat_of(str(BADR)): BADR}
    await play(guild, users, random.Random(3), stop_after=12)  # type: ignore[arg-type]
    match = table.match
    assert match is not None
    state = (table.seq, [match.hand(seat) for seat in range(4)], match.scores)
    await guild.shutdown()
    await guild.boot()
    resumed = guild.table()
    assert resumed.match is not None
    hands = [resumed.match.hand(seat) for seat in range(4)]
    assert (resumed.seq, hands, resumed.match.scores) == state
    # The old table message's buttons still work (their custom_id carries everything).
    await play(guild, users, random.Random(4))  # type: ignore[arg-type]
    assert resumed.status == "finished"


async def test_only_the_creator_or_manage_server_stops_a_table(guild: Guild) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    await guild.slash(BADR, "stop")
    assert guild.table().status == "lobby"
    assert notice(guild, BADR) == refusal_notice("ar", "stop_not_allowed").text  # the core's
    await guild.slash(BADR, "stop", admin=True)
    assert guild.fake.in_channel()[-1].content.startswith("🏁")


async def test_an_expired_interaction_is_survived_and_the_table_goes_on(guild: Guild) -> None:
    await open_table(guild, "tarneeb_solo", [ALI])
    assert guild.bot is not None
    table = guild.table()
    done = guild.bot.frontend.completed
    seq = table.seq
    # A click that reaches us after Discord's 3 s: every answer to it gets 404 / 10062.
    await guild.fake.click(ALI, guild.public(), guild.button(guild.public(), "hand"), expired=True)
    await eventually(lambda: guild.bot is not None and guild.bot.frontend.completed > done)
    assert table.seq == seq and table.status == "running"
    await play(guild, {table.seat_of(str(ALI)): ALI}, random.Random(9))  # type: ignore[dict-item]
    assert str(table.status) == "finished"  # (mypy narrowed it to "running" above)


async def test_a_channel_s_language_outlives_a_restart(guild: Guild) -> None:
    await guild.slash(ALI, "lang", language="en")
    await guild.shutdown()
    await guild.boot()  # a new process: nothing of the channel is cached
    await guild.slash(ALI, "rules", variant="syrian41")
    assert "Syrian Tarneeb 41" in notice(guild, ALI)
