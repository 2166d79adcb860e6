"""DM hands cost one write each: no user lookup per write, the DM channel asked for once
per player and remembered in a bounded cache; the choice of DM hands ends with the table."""

from __future__ import annotations

import random
import re
from typing import Any

from cachetools import LRUCache

from bot.render.model import Screen
from tests.bot.discord.conftest import Guild, buttons, playable
from tests.bot.discord.test_e2e import open_table
from tests.bot.support import eventually

ALI = 301


async def test_dm_hands_cost_no_user_lookup_and_one_channel_open(guild: Guild) -> None:
    await open_table(guild, "tarneeb_solo", [ALI])
    table = guild.table()
    seat = table.seat_of(str(ALI))
    assert seat is not None
    await guild.slash(ALI, "hand", mode="dm")
    rng, presses = random.Random(11), 0
    while presses < 8 and table.status == "running":
        assert table.match is not None
        if seat not in table.match.to_act:
            await guild.settle()
            continue
        hand = guild.fake.latest_for(ALI)
        assert hand is not None and hand.channel == 700_000 + ALI  # played from the DM
        custom_id, _ = rng.choice(playable(hand))
        await guild.click(ALI, hand, custom_id)
        presses += 1
    dm_writes = [
        (method, path)
        for _, method, path, _ in guild.fake.calls
        if path.startswith(f"/channels/{700_000 + ALI}/")
    ]
    assert len(dm_writes) >= 3  # the first DM hand, and its updates after each move
    lookups = [
        path for _, method, path, _ in guild.fake.calls if re.fullmatch(r"/users/\d+", path)
    ]
    assert lookups == []  # was one GET /users/{id} per DM write
    assert len(guild.fake.requests("POST", "/users/@me/channels")) == 1


async def test_the_dm_choice_ends_with_its_table(guild: Guild) -> None:
    await open_table(guild, "tarneeb_solo", [ALI])
    table = guild.table()
    await guild.slash(ALI, "hand", mode="dm")
    assert guild.bot is not None and guild.bot.notifier.dm_users == {(table.id, str(ALI))}
    await guild.slash(ALI, "stop")
    await eventually(lambda: not table.live)
    await guild.settle()
    assert guild.bot.notifier.dm_users == set()


async def test_the_dm_channel_cache_is_bounded(guild: Guild) -> None:
    assert guild.bot is not None
    sender = guild.bot.sender
    sender.dm_channels = LRUCache(2)
    for user in (1, 2, 3):
        await sender.send(f"dm:{user}", Screen(f"hello {user}"))
    assert set(sender.dm_channels) == {2, 3}  # the least recently written, dropped
    await sender.send("dm:2", Screen("again"))
    await sender.send("dm:1", Screen("back"))
    assert set(sender.dm_channels) == {2, 1}  # 3, written before 2, dropped


async def test_a_press_on_the_dm_hand_is_acknowledged_and_the_outbox_alone_redraws_it(
    guild: Guild,
) -> None:
    """One writer per message: the DM hand is the outbox's, so a press on it is answered
    with an acknowledgement (no content) and the card leaves it through the outbox's edit;
    the interaction never edits it."""
    await open_table(guild, "tarneeb_solo", [ALI])
    table = guild.table()
    seat = table.seat_of(str(ALI))
    assert seat is not None
    await guild.slash(ALI, "hand", mode="dm")

    def plays() -> list[tuple[str, dict[str, Any]]]:
        hand = guild.fake.latest_for(ALI)
        return [(c, a) for c, a in playable(hand) if a["type"] == "play"] if hand else []

    for _ in range(100):  # through the auction to ALI's first card (any answer will do)
        if plays():
            break
        hand = guild.fake.latest_for(ALI)
        assert table.match is not None
        if hand is not None and seat in table.match.to_act and playable(hand):
            await guild.click(ALI, hand, playable(hand)[-1][0])
        await guild.settle()
    hand = guild.fake.latest_for(ALI)
    assert hand is not None and hand.channel == 700_000 + ALI
    custom_id = plays()[0][0]
    calls = len(guild.fake.calls)
    await guild.click(ALI, hand, custom_id)
    pressed = guild.fake.messages[hand.id]
    await eventually(lambda: custom_id not in [c for c, _ in buttons(pressed)])
    after = guild.fake.calls[calls:]
    answers = [body for _, method, path, body in after if path.endswith("/callback")]
    assert [answer["type"] for answer in answers] == [6]  # DEFERRED_UPDATE_MESSAGE
    assert not [path for _, _, path, _ in after if "/webhooks/" in path]  # no @original edit
    assert [m for _, m, path, _ in after if path == f"/channels/{hand.channel}/messages/{hand.id}"]
