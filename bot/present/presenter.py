"""From committed table events to screens, once, for every platform.

After each committed change the presenter decides which screens change, for whom and how
urgently, and queues them in the platform's outbox; the adapters only say where a screen
goes (their ``Surface``) and map screens to widgets. What it decides:

- **The group** has one table message per deal, edited in place at the outbox's steady
  cadence (never a burst), and only when a public event changed it: a secret answer in
  TX.7's doubling window changes no group screen, so watchers cannot tell who answered.
  Every completed trick the group has not been shown yet is drawn on the next table
  screen, so every played card appears in the group even when several tricks pass
  between two writes. When a deal ends, its table message becomes the deal's result
  (its last tricks and the scores, or why it was redealt) before the next deal's table
  is posted below it; the old copy thereby loses its buttons.
- **Private screens**: one hand message per player per table, edited in place from deal
  to deal. After a move only the mover's screen (the card and buttons gone) and the
  screens of the seats to act now change; the others follow the trick in the group
  until it is their turn (their waiting screen does not change as others play).
- **Urgency**: deal result > table > replies (the outbox's priorities).
- **Restarts**: a ``resumed`` event re-renders the group table and the hands of the
  seats to act at once, in the same messages (the outbox remembers their ids).
- **Pages**: a seat with the web table open (``pages_changed``) has its hand there, so its
  private message is not edited per move; it is brought up to date when the page closes.
  While every seated human is on a page the group is the watchers' view: it changes at a
  trick's end, at a deal's result, at a new deal and at every other public change (a trump
  named, a contract chosen), never per card or per bid; the trick line still shows every
  card. Bids wait for the auction's end (the first trick's, or the trump's) and show then;
  cards laid outside tricks (Trix's rows) are written once every four moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.present.mailbox import REPLY, RESULT, TABLE, Mailbox
from bot.present.summary import table_info
from bot.present.surface import Surface
from bot.render import (
    Screen,
    TableInfo,
    deal_sheet,
    hand_screen,
    lobby_screen,
    result_screen,
    table_screen,
)
from bot.render.common import seat_name
from bot.render.i18n import joined, t
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable

Event = dict[str, Any]

# Moves: the event names its mover, whose own screen changes.
MOVES = ("bid", "play", "pass", "trump", "contract")
DEAL_ENDS = ("hand_scored", "deal_cancelled")
SEAT_EVENTS = ("seat_taken_over", "seat_reclaimed")
# Changes every hand's context (new cards, a trump named, a contract chosen, doubles
# revealed): every private screen is redrawn once.
EVERYONE = ("table_started", "deal", "trump", "contract", "doubles_revealed")
# The moves a group whose players are all on pages gathers. Bids wait for the next other
# public change (the auction ends in a trump named or the first trick); cards wait at most
# QUIET_ROUND moves (a trick ends with its fourth card anyway, Trix's rows have no trick).
QUIET = ("bid", "pass", "play")
ROUNDED = ("pass", "play")
QUIET_ROUND = 4
REPLY_SECONDS = 30.0  # a reply not written by then is no longer worth a write


def table_key(table_id: int, deal: int) -> Hashable:
    """The group message of one deal (the lobby is deal 1's message before it starts)."""
    return ("table", table_id, max(deal, 1))


def hand_key(table_id: int) -> Hashable:
    return ("hand", table_id)


@dataclass
class _Group:
    """What the presenter remembers of a table's group screen."""

    deal: int = 1
    tricks: int = 0  # completed tricks counted so far (their sequence numbers)
    # Completed tricks no written group screen has shown yet, with their numbers.
    unseen: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    acting: frozenset[int] = frozenset()  # the seats to act at the last publication
    gathered: int = 0  # quiet moves not written to the group yet (every human on a page)
    laid: int = 0  # the cards (and Trix passes) among them, towards QUIET_ROUND

    def shown(self, upto: int) -> Callable[[Screen], None]:
        def written(_: Screen) -> None:
            self.unseen = [(n, trick) for n, trick in self.unseen if n > upto]

        return written


class Presenter:
    def __init__(
        self, outbox: Mailbox, surface: Surface, clock: Callable[[], float] = time.time
    ) -> None:
        self.outbox = outbox
        self.surface = surface
        self.clock = clock
        # Cards marked so far in a secret doubling answer (TX.7), per (table, seat): the
        # toggles redraw the hand and reach no table until confirmed.
        self.picked: dict[tuple[int, int], tuple[str, ...]] = {}
        self._groups: dict[int, _Group] = {}
        self._notices = 0
        self._paged: dict[int, frozenset[int]] = {}  # seats with a web page open, by table

    # ---------------------------------------------------------------- events

    def present(self, table: LiveTable, events: list[Event]) -> None:
        """Queue every screen the committed ``events`` change (never waits on a chat)."""
        group = self._group(table)
        public = False
        movers: set[int] = set()
        everyone = False
        resumed = False
        for event in events:
            kind = event["type"]
            if "to" not in event:
                public = True
            if kind in MOVES:
                movers.add(event["seat"])
            elif kind == "double_answered":
                movers.add(event["to"])
                self.picked.pop((table.id, event["to"]), None)
            elif kind in SEAT_EVENTS:
                movers.add(event["seat"])
            elif kind == "trick_won":
                group.tricks += 1
                trick: dict[str, Any] = {
                    "leader": event.get("leader"),
                    "winner": event["seat"],
                    "cards": event.get("cards", []),
                }
                group.unseen.append((group.tricks, trick))
            elif kind in DEAL_ENDS:
                self._deal_result(table, group, event)
            elif kind == "rematch_filled":
                self._rematch_filled(table, event["seats"])
            if kind in EVERYONE:
                everyone = True
            elif kind == "resumed":
                resumed = public = True
        if table.match is not None:
            group.deal = max(1, table.match.deal_number)
        if public and not self._gathering(table, group, events):
            self._show_group(table, group, urgent=resumed)
        self._show_hands(table, group, movers, everyone, resumed)
        if not table.live:
            self._forget(table)

    def _gathering(self, table: LiveTable, group: _Group, events: list[Event]) -> bool:
        """True: these public events wait for the group's next write (every seated human
        is on a page, and they are only moves short of a round)."""
        public = [event for event in events if "to" not in event]
        if not self.all_on_pages(table) or any(e["type"] not in QUIET for e in public):
            group.gathered = group.laid = 0
            return False
        group.gathered += len(public)
        group.laid += sum(1 for event in public if event["type"] in ROUNDED)
        if group.laid >= QUIET_ROUND:
            group.gathered = group.laid = 0
            return False
        return True

    def all_on_pages(self, table: LiveTable) -> bool:
        paged = self._paged.get(table.id, frozenset())
        humans = [
            seat
            for seat, occupant in enumerate(table.seats)
            if occupant is not None and occupant.kind == "human"
        ]
        return bool(humans) and all(seat in paged for seat in humans)

    def pages_changed(self, table: LiveTable, seats: frozenset[int]) -> None:
        """The seats of ``table`` with a web page open now. A seat whose page closed gets
        its private hand as it now reads; a group that gathered moves is written."""
        before = self._paged.get(table.id, frozenset())
        if seats:
            self._paged[table.id] = seats
        else:
            self._paged.pop(table.id, None)
        if not table.live or table.match is None:
            return
        group = self._group(table)
        if group.gathered and not self.all_on_pages(table):
            group.gathered = group.laid = 0
            self._show_group(table, group)
        for seat in sorted(before - seats):
            self.show_hand(table, seat)

    def _deal_result(self, table: LiveTable, group: _Group, event: Event) -> None:
        """The deal's table message becomes its result: the tricks the group has not seen
        yet and the scores (or why the cards are redealt, T41.6 / T41D.3)."""
        tricks = [trick for _, trick in group.unseen] or None
        sheet = deal_sheet(self.info(table), event, recent_tricks=tricks)
        group.unseen = []
        if sheet is None:
            return
        deal = int(event.get("deal_number") or group.deal)
        review = self.surface.review(table, deal)  # the deal has ended: its replay may open
        if review is not None:
            sheet = Screen(sheet.text, (*sheet.rows, (review,)))
        self._write_group(table, table_key(table.id, deal), sheet, RESULT, keep=False)

    def _rematch_filled(self, table: LiveTable, seats: list[int]) -> None:
        """The table says who plays for the players who did not confirm a rematch: a line
        of its own, in order with the table's writes (never dropped as a late reply)."""
        language = table.config.language
        names = [seat_name(self.info(table), seat) for seat in seats]
        line = Screen(t(language, "rematch_filled", names=joined(language, names)))
        self.notice(table, line, in_order=True)

    # ---------------------------------------------------------------- the group

    def _show_group(self, table: LiveTable, group: _Group, *, urgent: bool = False) -> None:
        key = table_key(table.id, group.deal)
        if not table.live:
            final = self.final_screen(table)
            if table.match is not None and table.match.result is not None:
                # The last deal's message is its sheet already; the result is news.
                self._write_group(table, ("result", table.id), final, RESULT, keep=False)
            else:
                self._write_group(table, key, final, RESULT, keep=False)
            return
        upto = group.unseen[-1][0] if group.unseen else group.tricks
        self._write_group(
            table,
            key,
            self.group_screen(table),
            RESULT if urgent else TABLE,
            on_sent=group.shown(upto),
        )

    def _write_group(
        self,
        table: LiveTable,
        key: Hashable,
        screen: Screen,
        priority: int,
        *,
        keep: bool = True,
        on_sent: Callable[[Screen], None] | None = None,
    ) -> None:
        place = table.place
        self.outbox.show(
            place.chat,
            key,
            screen,
            group=True,
            thread=place.thread,
            keep=keep,
            priority=priority,
            on_sent=on_sent,
        )

    def group_screen(self, table: LiveTable) -> Screen:
        """The table message as it should read now."""
        info = self.info(table)
        match = table.match
        if table.status == "lobby":
            return self.surface.decorate(table, lobby_screen(info))
        if table.status == "running" and match is not None:
            group = self._group(table)
            tricks = [trick for _, trick in group.unseen] or None
            screen = table_screen(
                info,
                match.view(None),
                timer=self.surface.timer,
                recent_tricks=tricks,
            )
            return self.surface.decorate(table, screen)
        return self.final_screen(table)

    def final_screen(self, table: LiveTable) -> Screen:
        match = table.match
        return result_screen(self.info(table), match.view(None) if match is not None else {})

    def notice(self, table: LiveTable, screen: Screen, *, in_order: bool = False) -> None:
        """A short line for the group (a reply, a reminder): after the table's own writes,
        and dropped if it could not be written while it still mattered; ``in_order``: news
        of the table itself, written in order with its screens and never dropped."""
        self._notices += 1
        place = table.place
        self.outbox.post(
            place.chat,
            ("notice", table.id, self._notices),
            screen,
            group=True,
            thread=place.thread,
            keep=False,
            priority=TABLE if in_order else REPLY,
            expires=None if in_order else REPLY_SECONDS,
        )

    # ---------------------------------------------------------------- private screens

    def _show_hands(
        self,
        table: LiveTable,
        group: _Group,
        movers: set[int],
        everyone: bool,
        resumed: bool = False,
    ) -> None:
        match = table.match
        if match is None:
            return
        if not table.live:
            for seat in range(4):
                self._final_hand(table, seat)
            return
        # Newly to act: their decision screen; no longer to act without moving: their
        # waiting screen. A seat still to act keeps its screen (in TX.7's window a
        # redraw at someone else's answer would tell that an answer came in).
        acting = frozenset(match.to_act)
        seats = set(range(4)) if everyone else movers | (acting ^ group.acting)
        if resumed:
            # After a restart or a takeover every seat to act is shown its turn, also one
            # noted as acting by moves replayed before its private chat was known.
            seats |= acting
        group.acting = acting
        for seat in sorted(seats - self._paged.get(table.id, frozenset())):
            self.show_hand(table, seat)

    def show_hand(self, table: LiveTable, seat: int, *, new: bool = False) -> bool:
        """Queue the seat's private screen as it is now; ``new``: as a new message, the old
        copy losing its buttons (a player asking for their hand again). False when the
        seat has no private chat to push to."""
        chat = self.surface.private_chat(table, seat)
        if chat is None or table.match is None or table.status != "running":
            return False
        screen = self.hand(table, seat)
        key = hand_key(table.id)
        if new and self.outbox.message_id(chat, key) is not None:
            retired = Screen(t(table.config.language, "hand_moved"))
            self.outbox.post(chat, key, screen, group=False, retire=retired)
        else:
            self.outbox.show(chat, key, screen, group=False)
        return True

    def hand(self, table: LiveTable, seat: int) -> Screen:
        """The seat's private screen: its decision screen on its turn, else its hand."""
        match = table.match
        assert match is not None
        picked = self.picked.get((table.id, seat))
        screen = hand_screen(self.info(table), match.view(seat), picked)
        return self.surface.decorate(table, screen, seat)

    def pending_hand(self, table: LiveTable, seat: int, action: dict[str, Any]) -> Screen:
        """The seat's screen while its move is being made: the card gone, no buttons —
        what the move will leave (a platform that answers a press in place shows it at
        once, so the card never lingers on it)."""
        match = table.match
        assert match is not None
        view = dict(match.view(seat))
        if action.get("type") == "play":
            view["hand"] = [code for code in view["hand"] or [] if code != action.get("card")]
        view["legal_actions"] = []
        view["turn"] = [s for s in view["turn"] if s != seat]
        return hand_screen(self.info(table), view, None)

    def pick(self, table: LiveTable, user: str, cards: Sequence[str]) -> int:
        """A toggle of ``user``'s secret doubling answer (TX.7), for every frontend: the
        cards marked so far, returned as the seat whose screen alone changes (it reaches no
        table until confirmed). Refused as a move would be: not seated, not in the seat's
        doubling window, or a card the seat may not double (then nothing is marked)."""
        seat = table.seat_of(user)
        if seat is None:
            raise Refusal("not_seated")
        match = table.match
        if table.status != "running" or match is None or match.phase != "doubling":
            raise Refusal("stale")
        if seat not in match.to_act:
            raise Refusal("not_your_turn")
        doublable = {card for action in match.legal_actions(seat) for card in action["cards"]}
        if not set(cards) <= doublable:
            raise Refusal("illegal")
        self.picked[(table.id, seat)] = tuple(dict.fromkeys(cards))
        return seat

    def _final_hand(self, table: LiveTable, seat: int) -> None:
        """The match is over: the last hand message shows the result, with no button."""
        chat = self.surface.private_chat(table, seat)
        if chat is not None and self.outbox.message_id(chat, hand_key(table.id)) is not None:
            # The result without its buttons: the rematch is asked for in the group.
            final = Screen(self.final_screen(table).text)
            self.outbox.show(chat, hand_key(table.id), final, group=False, keep=False)

    def refresh(self, table: LiveTable) -> None:
        """Every screen of the table as it is now (a player's private chat just opened)."""
        group = self._group(table)
        self._show_group(table, group)
        for seat in sorted(set(range(4)) - self._paged.get(table.id, frozenset())):
            self.show_hand(table, seat)

    # ---------------------------------------------------------------- facts

    def info(self, table: LiveTable) -> TableInfo:
        pending = frozenset(
            seat
            for seat, occupant in enumerate(table.seats)
            if occupant is not None
            and occupant.kind == "human"
            and occupant.owner is not None
            and self.surface.dm_pending(table, seat)
        )
        return table_info(table, dm_pending=pending)

    def _group(self, table: LiveTable) -> _Group:
        group = self._groups.get(table.id)
        if group is None:
            group = self._groups[table.id] = _Group()
            if table.match is not None:
                group.deal = max(1, table.match.deal_number)
        return group

    def _forget(self, table: LiveTable) -> None:
        self._groups.pop(table.id, None)
        self._paged.pop(table.id, None)
        for key in [key for key in self.picked if key[0] == table.id]:
            del self.picked[key]

    def tracked(self) -> int:
        """Tables the presenter holds state for (the soak benchmark checks it drains)."""
        return len(self._groups) + len(self.picked) + len(self._paged)
