"""Discord's side of the presenter: where a table's screens go, and Discord's timer.

What changes after each event is the presenter's decision (``bot/present``). Here: the
public table message lives in the table's channel; a player who chose DMs at that table
gets their hand pushed to their DM, everyone else sees it as an ephemeral reply to
"My hand" (ephemeral messages can only be edited through the interaction that made
them, so the presenter does not push those). The deadline is a Discord timestamp the
client counts down itself (``<t:UNIX:R>``), so no number freezes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bot.delivery import Outbox
from bot.present import Presenter
from bot.render import Button, Screen, TimerStyle
from bot.render.i18n import t
from bot.tables.live import LiveTable


def relative_time(language: str, deadline: float) -> str:
    """Discord renders ``<t:…:R>`` as "in 42 seconds" in the reader's own language."""
    return f"<t:{int(deadline)}:R>"


class DiscordNotifier:
    def __init__(self, outbox: Outbox, clock: Callable[[], float] = time.time) -> None:
        self.outbox = outbox
        self.timer: TimerStyle = relative_time
        self.presenter = Presenter(outbox, self, clock)
        self.web = False  # the web table is served: its button goes on the table message
        # (table, player) of those who asked for their hand by DM at that table: it ends
        # with the table, so the set is bounded by the live tables' seats.
        self.dm_users: set[tuple[int, str]] = set()

    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        self.presenter.present(table, events)
        if not table.live:
            self.dm_users -= {entry for entry in self.dm_users if entry[0] == table.id}

    def pages_changed(self, table: LiveTable, seats: frozenset[int]) -> None:
        self.presenter.pages_changed(table, seats)

    # ---------------------------------------------------------------- the surface

    def private_chat(self, table: LiveTable, seat: int) -> str | None:
        occupant = table.seats[seat]
        if occupant is None or not self.wants_dm(table.id, occupant.owner):
            return None
        return f"dm:{occupant.owner}"

    def dm_pending(self, table: LiveTable, seat: int) -> bool:
        return False  # ephemeral hands need no private chat opened first

    def decorate(self, table: LiveTable, screen: Screen, seat: int | None = None) -> Screen:
        """The table message gets Open the table while the web table is served: a press
        opens it inside Discord as an Activity, or answers with a personal link only the
        presser sees (``activity.py``)."""
        if not self.web or seat is not None or not table.live:
            return screen
        label = t(table.config.language, "web_open")
        button = Button(label, {"type": "web"}, table.id, table.seq, style="primary")
        return Screen(screen.text, (*screen.rows, (button,)))

    def review(self, table: LiveTable, deal: int) -> Button | None:
        """Review on a deal's result: pressed, it opens the table as Open the table does
        (the Activity, or a personal link that opens the deal's replay)."""
        if not self.web:
            return None
        label = t(table.config.language, "btn_review")
        return Button(label, {"type": "review", "deal": deal}, table.id, table.seq)

    # ---------------------------------------------------------------- for the frontend

    def want_dm(self, table_id: int, user: str) -> None:
        self.dm_users.add((table_id, user))

    def wants_dm(self, table_id: int, user: str | None) -> bool:
        return user is not None and (table_id, user) in self.dm_users

    def hand(self, table: LiveTable, seat: int) -> Screen:
        return self.presenter.hand(table, seat)

    def pick(self, table: LiveTable, user: str, cards: list[str]) -> Screen:
        """A toggle of the doubling answer; the seat's hand as it now reads."""
        return self.presenter.hand(table, self.presenter.pick(table, user, cards))

    def send_dm_hand(self, table: LiveTable, seat: int, *, new: bool = False) -> None:
        self.presenter.show_hand(table, seat, new=new)

    def dm_closed(self, user: str) -> None:
        """Closed DMs (50007): back to ephemeral hands for that player, at every table."""
        self.dm_users -= {entry for entry in self.dm_users if entry[1] == user}
