"""A second click of a lobby button is not a second command: the lobby's buttons carry its
version, and the same person's Add computer clicked twice on one drawing of the channel's
message adds one computer; the second click is answered, to the clicker only, as stale."""

from __future__ import annotations

from bot.render import refusal_notice
from tests.bot.discord.conftest import Guild
from tests.bot.discord.test_e2e import ALI


async def test_add_computer_clicked_twice_on_one_drawing_adds_one_computer(guild: Guild) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    table = guild.table()
    lobby = guild.public()
    add = guild.button(lobby, "add_computer")
    await guild.click(ALI, lobby, add)
    await guild.click(ALI, lobby, add)  # the same button, as first drawn
    stale = refusal_notice(table.config.language, "stale").text
    assert guild.fake.notices_for(ALI)[-1] == stale  # to the clicker only, ephemeral
    assert [seat.kind for seat in table.seats if seat is not None] == ["human", "computer"]
