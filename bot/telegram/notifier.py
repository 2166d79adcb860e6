"""From committed table events to Telegram messages, all through the outbox.

The group gets one table message per table, edited in place; a new one only when a deal
starts (after the last deal's score sheet, which is a message of its own). Every human
seat whose private chat is open gets one hand message per deal, edited in place. Screens
are rendered here, at publish time, from views only: the group's from ``view(None)``, each
hand from that seat's own view.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from telegram.helpers import create_deep_linked_url

from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.render import (
    Button,
    Screen,
    TableInfo,
    deal_sheet,
    hand_screen,
    lobby_screen,
    result_screen,
    table_info,
    table_screen,
)
from bot.tables.live import LiveTable
from bot.telegram.texts import text

log = logging.getLogger("sahra.telegram")

NEW_MESSAGE_EVENTS = ("table_started", "deal")


def deep_link(username: str, table_id: int) -> str:
    """t.me/<bot>?start=t<table>: one tap opens the private chat bound to the table."""
    return create_deep_linked_url(username, f"t{table_id}")


class TelegramNotifier:
    def __init__(
        self,
        outbox: Outbox,
        contacts: Contacts,
        username: Callable[[], str],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.outbox = outbox
        self.contacts = contacts
        self.username = username
        self.clock = clock
        # Cards marked so far in a secret doubling answer (TX.7), per (table, user): the
        # toggles redraw the hand and reach no table until confirmed.
        self.picked: dict[tuple[int, str], tuple[str, ...]] = {}
        self._tables: dict[int, LiveTable] = {}
        self._where: dict[str, int] = {}  # user -> the table whose hand they were last sent

    # ---------------------------------------------------------------- publishing

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        self._tables[table.id] = table
        chat, thread = table.place.chat, table.place.thread
        new_deal = False
        for event in events:
            kind = event["type"]
            sheet = deal_sheet(self.info(table), event) if table.match is not None else None
            if sheet is not None:  # a deal ended: its scores, or why it is redealt
                key = ("sheet", table.id, event["deal_number"])
                self.outbox.post(chat, key, sheet, group=True, thread=thread, keep=False)
            elif kind in NEW_MESSAGE_EVENTS and table.status == "running":
                new_deal = True
            elif kind == "double_answered":
                self.picked.pop((table.id, self._owner(table, event["to"])), None)
        self.refresh(table, new_deal=new_deal)

    def refresh(self, table: LiveTable, *, new_deal: bool = False) -> None:
        """Queue the table message and every open hand as they are now."""
        chat, thread = table.place.chat, table.place.thread
        screen = self.table_message(table)
        key = ("table", table.id)
        live = table.live  # a table's last write: the outbox need not remember it after
        if new_deal:
            self.outbox.post(chat, key, screen, group=True, thread=thread, keep=live)
        else:
            self.outbox.show(chat, key, screen, group=True, thread=thread, keep=live)
        for seat, occupant in enumerate(table.seats):
            if occupant is None or occupant.kind != "human" or occupant.owner is None:
                continue
            if table.status == "running" and self.contacts.dm_ok(occupant.owner):
                self.send_hand(table, seat, new=new_deal)
            elif not table.live and self.outbox.message_id(occupant.owner, ("hand", table.id)):
                # The match is over: the last hand message becomes the result, so no
                # button of it is left to press.
                hand = ("hand", table.id)
                self.outbox.show(occupant.owner, hand, screen, group=False, keep=False)
        if not table.live:
            self._forget(table)

    def table_message(self, table: LiveTable) -> Screen:
        info = self.info(table)
        if table.status == "lobby":
            return self._with_dm_link(table, lobby_screen(info))
        match = table.match
        if table.status == "running" and match is not None:
            return table_screen(info, match.view(None), self.clock())
        return result_screen(info, match.view(None) if match is not None else {})

    def send_hand(self, table: LiveTable, seat: int, *, new: bool = False) -> None:
        occupant = table.seats[seat]
        match = table.match
        if occupant is None or occupant.owner is None or match is None:
            return
        user = occupant.owner
        picked = self.picked.get((table.id, user))
        screen = hand_screen(self.info(table), match.view(seat), picked)
        previous = self._where.get(user)
        self._where[user] = table.id
        key = ("hand", table.id)
        if new or previous != table.id or self.outbox.message_id(user, key) is None:
            self.outbox.post(user, key, screen, group=False)
        else:
            self.outbox.show(user, key, screen, group=False)

    def info(self, table: LiveTable) -> TableInfo:
        pending = frozenset(
            seat
            for seat, occupant in enumerate(table.seats)
            if occupant is not None
            and occupant.kind == "human"
            and occupant.owner is not None
            and not self.contacts.dm_ok(occupant.owner)
        )
        return table_info(table, dm_pending=pending)

    def _with_dm_link(self, table: LiveTable, screen: Screen) -> Screen:
        """The lobby carries the deep link for whoever still has to open a private chat."""
        if not any(seat is not None and seat.dm_pending for seat in self.info(table).seats):
            return screen
        link = Button(
            text(table.config.language, "open_dm"),
            {"type": "link"},
            table.id,
            table.seq,
            url=deep_link(self.username(), table.id),
        )
        return Screen(screen.text, (*screen.rows, (link,)))

    # ---------------------------------------------------------------- private chats

    async def unreachable(self, chat: str) -> None:
        """A player's private chat refused a message (403): remember it, and post the deep
        link in the group — until they open it their seat plays by the timer rules."""
        table_id = self._where.get(chat)
        table = self._tables.get(table_id) if table_id is not None else None
        await self.contacts.set_dm_ok(chat, False)
        if table is None or not table.live:
            return
        seat = table.seat_of(chat)
        occupant = table.seats[seat] if seat is not None else None
        name = occupant.name if occupant is not None else chat
        self.dm_link_notice(table, name)
        self.refresh(table)

    def dm_link_notice(self, table: LiveTable, name: str) -> None:
        language = table.config.language
        link = Button(
            text(language, "open_dm"),
            {"type": "link"},
            table.id,
            table.seq,
            url=deep_link(self.username(), table.id),
        )
        screen = Screen(text(language, "dm_needed", name=name), ((link,),))
        key = ("dm_link", table.id, name)
        self.outbox.post(
            table.place.chat, key, screen, group=True, thread=table.place.thread, keep=False
        )

    def _owner(self, table: LiveTable, seat: int) -> str:
        occupant = table.seats[seat]
        return occupant.owner if occupant is not None and occupant.owner else ""

    def _forget(self, table: LiveTable) -> None:
        self._tables.pop(table.id, None)
        for user, table_id in list(self._where.items()):
            if table_id == table.id:
                del self._where[user]
        for key in [key for key in self.picked if key[0] == table.id]:
            del self.picked[key]
