"""A display name can neither ping nor format: every write carries ``allowed_mentions``
with nothing to parse, and our text is escaped so Discord shows it literally — suits,
Arabic and direction marks included."""

from __future__ import annotations

import random

from bot.discord.texts import plain
from bot.render.i18n import FSI, LRM, PDI
from tests.bot.discord.conftest import Guild
from tests.bot.discord.fake_discord import Message
from tests.bot.discord.test_e2e import open_table, play

ALI, BADR = 301, 302
NAME = "@everyone **Bold** <@&1> ||x||"


async def test_a_name_that_pings_and_formats_is_shown_literally_and_pings_nobody(
    guild: Guild,
) -> None:
    guild.fake.names[BADR] = NAME
    await open_table(guild, "tarneeb_solo", [ALI, BADR])
    table = guild.table()
    users = {table.seat_of(str(u)): u for u in (ALI, BADR)}
    await play(guild, users, random.Random(2), stop_after=6)  # type: ignore[arg-type]
    await guild.slash(BADR, "hand", mode="dm")  # a DM hand, too
    public = guild.public()
    assert NAME in public.displayed  # the name as written …
    assert "**" not in public.content and "||" not in public.content  # … and inert
    assert "\\<@&1>" in public.content and "@\u200beveryone" in public.content
    writes = guild.fake.writes()
    kinds = {(method, path.split("/")[1]) for method, path, _ in writes}
    # Messages, edits, DM writes, ephemeral answers, in-place updates and followups.
    assert {("POST", "channels"), ("PATCH", "channels"), ("POST", "interactions")} <= kinds
    assert ("POST", "webhooks") in kinds or ("PATCH", "webhooks") in kinds
    assert any(path.startswith("/channels/7") for _, path, _ in writes)  # a DM write
    for method, path, body in writes:
        assert body.get("allowed_mentions") == {"parse": []}, (method, path, body)


def test_escaped_text_reads_exactly_as_written() -> None:
    text = "\n".join(
        [
            f"🃏 طرنيب سوري 41 — طاولة جديدة رقم {LRM}7{LRM}",
            f"> {FSI}Ali_{PDI} ♠ 10♥ Q♦ A♣ *x* `y` ~~z~~ [a](https://b.c) <t:1:R> \\ok",
            "# not a heading",
            "  - not a list",
            "1. not a list",
            "-# not subtext",
            "+41 −15 (31) 3.5 ٢٠٢٦",
        ]
    )
    escaped = plain(text)
    assert Message(1, 1, escaped, []).displayed == text
    for line in escaped.splitlines():  # nothing Discord would format is left bare
        assert not line.lstrip().startswith(("> ", "#", "- ", "-#", "1. "))
