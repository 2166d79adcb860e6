"""The table commands' own rules, decided once for every frontend: who may stop a table,
and that the platform is asked only what the answer needs."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.tables import Place, Refusal
from bot.tables.table_commands import check_language_change, may_set_language, may_stop, run
from tests.bot.tables.conftest import PLAYERS, Harness

ALI, BADR, CARLA = PLAYERS[:3]


@dataclass
class Chat:
    """A chat's admins and the people who left it, and who the rules asked about."""

    admins: set[str] = field(default_factory=set)
    gone: set[str] = field(default_factory=set)
    asked: list[tuple[str, str]] = field(default_factory=list)

    async def is_admin(self, user: str) -> bool:
        self.asked.append(("admin", user))
        return user in self.admins

    async def has_left(self, user: str) -> bool:
        self.asked.append(("left", user))
        return user in self.gone


async def test_the_creator_an_admin_or_a_seated_player_once_the_creator_left_may_stop(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await manager.create(Place("test", "c1"), ALI, {"variant": "syrian41"})
    await manager.join(table.id, BADR)
    chat = Chat()
    assert await may_stop(table, ALI.user_id, chat) and chat.asked == []  # nothing to ask
    assert not await may_stop(table, BADR.user_id, chat)
    assert chat.asked == [("admin", BADR.user_id), ("left", ALI.user_id)]
    assert not await may_stop(table, CARLA.user_id, Chat(gone={ALI.user_id}))  # not seated
    assert await may_stop(table, BADR.user_id, Chat(gone={ALI.user_id}))
    assert await may_stop(table, CARLA.user_id, Chat(admins={CARLA.user_id}))


async def test_a_refused_stop_changes_nothing_and_an_allowed_one_ends_the_table(
    harness: Harness,
) -> None:
    manager = harness.manager
    table = await manager.create(Place("test", "c1"), ALI, {"variant": "syrian41"})
    await manager.join(table.id, BADR)
    seq = table.seq
    try:
        await run(manager, table.id, "stop", BADR, Chat())
    except Refusal as refusal:
        assert refusal.code == "stop_not_allowed"
    else:
        raise AssertionError("a seated player stopped a table whose creator is here")
    assert table.status == "lobby" and table.seq == seq
    await run(manager, table.id, "stop", BADR, Chat(gone={ALI.user_id}))
    assert table.status == "stopped"


async def test_every_table_command_reaches_the_manager(harness: Harness) -> None:
    manager = harness.manager
    table = await manager.create(Place("test", "c1"), ALI, {"variant": "syrian41"})
    await run(manager, table.id, "join", BADR, Chat())
    await run(manager, table.id, "leave", BADR, Chat())
    for _ in range(3):
        await run(manager, table.id, "add_computer", ALI, Chat())
    assert [seat is not None for seat in table.seats] == [True] * 4
    await run(manager, table.id, "begin", ALI, Chat())
    assert table.status == "running"


async def test_while_a_table_is_live_only_its_players_or_an_admin_may_change_the_language(
    harness: Harness,
) -> None:
    manager = harness.manager
    assert await may_set_language(None, CARLA.user_id, Chat())  # no table: the chat's own
    table = await manager.create(Place("test", "c1"), ALI, {"variant": "syrian41"})
    await manager.join(table.id, BADR)
    chat = Chat()
    assert await may_set_language(table, BADR.user_id, chat) and chat.asked == []
    assert not await may_set_language(table, CARLA.user_id, chat)
    assert chat.asked == [("admin", CARLA.user_id)]
    assert await may_set_language(table, CARLA.user_id, Chat(admins={CARLA.user_id}))
    try:
        await check_language_change(table, CARLA.user_id, Chat())
    except Refusal as refusal:
        assert refusal.code == "language_not_allowed"
    else:
        raise AssertionError("a watcher changed the language of a live table's chat")
    await run(manager, table.id, "stop", ALI, Chat())
    assert await may_set_language(table, CARLA.user_id, Chat())  # over: the chat's again
