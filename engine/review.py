"""Where the tricks went: a finished deal's cards marked against exact play with every hand
visible (double dummy), as bridge sites mark a played board (issue 35).

For every card: ``before``, the best result the player's side could still reach with
best play by everyone from the position the card was played in, and ``after``, the same
once the card is down; both are totals for the whole deal (what the side took before the
position counted in), so they compare across the deal, and the last ``after`` is what
the side took. ``cost = before - after`` is never negative (the player could have kept
``before`` with one of the ``better`` cards); a card with a cost is a mistake only with
every hand in view: with what the player knew, it may still have been right.

What is analysed, and how (only where the answer is exact; elsewhere every figure is
``None``, never a guess):

- Syrian 41 and Tarneeb 41 doubled: the whole play, through DDS's play analysis (one
  ``AnalysePlayBin`` call per deal, ``engine.players.doubledummy``), in tricks of the
  player's partnership (T41.1: seats s and s + 2). A card with a cost gets its better cards
  from one ``SolveBoard`` of its position. Each side's ``makeable``: DDS's tricks for it
  from the opening lead (T41.7) with the deal's trump (T41.4), against the side's ``bid``,
  its two personal bids summed (T41.5).
- Solo: each plays for themselves (TS.1), but the score sets the declarer against the other
  three (TS.8: the defenders gain only when the contract fails). The player's side is the
  declarer alone, or the three defenders together, in tricks. DDS cannot play that game (its
  sides are the partnerships s and s + 2; in Solo the declarer's opposite is a defender), so
  only the last ``ENDGAME_TRICKS`` tricks are analysed, by the exact search of
  ``engine.players.endgame`` (the declarer maximizing its tricks, the three minimizing).
  No ``makeable``: nothing exact is known from the opening lead.
- Trix Complex: the Complex contract (TX.5-TX.8) charges every trick, diamond, queen and
  the king of hearts in one deal; there is no contract scored by tricks alone. Taking
  tricks costs, so DDS's game (each side takes all the tricks it can) is the wrong game: its
  figures would not be the contract's. The last ``ENDGAME_TRICKS`` tricks are searched
  exactly in the contract's own points (doubles included, TX.8), the player's partnership's
  points for the deal. The Trix layout (TX.9) has no tricks: nothing is marked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import engine
from engine.cards import CARD_BY_CODE, SUIT_MASKS, card_code, suit_index
from engine.params import PartnershipParams, SoloParams
from engine.players import doubledummy
from engine.players.complex import COST
from engine.players.endgame import Endgame, Tally, count_tricks
from engine.records import DealRecord
from engine.trix import trick_points

#: the format of ``DealReview.to_dict()``; raised whenever its meaning changes
VERSION = 1
#: the last tricks searched exactly where DDS does not apply (Solo, Complex): the most
#: that stay within the analysis budget (``benchmarks/review_bench.py``)
ENDGAME_TRICKS = 5
NO_TRUMP = -1  # TX.1


@dataclass(frozen=True)
class CardReview:
    """One card of the deal. ``index``: its place in ``DealRecord.played``. The figures
    are the player's side's (``DealReview.unit``); all ``None`` where ``method`` is None."""

    index: int
    seat: int
    card: str
    method: str | None  # "dds" | "endgame" | None: not analysed
    before: int | None = None
    after: int | None = None
    cost: int | None = None
    better: tuple[str, ...] | None = None  # the cards that kept ``before`` (when cost > 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "card": self.card,
            "method": self.method,
            "before": self.before,
            "after": self.after,
            "cost": self.cost,
            "better": None if self.better is None else list(self.better),
        }


@dataclass(frozen=True)
class SideReview:
    """A side of the deal: what double-dummy play would have made with its trump from the
    opening lead (``None`` where not known exactly), what it bid, what it took."""

    seats: tuple[int, ...]
    makeable: int | None
    bid: int | None
    took: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "makeable": self.makeable,
            "bid": self.bid,
            "took": self.took,
        }


@dataclass(frozen=True)
class MethodRange:
    """Cards ``start`` to ``stop - 1`` (indices of ``DealRecord.played``) and how they
    were analysed."""

    start: int
    stop: int
    method: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "stop": self.stop, "method": self.method}


@dataclass(frozen=True)
class DealReview:
    """A finished deal's review. ``lost``: per seat, the sum of its cards' costs (None
    for a seat none of whose cards were analysed); ``sides``: the Tarneeb family's sides."""

    variant: str
    deal: int
    unit: str  # "tricks", or "points" (Complex)
    ranges: tuple[MethodRange, ...]
    cards: tuple[CardReview, ...]
    lost: tuple[int | None, ...]
    sides: tuple[SideReview, ...]
    version: int = VERSION

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types only; cards as the engine's codes."""
        return {
            "version": self.version,
            "variant": self.variant,
            "deal": self.deal,
            "unit": self.unit,
            "ranges": [r.to_dict() for r in self.ranges],
            "cards": [c.to_dict() for c in self.cards],
            "lost": list(self.lost),
            "sides": [s.to_dict() for s in self.sides],
        }


@dataclass(frozen=True)
class _Position:
    """The table just before one card of a trick: everything a solver needs."""

    index: int
    seat: int
    card: int
    held: tuple[int, ...]  # each seat's cards still in hand, ``card`` included
    leader: int  # of this trick
    trick: tuple[int, ...]  # the trick's cards so far, in play order
    seats: tuple[int, ...]
    number: int  # the trick's number, 0..12

    @property
    def legal(self) -> list[int]:
        """T41.7, TS.7, TX.5: follow the suit led if able, else any card."""
        hand = self.held[self.seat]
        following = hand & SUIT_MASKS[self.trick[0] // 13] if self.trick else 0
        hand = following or hand
        return [card for card in range(52) if hand >> card & 1]


def review_deal(
    variant: str, deal: DealRecord, *, endgame_tricks: int = ENDGAME_TRICKS
) -> DealReview:
    """The review of one finished deal of ``variant`` (see the module's docstring).
    ``ValueError`` for a deal still being played; ``DoubleDummyError`` where DDS is needed
    and missing. ``endgame_tricks``: the exact search's window (for the benchmark)."""
    if not deal.finished:
        raise ValueError("the deal is not over: its hands are not reviewed")
    params = engine.VARIANTS[variant].params
    positions = _positions(deal)
    if isinstance(params, PartnershipParams):
        return _partnership(variant, deal, positions)
    if isinstance(params, SoloParams):
        return _solo(variant, deal, positions, endgame_tricks)
    if deal.contract == "trix" or not deal.tricks:  # TX.9: a layout, not tricks
        cards = tuple(
            CardReview(index, seat, code, None)
            for index, (seat, code) in enumerate((s, c) for s, c in deal.layout if c != "pass")
        )
        return _review(variant, deal, "points", cards, ())
    return _complex(variant, deal, positions, endgame_tricks)


def _masks(deal: DealRecord) -> list[int]:
    return [sum(1 << CARD_BY_CODE[code] for code in hand) for hand in deal.hands]


def _positions(deal: DealRecord) -> list[_Position]:
    held = _masks(deal)
    positions: list[_Position] = []
    for number, trick in enumerate(deal.tricks):
        cards: list[int] = []
        seats: list[int] = []
        for seat, code in trick.plays:
            card = CARD_BY_CODE[code]
            positions.append(
                _Position(
                    len(positions),
                    seat,
                    card,
                    tuple(held),
                    trick.leader,
                    tuple(cards),
                    tuple(seats),
                    number,
                )
            )
            held[seat] &= ~(1 << card)
            cards.append(card)
            seats.append(seat)
    return positions


def _review(
    variant: str,
    deal: DealRecord,
    unit: str,
    cards: tuple[CardReview, ...],
    sides: tuple[SideReview, ...],
) -> DealReview:
    lost: list[int | None] = [None, None, None, None]
    for card in cards:
        if card.cost is not None:
            lost[card.seat] = (lost[card.seat] or 0) + card.cost
    ranges: list[MethodRange] = []
    for card in cards:
        if ranges and ranges[-1].method == card.method:
            ranges[-1] = MethodRange(ranges[-1].start, card.index + 1, card.method)
        else:
            ranges.append(MethodRange(card.index, card.index + 1, card.method))
    return DealReview(variant, deal.number, unit, tuple(ranges), cards, tuple(lost), sides)


def _checked(before: int, after: int, where: _Position) -> int:
    cost = before - after
    if cost < 0:  # the mover's own card cannot raise its side's exact value
        raise doubledummy.DoubleDummyError(
            f"card {where.index}: exact value rose from {before} to {after}"
        )
    return cost


def _partnership(variant: str, deal: DealRecord, positions: list[_Position]) -> DealReview:
    """Syrian 41 and Tarneeb 41 doubled: DDS over the whole play (see the docstring)."""
    trump = suit_index(deal.trump)  # T41.4
    # T41.7: dealer + 1 leads the first trick (a cancelled deal has no trick to read it from)
    leader = deal.tricks[0].leader if deal.tricks else ((deal.dealer or 0) + 1) % 4
    hands = _masks(deal)
    total = len(deal.hands[leader])
    plays = [p.card for p in positions]

    def side(seat: int, figure: int) -> int:
        return figure if seat % 2 == leader % 2 else total - figure

    with doubledummy.Slot() as slot:  # the solves below reuse what the analysis learnt
        leaders = doubledummy.analyse_play(hands, trump, leader, plays, slot)
        won = [0, 0]  # by side (seat % 2), tricks completed before the position
        cards: list[CardReview] = []
        for p in positions:
            before = side(p.seat, leaders[p.index])
            after = side(p.seat, leaders[p.index + 1])
            cost = _checked(before, after, p)
            better: tuple[str, ...] = ()
            if cost:
                taken = won[p.seat % 2]
                best = doubledummy.best_cards(
                    p.held, trump, p.leader, p.trick, before - taken, slot
                )
                better = tuple(card_code(c) for c in best)
            code = card_code(p.card)
            cards.append(CardReview(p.index, p.seat, code, "dds", before, after, cost, better))
            if len(p.trick) == 3:
                won[deal.tricks[p.number].winner % 2] += 1
    bids = [b or 0 for b in deal.bids]
    sides = tuple(
        SideReview(
            (first, first + 2),
            side(first, leaders[0]),
            bids[first] + bids[first + 2],  # T41.5: personal bids, summed per team
            deal.tricks_won[first] + deal.tricks_won[first + 2],
        )
        for first in (0, 1)
    )
    return _review(variant, deal, "tricks", tuple(cards), sides)


def _window(
    positions: list[_Position], deal: DealRecord, tricks: int
) -> tuple[list[_Position], list[_Position]]:
    """The positions before the exact window and those in it (its last ``tricks`` tricks)."""
    first = max(0, len(deal.tricks) - tricks)
    return [p for p in positions if p.number < first], [p for p in positions if p.number >= first]


def _exact(
    early: list[_Position],
    window: list[_Position],
    search: Endgame,
    tally_trick: Callable[[list[int], list[int], int, Tally], Tally],
    deal: DealRecord,
    side_value: Callable[[int, Tally, float], int],
) -> tuple[CardReview, ...]:
    """Cards before the window unanalysed; in it, every position searched exactly.
    ``side_value(seat, base, value)``: the search's ``value`` (for its maximizers) as
    ``seat``'s side's total for the deal, ``base`` the tally of the tricks before the window."""
    cards = [CardReview(p.index, p.seat, card_code(p.card), None) for p in early]
    base: Tally = (0, 0, 0, 0)
    for trick in deal.tricks[: window[0].number if window else 0]:
        cards_of = [CARD_BY_CODE[c] for c in trick.cards]
        base = tally_trick(cards_of, [s for s, _ in trick.plays], trick.winner, base)
    tally: Tally = (0, 0, 0, 0)  # the window's tricks so far, as the search keeps it
    for p in window:
        best, played, cards_kept = search.judge(
            p.held, p.trick, p.seats, p.leader, tally, p.legal, p.card
        )
        before = side_value(p.seat, base, best)
        after = side_value(p.seat, base, played)
        cost = _checked(before, after, p)
        better = tuple(card_code(c) for c in cards_kept)
        cards.append(
            CardReview(p.index, p.seat, card_code(p.card), "endgame", before, after, cost, better)
        )
        if len(p.trick) == 3:
            trick = deal.tricks[p.number]
            cards_of = [CARD_BY_CODE[c] for c in trick.cards]
            tally = tally_trick(cards_of, [s for s, _ in trick.plays], trick.winner, tally)
    return tuple(cards)


def _solo(variant: str, deal: DealRecord, positions: list[_Position], tricks: int) -> DealReview:
    """Solo: the declarer against the other three, in tricks, over the last tricks."""
    declarer = deal.declarer if deal.declarer is not None else 0
    early, window = _window(positions, deal, tricks)

    def declarer_tricks(tally: Tally) -> float:
        return tally[declarer]

    def side_value(seat: int, base: Tally, value: float) -> int:
        declarers = base[declarer] + int(value)
        if seat == declarer:
            return declarers
        return len(deal.tricks) - declarers  # TS.8: the defenders' tricks together

    search = Endgame(suit_index(deal.trump), 1 << declarer, declarer_tricks)
    cards = _exact(early, window, search, count_tricks, deal, side_value)
    others = tuple(s for s in range(4) if s != declarer)
    took = deal.tricks_won[declarer]
    sides = (
        SideReview((declarer,), None, deal.bid, took),  # TS.6: the declarer's bid
        SideReview(others, None, None, len(deal.tricks) - took),
    )
    return _review(variant, deal, "tricks", cards, sides)


def _complex(
    variant: str, deal: DealRecord, positions: list[_Position], tricks: int
) -> DealReview:
    """Complex: each partnership's points for the deal (TX.6, TX.8), over the last tricks."""
    doubled = {CARD_BY_CODE[code]: seat for code, seat in deal.doubled}  # TX.7

    def points(cards: list[int], seats: list[int], winner: int, tally: Tally) -> Tally:
        a, b, c, d = trick_points(cards, seats[0], winner, doubled)
        return (tally[0] + a, tally[1] + b, tally[2] + c, tally[3] + d)

    early, window = _window(positions, deal, tricks)
    # TX.8: a trick's points total the same whoever takes it, so the window's points are a
    # constant shared between the sides: one search (seats 0 and 2 maximizing) serves both.
    shared = 0
    for trick in deal.tricks[window[0].number if window else len(deal.tricks) :]:
        cards_of = [CARD_BY_CODE[c] for c in trick.cards]
        shared += sum(points(cards_of, [s for s, _ in trick.plays], trick.winner, (0, 0, 0, 0)))

    def first_side(tally: Tally) -> float:
        return tally[0] + tally[2]

    def side_value(seat: int, base: Tally, value: float) -> int:
        mine = base[seat % 2] + base[seat % 2 + 2]
        return mine + (int(value) if seat % 2 == 0 else shared - int(value))

    search = Endgame(NO_TRUMP, 0b0101, first_side, points, COST)
    cards = _exact(early, window, search, points, deal, side_value)
    return _review(variant, deal, "points", cards, ())


__all__ = [
    "ENDGAME_TRICKS",
    "VERSION",
    "CardReview",
    "DealReview",
    "MethodRange",
    "SideReview",
    "review_deal",
]
