"""From committed table events to Discord messages, through the outbox: one public table
message per table (edited in place; a new one when a deal starts, after the score sheet),
and — for players who chose DMs at that table — one DM hand per deal, edited in place.
Everyone else gets their hand as an ephemeral reply to "My hand"."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bot.delivery import Outbox
from bot.render import (
    Screen,
    deal_sheet,
    hand_screen,
    lobby_screen,
    result_screen,
    table_info,
    table_screen,
)
from bot.tables.live import LiveTable


class DiscordNotifier:
    def __init__(self, outbox: Outbox, clock: Callable[[], float] = time.time) -> None:
        self.outbox = outbox
        self.clock = clock
        # (table, player) of those who asked for their hand by DM at that table: it ends
        # with the table, so the set is bounded by the live tables' seats.
        self.dm_users: set[tuple[int, str]] = set()
        self.picked: dict[tuple[int, str], tuple[str, ...]] = {}

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        chat = table.place.chat
        new_deal = False
        for event in events:
            kind = event["type"]
            sheet = deal_sheet(table_info(table), event) if table.match is not None else None
            if sheet is not None:  # a deal ended: its scores, or why it is redealt
                key = ("sheet", table.id, event["deal_number"])
                self.outbox.post(chat, key, sheet, group=True, keep=False)
            elif kind in ("table_started", "deal") and table.status == "running":
                new_deal = True
            elif kind == "double_answered":
                occupant = table.seats[event["to"]]
                if occupant is not None and occupant.owner:
                    self.picked.pop((table.id, occupant.owner), None)
        screen = self.table_message(table)
        live = table.live  # a table's last write: the outbox need not remember it after
        if new_deal:
            self.outbox.post(chat, ("table", table.id), screen, group=True, keep=live)
        else:
            self.outbox.show(chat, ("table", table.id), screen, group=True, keep=live)
        for seat, occupant in enumerate(table.seats):
            if occupant is not None and self.wants_dm(table.id, occupant.owner):
                self.send_dm_hand(table, seat, new=new_deal)
        if not live:
            for picked in [p for p in self.picked if p[0] == table.id]:
                del self.picked[picked]
            self.dm_users -= {entry for entry in self.dm_users if entry[0] == table.id}

    def want_dm(self, table_id: int, user: str) -> None:
        self.dm_users.add((table_id, user))

    def wants_dm(self, table_id: int, user: str | None) -> bool:
        return user is not None and (table_id, user) in self.dm_users

    def table_message(self, table: LiveTable) -> Screen:
        info = table_info(table)
        match = table.match
        if table.status == "lobby":
            return lobby_screen(info)
        if table.status == "running" and match is not None:
            return table_screen(info, match.view(None), self.clock())
        return result_screen(info, match.view(None) if match is not None else {})

    def hand(self, table: LiveTable, seat: int) -> Screen:
        occupant = table.seats[seat]
        assert table.match is not None and occupant is not None
        picked = self.picked.get((table.id, occupant.owner or ""))
        return hand_screen(table_info(table), table.match.view(seat), picked)

    def send_dm_hand(self, table: LiveTable, seat: int, *, new: bool = False) -> None:
        occupant = table.seats[seat]
        if occupant is None or not occupant.owner or table.match is None:
            return
        chat, key = f"dm:{occupant.owner}", ("hand", table.id)
        if not table.live:  # the last DM hand becomes the result, and is then forgotten
            if self.outbox.message_id(chat, key) is not None:
                screen = self.table_message(table)
                self.outbox.show(chat, key, screen, group=False, keep=False)
            return
        if new or self.outbox.message_id(chat, key) is None:
            self.outbox.post(chat, key, self.hand(table, seat), group=False)
        else:
            self.outbox.show(chat, key, self.hand(table, seat), group=False)

    def dm_closed(self, user: str) -> None:
        """Closed DMs (50007): back to ephemeral hands for that player, at every table."""
        self.dm_users -= {entry for entry in self.dm_users if entry[1] == user}
