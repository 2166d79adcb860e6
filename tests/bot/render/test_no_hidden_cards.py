"""No screen names a card it may not: a scan over hundreds of simulated matches.

After EVERY action of every match, each public screen — the table from ``view(None)``,
the score sheet of every history entry and of every ``hand_scored`` event, the result —
must not show a card that is still in some hand, and a
player's private screen must not show a card held by another seat. "Shows" means the
card's label (``Q♥``, ``10♠``) or its code (``QH``) appears once direction marks are
stripped; a rank alone (the Trix rows, the hand's suit lines) is not a card label.

Public by the rules, and so allowed: the T41 dealer's shown card (T41.4) and the doubled
cards revealed in Trix Complex (TX.7). The rule text of the doubling notice ("holders of
K♥ or a queen") names no one's card and is removed before scanning.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import engine
from bot.render import (
    SeatInfo,
    hand_screen,
    lobby_screen,
    result_screen,
    score_sheet,
    table_screen,
)
from bot.render.i18n import SUIT_SYMBOLS, t
from bot.render.model import Screen, TableInfo
from engine.players import new_player
from tests.bot.render.support import VARIANTS, plain, table

MATCHES = 40  # per variant (the suite's time is shared: ≤ 3 minutes on two cores)
FULL_EVERY = 20  # matches 0 and 20 of each variant are played to the end
CAPPED_DEALS = 1  # the other matches stop once their first deal is over
SEATS = (
    SeatInfo("Ali"),
    SeatInfo("Badr", computer=True),
    SeatInfo("ليلى", away=True),
    SeatInfo("Dina"),
)
HEURISTIC = new_player("heuristic")

SUIT_LETTER = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
LABEL = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
CODE = re.compile(r"(?=([2-9TJQKA][CDHS]))")


def cards_in(text: str) -> set[str]:
    """Every card named in ``text``, by label or by code."""
    text = plain(text)
    found = {("T" if rank == "10" else rank) + SUIT_LETTER[s] for rank, s in LABEL.findall(text)}
    found.update(CODE.findall(text))
    return found


def test_the_scan_sees_labels_and_codes_but_not_ranks() -> None:
    assert cards_in("\u2068Ali\u2069 \u200e10♥\u200e · QS") == {"TH", "QS"}
    assert cards_in("♠ \u200e· · 8 9 10 J Q K A\u200e\n♥ 2 3") == set()
    assert cards_in("♥ 2 4 5 6 10\n♠ 6 7") == set()


def screen_words(screen: Screen) -> str:
    return "\n".join([screen.text, *(b.label for b in screen.buttons())])


class Scan:
    """The checks of one match, seen from one table (its language and seats)."""

    def __init__(self, match: engine.Match, info: TableInfo) -> None:
        self.match = match
        self.info = info
        self.rule_text = t(info.language, "doubling_open")
        self.history_seen = 0
        self.checked = 0

    def hidden(self, public: dict[str, Any]) -> list[set[str]]:
        """Per seat, the cards of the OTHER seats that are not public; index 4: every
        card in a hand that is not public (what no public screen may show)."""
        allowed = {d["card"] for d in public["doubled"]}
        if public.get("shown_card"):
            allowed.add(public["shown_card"])
        hands = [set(self.match.hand(seat)) - allowed for seat in range(4)]
        every = set().union(*hands)
        return [every - hands[seat] for seat in range(4)] + [every]

    def check(self, text: str, hidden: set[str], where: str) -> None:
        self.checked += 1
        leaked = cards_in(text.replace(self.rule_text, "")) & hidden
        assert not leaked, f"{where} shows {sorted(leaked)}:\n{text}"

    def after(
        self,
        events: list[dict[str, Any]],
        private_seats: list[int],
    ) -> None:
        """Check every screen after an action."""
        match, info = self.match, self.info
        public = match.view(None)
        hidden = self.hidden(public)
        self.check(screen_words(table_screen(info, public)), hidden[4], "table")
        if public["deal_tricks"]:  # the group's catch-up: several completed tricks
            recent = table_screen(info, public, recent_tricks=public["deal_tricks"][-3:])
            self.check(screen_words(recent), hidden[4], "table with recent tricks")
        for event in events:
            if event["type"] == "hand_scored":
                sheet = score_sheet(info, event, event.get("team_scores"))
                self.check(sheet.text, hidden[4], "score sheet of hand_scored")
                stopped = result_screen(
                    table(info.variant, info.language, status="stopped"), public
                )
                self.check(stopped.text, hidden[4], "stopped result")
        history = public["history"]
        for entry in history[self.history_seen :]:
            sheet = score_sheet(info, entry, public["team_scores"])
            self.check(sheet.text, hidden[4], "score sheet of a history entry")
        self.history_seen = len(history)
        if public["result"] is not None:
            self.check(result_screen(info, public).text, hidden[4], "result")
            for entry in history:  # the final hands (Trix: the fourth keeps its cards)
                self.check(score_sheet(info, entry, None).text, hidden[4], "final sheets")
        for seat in private_seats:
            self.private(seat, match.view(seat), hidden[seat])

    def private(self, seat: int, view: dict[str, Any], hidden: set[str]) -> None:
        info = self.info
        self.check(screen_words(hand_screen(info, view)), hidden, f"hand of seat {seat}")
        if view["phase"] == "doubling" and view["legal_actions"]:
            every = max((a["cards"] for a in view["legal_actions"]), key=len)
            picked = hand_screen(info, view, tuple(every))
            self.check(screen_words(picked), hidden, f"doubling answer of seat {seat}")


def players_for(variant: str, index: int) -> list[Any]:
    """A mix of heuristic and random players; whole matches are all heuristic (random
    Tarneeb bidding rarely reaches 41)."""
    if index % FULL_EVERY == 0:
        return [HEURISTIC] * 4
    return [
        HEURISTIC if (index >> seat) & 1 else new_player("random", index * 4 + seat)
        for seat in range(4)
    ]


def simulate(variant: str, index: int) -> int:
    match = engine.new_match(variant, seed=1000 + index)
    language = "ar" if index % 2 else "en"
    info = table(variant, language, seats=SEATS)
    lobby = lobby_screen(table(variant, language, seats=SEATS, status="lobby"))
    assert not cards_in(screen_words(lobby))
    scan = Scan(match, info)
    players = players_for(variant, index)
    cap = None if index % FULL_EVERY == 0 else CAPPED_DEALS
    scan.after([], [0, 1, 2, 3])
    actions = 0
    while match.result is None and (cap is None or match.deal_number <= cap):
        seat = match.to_act[0]
        view = match.view(seat)
        before = scan.hidden(match.view(None))
        scan.private(seat, view, before[seat])  # the screen the player decides from
        events = match.apply(seat, players[seat].decide(view))
        actions += 1
        scan.after(events, [actions % 4])
    if cap is None:
        assert match.result is not None
    return scan.checked


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_public_or_foreign_card_on_any_screen(variant: str) -> None:
    checked = sum(simulate(variant, index) for index in range(MATCHES))
    assert checked > 5_000


def test_the_scan_catches_a_planted_card() -> None:
    """A card of a hand slipped into the public view is reported (the scan is not blind)."""
    match = engine.new_match("syrian41", seed=5)
    while match.phase == "bidding":
        match.apply(match.to_act[0], HEURISTIC.decide(match.view(match.to_act[0])))
    scan = Scan(match, table("syrian41", "ar", seats=SEATS))
    public = match.view(None)
    planted = next(c for c in match.hand(1) if c != public["shown_card"])
    public["trick"] = [{"seat": 1, "card": planted}]
    with pytest.raises(AssertionError, match=planted):
        text = screen_words(table_screen(scan.info, public))
        scan.check(text, scan.hidden(public)[4], "planted")
    seat = match.to_act[0]
    own = match.view(seat)
    with pytest.raises(AssertionError):  # as if the card buttons were someone else's cards
        scan.private(seat, own, set(own["hand"]))
