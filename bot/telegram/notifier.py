"""Telegram's side of the presenter: where a table's screens go, and Telegram's widgets.

What changes after each event is the presenter's decision (``bot/present``); this says
where: the group (or forum topic) the table lives in, and each human's private chat once
they have opened it (the deep link does that). Telegram has no client-side countdown, so
no deadline number is shown (a number that never moves would lie).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from telegram.helpers import create_deep_linked_url

from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.present import Presenter
from bot.render import Button, Screen, TimerStyle, no_timer
from bot.render.i18n import t
from bot.tables.live import LiveTable
from bot.telegram.texts import text
from bot.telegram.webapp import MiniApp


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
        self.timer: TimerStyle = no_timer
        self.presenter = Presenter(outbox, self, clock)
        self.mini_app: MiniApp | None = None  # the web table, when it is served
        # The tables of players in play, so a private chat that turns out to be closed can
        # be told to the right group; both end with their table.
        self._tables: dict[int, LiveTable] = {}
        self._where: dict[str, int] = {}

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        if table.live:
            self._tables[table.id] = table
            for occupant in table.seats:
                if occupant is not None and occupant.owner is not None:
                    self._where[occupant.owner] = table.id
        self.presenter.present(table, events)
        if not table.live:
            self._forget(table)

    def pages_changed(self, table: LiveTable, seats: frozenset[int]) -> None:
        self.presenter.pages_changed(table, seats)

    # ---------------------------------------------------------------- the surface

    def private_chat(self, table: LiveTable, seat: int) -> str | None:
        occupant = table.seats[seat]
        if occupant is None or occupant.kind != "human" or occupant.owner is None:
            return None
        return occupant.owner if self.contacts.dm_ok(occupant.owner) else None

    def dm_pending(self, table: LiveTable, seat: int) -> bool:
        occupant = table.seats[seat]
        return (
            occupant is not None
            and occupant.owner is not None
            and not self.contacts.dm_ok(occupant.owner)
        )

    def decorate(self, table: LiveTable, screen: Screen, seat: int | None = None) -> Screen:
        """The web table's button (when it is served): a Mini App link on the group's
        lobby and table, a ``web_app`` button on a private hand. The lobby also carries
        the deep link while someone still has to open a private chat."""
        rows = list(screen.rows)
        web = self._web_button(table, seat) if self.mini_app is not None else None
        if web is not None and table.live:
            rows.append((web,))
        if (
            seat is None
            and table.status == "lobby"
            and any(
                self.dm_pending(table, other)
                for other in range(4)
                if table.seats[other] is not None
            )
        ):
            rows.append((self._link(table),))
        return Screen(screen.text, tuple(rows)) if len(rows) != len(screen.rows) else screen

    def _web_button(self, table: LiveTable, seat: int | None) -> Button | None:
        assert self.mini_app is not None
        label = t(table.config.language, "web_open")
        if seat is None:
            url = self.mini_app.group_link(self.username(), table.id)
            return Button(label, {"type": "web"}, table.id, table.seq, url=url)
        page = self.mini_app.private_url(table.id)
        if page is None:
            return None
        return Button(label, {"type": "web"}, table.id, table.seq, url=page, web_app=True)

    def review(self, table: LiveTable, deal: int) -> Button | None:
        """Review on a deal's result: the Mini App's direct link to the deal's replay."""
        if self.mini_app is None:
            return None
        label = t(table.config.language, "btn_review")
        url = self.mini_app.review_link(self.username(), table.id, deal)
        return Button(label, {"type": "review", "deal": deal}, table.id, table.seq, url=url)

    def _link(self, table: LiveTable) -> Button:
        return Button(
            text(table.config.language, "open_dm"),
            {"type": "link"},
            table.id,
            table.seq,
            url=deep_link(self.username(), table.id),
        )

    # ---------------------------------------------------------------- for the handlers

    def send_hand(self, table: LiveTable, seat: int, *, new: bool = False) -> bool:
        return self.presenter.show_hand(table, seat, new=new)

    def pick(self, table: LiveTable, user: str, cards: list[str]) -> None:
        self.presenter.show_hand(table, self.presenter.pick(table, user, cards))

    def refresh(self, table: LiveTable) -> None:
        self.presenter.refresh(table)

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
        self.dm_link_notice(table, occupant.name if occupant is not None else chat)
        self.presenter.refresh(table)

    def dm_link_notice(self, table: LiveTable, name: str) -> None:
        screen = Screen(
            text(table.config.language, "dm_needed", name=name), ((self._link(table),),)
        )
        self.presenter.notice(table, screen)

    def _forget(self, table: LiveTable) -> None:
        self._tables.pop(table.id, None)
        for user, table_id in list(self._where.items()):
            if table_id == table.id:
                del self._where[user]
