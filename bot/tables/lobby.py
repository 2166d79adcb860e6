"""A table before it is dealt: who sits where. Each command runs under the table's lock
(the manager holds it), checks the lobby, commits the change and moves the lobby's version
(``Committer.commit``), which every lobby screen and page is drawn at.

A tapped command carries the version it was drawn at: the same person's same command
again from that drawing is a repeat, refused as stale (``checks.require_first_tap``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.render.i18n import computer_name
from bot.tables import checks, rows
from bot.tables.commands import PlayerRef
from bot.tables.commits import Committer
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Seat
from bot.tables.notifier import Event
from storage.records import Change, PlayerSeen


class Lobby:
    def __init__(self, committer: Committer, clock: Callable[[], float]) -> None:
        self.committer = committer
        self.clock = clock

    async def join(
        self, table: LiveTable, player: PlayerRef, seat: int | None, version: int | None
    ) -> int:
        checks.require_lobby(table)
        if table.seat_of(player.user_id) is not None:
            raise Refusal("already_seated")  # says more than "stale" to a double tap
        checks.require_first_tap(table, player.user_id, "join", version)
        seat = checks.pick_seat(table, seat)
        table.seats[seat] = Seat("human", player.user_id, player.name, player.language)
        joined = {"type": "player_joined", "seat": seat, "name": player.name}
        await self.change(table, [seat], [joined], player, tap=(player.user_id, "join"))
        return seat

    async def leave(self, table: LiveTable, seat: int, user: str, version: int | None) -> None:
        checks.require_lobby(table)
        checks.require_first_tap(table, user, "leave", version)
        table.seats[seat] = None
        left = {"type": "player_left", "seat": seat}
        await self.change(table, [seat], [left], tap=(user, "leave"))

    async def add_computer(
        self, table: LiveTable, user: str, seat: int | None, version: int | None
    ) -> int:
        checks.require_lobby(table)
        checks.require_member(table, user)
        checks.require_first_tap(table, user, "add_computer", version)
        seat = checks.pick_seat(table, seat)
        name = computer_name(table.config.language, seat)
        table.seats[seat] = Seat("computer", None, name, table.config.language)
        added = {"type": "computer_added", "seat": seat}
        await self.change(table, [seat], [added], tap=(user, "add_computer"))
        return seat

    async def change(
        self,
        table: LiveTable,
        seats: list[int],
        events: list[Event],
        player: PlayerRef | None = None,
        tap: tuple[str, str] | None = None,
    ) -> None:
        """Commit a change of a lobby; ``tap``: the (user, command) that made it."""
        at = table.lobby_version
        changes: list[Change] = list(rows.seat_changes(table, seats))
        now = self.clock()
        if player is not None:
            platform = table.place.platform
            changes.append(PlayerSeen(platform, player.user_id, player.name, player.language, now))
        table.last_human_at = now
        await self.committer.commit(table, changes, events)
        if tap is not None:
            table.tapped(*tap, at)
