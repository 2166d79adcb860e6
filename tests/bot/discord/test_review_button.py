"""A deal's result in the channel carries **Review** (issue 35): a press answers the
presser with the page opened on that deal's replay, also once the match is over (the last
deal is reviewed after it). The real discord.py client against the fake Discord."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.bot.discord.conftest import buttons, served
from tests.bot.discord.test_e2e import ALI, open_table, play
from tests.bot.discord.test_web_link import link_buttons

REVIEW = re.compile(r"^https://table\.example\.org/\?review=(\d+)#link=[\w.-]+$")


async def test_review_on_a_deal_result_links_to_its_replay_even_after_the_match(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as guild:
        await open_table(guild, "syrian41", [ALI])
        table = guild.table()
        seat = table.seat_of(str(ALI))
        assert seat is not None
        rng = random.Random(5)
        while table.match is not None and table.match.deal_number == 1:
            await play(guild, {seat: ALI}, rng, stop_after=1)
        result = next(
            m for m in guild.fake.in_channel() if any(a["type"] == "review" for _, a in buttons(m))
        )
        review = next(c for c, a in buttons(result) if a["type"] == "review")
        reply = await guild.click(ALI, result, review)
        (link,) = link_buttons(reply)
        found = REVIEW.match(link["url"])
        assert found and found.group(1) == "1", link["url"]
        # The match ends; its last deals stay reviewable from their messages.
        await guild.slash(ALI, "stop", admin=True)
        assert not table.live
        reply = await guild.click(ALI, result, review)
        (link,) = link_buttons(reply)
        assert REVIEW.match(link["url"]), link["url"]


async def test_the_match_record_ends_with_review_of_its_last_deal(tmp_path: Path) -> None:
    async with served(tmp_path) as guild:
        await open_table(guild, "syrian41", [ALI])
        table = guild.table()
        seat = table.seat_of(str(ALI))
        assert seat is not None
        rng = random.Random(5)
        while table.match is not None and table.match.deal_number == 1:
            await play(guild, {seat: ALI}, rng, stop_after=1)
        await guild.slash(ALI, "stop", admin=True)
        await guild.slash(ALI, "record", table=table.id)
        last = max(
            (m for m in guild.fake.messages.values() if m.ephemeral_for == ALI),
            key=lambda m: m.id,
        )
        review = next(c for c, a in buttons(last) if a["type"] == "review")
        reply = await guild.click(ALI, last, review)
        (link,) = link_buttons(reply)
        found = REVIEW.match(link["url"])
        assert found and found.group(1) == "1", link["url"]
