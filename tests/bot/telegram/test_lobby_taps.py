"""A second tap of a lobby button is not a second command: the lobby's buttons carry its
version, and the same person's Add computer pressed twice on one drawing of the group's
message adds one computer; the second press is answered as stale."""

from __future__ import annotations

from bot.render import refusal_notice
from bot.render.codes import decode
from tests.bot.telegram.harness import GROUP, World
from tests.bot.telegram.test_e2e import ALI


async def test_add_computer_pressed_twice_on_one_drawing_adds_one_computer(
    world: World,
) -> None:
    await world.say(GROUP, ALI, "/new syrian41")
    table = world.table()
    lobby = world.fake.latest_with_buttons(GROUP)
    assert lobby is not None
    data = next(
        button["callback_data"]
        for row in lobby.keyboard
        for button in row
        if "callback_data" in button
        and (decoded := decode(button["callback_data"])) is not None
        and decoded[2]["type"] == "add_computer"
    )
    first = await world.press(ALI, lobby, data)
    second = await world.press(ALI, lobby, data)  # the same button, before any redraw
    assert first.get("text") is None
    assert second["text"] == refusal_notice(table.config.language, "stale").text
    assert [seat.kind for seat in table.seats if seat is not None] == ["human", "computer"]
