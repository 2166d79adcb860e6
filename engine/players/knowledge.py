"""What one seat knows, read from its view (``Match.view(seat)``) and nothing else.

Computer players never touch a ``Match``: everything they decide from is built here out
of the view, so a player cannot peek at a hidden card even by accident. The view's cards
become ints and masks (``engine.cards``) once, and the deductions every player needs are
made once too: which cards are still out, which suits a seat has shown it lacks, and which
hidden cards are nevertheless known to sit in a given hand (the T41 shown card, TX.7
revealed doubles).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import CARD_BY_CODE, FULL_MASK, SUIT_MASKS
from engine.trix import layout_mask

SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}


def mask_of_codes(codes: Any) -> int:
    mask = 0
    for code in codes or ():
        mask |= 1 << CARD_BY_CODE[code]
    return mask


@dataclass
class Knowledge:
    """One seat's picture of a deal in progress."""

    variant: str
    seat: int
    phase: str
    hand: int  # own cards (mask)
    trump: int  # suit index, -1 for none
    played: int  # every card seen played this deal (mask)
    trick: list[tuple[int, int]]  # the current trick: (seat, card) in play order
    hand_sizes: list[int]
    tricks_won: list[int]
    scores: list[int]
    dealer: int | None
    bids: list[Any]
    voids: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # suit bit sets
    known: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards known held
    lacks: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards known not held
    declarer: int | None = None
    contract_bid: int | None = None
    contract: str | None = None
    owner: int | None = None
    doubled: dict[int, int] = field(default_factory=dict)  # card -> doubler (TX.7)
    rows: list[list[int] | None] = field(default_factory=lambda: [None, None, None, None])
    finished: list[int] = field(default_factory=list)
    plays_by: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # this deal, per seat
    view: dict[str, Any] = field(default_factory=dict)

    @property
    def bid_values(self) -> list[int]:
        """Each seat's bid as an int, 0 for a seat with none (yet)."""
        return [bid if isinstance(bid, int) else 0 for bid in self.bids]

    @property
    def out(self) -> int:
        """Cards in the other three hands: neither mine nor played."""
        return FULL_MASK & ~self.hand & ~self.played

    def forbidden(self, seat: int) -> int:
        """Cards that cannot be in ``seat``'s hand as far as this seat can tell."""
        mask = self.lacks[seat]
        for suit in range(4):
            if self.voids[seat] >> suit & 1:
                mask |= SUIT_MASKS[suit]
        for other in range(4):
            if other != seat:
                mask |= self.known[other]
        return mask


def legal_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The view's legal actions; a player asked to decide with none is a caller's bug."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    if not legal:
        raise ValueError("this seat has nothing to do now")
    return legal


def read_view(view: dict[str, Any]) -> Knowledge:
    """Build a seat's ``Knowledge`` from its own view."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("a computer player decides for a seat, not for a spectator")
    trump = view.get("trump")
    know = Knowledge(
        variant=view["variant"],
        seat=seat,
        phase=view["phase"],
        hand=mask_of_codes(view.get("hand")),
        trump=SUIT_INDEX[trump] if trump else -1,
        played=0,
        trick=[(entry["seat"], CARD_BY_CODE[entry["card"]]) for entry in view.get("trick") or ()],
        hand_sizes=list(view["hand_sizes"]),
        tricks_won=list(view.get("tricks_won") or [0, 0, 0, 0]),
        scores=list(view["scores"]),
        dealer=view.get("dealer"),
        bids=list(view.get("bids") or [None] * 4),
        declarer=view.get("declarer"),
        contract_bid=view.get("contract_bid"),
        contract=view.get("contract"),
        owner=view.get("owner"),
        finished=list(view.get("finished_order") or ()),
        view=view,
    )
    played = 0
    for entry in view.get("deal_tricks") or ():
        leader = entry["leader"]
        cards = [CARD_BY_CODE[code] for code in entry["cards"]]
        _note_voids(know, [((leader + i) & 3, card) for i, card in enumerate(cards)])
        for i, card in enumerate(cards):
            played |= 1 << card
            know.plays_by[(leader + i) & 3] |= 1 << card
    _note_voids(know, know.trick)
    for who, card in know.trick:
        played |= 1 << card
        know.plays_by[who] |= 1 << card
    rows = view.get("rows")
    if rows:
        for letter, row in rows.items():
            if row is not None:
                suit = SUIT_INDEX[letter]
                low, high = CARD_BY_CODE[row["low"]] % 13, CARD_BY_CODE[row["high"]] % 13
                know.rows[suit] = [low, high]
                played |= sum(1 << (suit * 13 + rank) for rank in range(low, high + 1))
        # A seat that passed held no card that could be laid then (TX.9); cards only leave
        # hands, so it still holds none of them.
        for entry in view.get("passes") or ():
            snapshot: list[list[int] | None] = [None, None, None, None]
            for letter, row in (entry.get("rows") or {}).items():
                if row is not None:
                    snapshot[SUIT_INDEX[letter]] = [
                        CARD_BY_CODE[row["low"]] % 13,
                        CARD_BY_CODE[row["high"]] % 13,
                    ]
            know.lacks[entry["seat"]] |= layout_mask(snapshot)
    know.played = played
    shown = view.get("shown_card")
    if shown and know.dealer is not None and know.dealer != seat:
        card = CARD_BY_CODE[shown]
        if not played >> card & 1:  # T41.4: it stays in the dealer's hand until played
            know.known[know.dealer] |= 1 << card
    for entry in view.get("doubled") or ():
        card = CARD_BY_CODE[entry["card"]]
        know.doubled[card] = entry["seat"]
        if entry["seat"] != seat and not played >> card & 1:  # TX.7: the doubler holds it
            know.known[entry["seat"]] |= 1 << card
    for other in range(4):
        know.lacks[other] &= ~know.known[other]
    return know


def _note_voids(know: Knowledge, plays: list[tuple[int, int]]) -> None:
    """A seat that did not follow the led suit has none of it (T41.7, TS.7, TX.5)."""
    if not plays:
        return
    led = plays[0][1] // 13
    for seat, card in plays[1:]:
        if card // 13 != led:
            know.voids[seat] |= 1 << led
