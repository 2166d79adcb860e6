"""A table's action log replayed through the pure engine into a match record.

The record holds, deal by deal, the four hands as dealt (before any card is played), the
bids or the auction or the Trix contract and its doubles, every trick or Trix play in
order, and the deal's scores. Stats (``bot.league.figures``) and the readable record sent
after the match (``bot.render.record``) are both read from it. Pure: no I/O, no clock.

The match is rebuilt exactly as ``bot.tables.recovery.replay`` rebuilds a live table, so
a log the tables accepted replays here without a refusal; an ``IllegalAction`` from the
engine means the log is not the one the table played.

It lives in the engine, as a hand history lives in PokerKit's core: plain game data, below
both the renderer and the league that read it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import engine

NO_SEATS = (0, 0, 0, 0)
#: one call of a Solo auction: the seat and its bid, or "pass" (TS.3)
Call = tuple[int, int | str]
#: one turn of a Trix contract: the seat and the card it laid, or "pass" (TX.9)
Turn = tuple[int, str]


@dataclass(frozen=True)
class TrickRecord:
    """A completed trick: its leader, its four cards in play order from the leader, and
    the seat that took it."""

    leader: int
    cards: tuple[str, ...]
    winner: int

    @property
    def plays(self) -> tuple[Turn, ...]:
        """The trick as (seat, card) in play order; play moves to the right (seat + 1)."""
        return tuple(((self.leader + i) % 4, code) for i, code in enumerate(self.cards))


@dataclass(frozen=True)
class DealRecord:
    """One deal as it was dealt and played. Fields that do not apply to the variant keep
    their defaults (``None``, empty)."""

    number: int  # the engine's deal number: cancelled deals count too
    dealer: int | None  # None in Trix: there is no dealer (TX.2)
    hands: tuple[tuple[str, ...], ...]  # each seat's 13 cards as dealt, canonical order
    shown_card: str | None = None  # T41.4: the dealer's shown card
    trump: str | None = None  # suit letter: T41.4's colour partner, or TS.6's choice
    bids: tuple[int | None, ...] = (None, None, None, None)  # T41.5: each seat's bid
    auction: tuple[Call, ...] = ()  # TS.3: the auction in order
    declarer: int | None = None  # TS.6: the highest bidder
    bid: int | None = None  # TS.6: the declarer's bid
    kingdom: int | None = None  # TX.3
    owner: int | None = None  # TX.3: the kingdom's owner
    contract: str | None = None  # TX.3: "complex" or "trix"
    doubled: tuple[tuple[str, int], ...] = ()  # TX.7: (card, doubler), revealed together
    tricks: tuple[TrickRecord, ...] = ()  # the completed tricks in order (trick games)
    open_trick: tuple[Turn, ...] = ()  # cards of a trick the log stopped in the middle of
    layout: tuple[Turn, ...] = ()  # TX.9: a Trix contract's turns in order
    finished_order: tuple[int, ...] = ()  # TX.10: who emptied their hand, in order
    fourth: int | None = None  # TX.10: the seat placed fourth at once
    cancelled: bool = False  # T41.6 / T41D.3: the bids were too low and it was redealt
    needed: int | None = None  # T41.6 / T41D.3: the total the bids needed
    finished: bool = True  # False for a deal the log stopped in the middle of
    tricks_won: tuple[int, ...] = NO_SEATS
    deltas: tuple[int, ...] = NO_SEATS  # what the deal gave each seat
    scores: tuple[int, ...] = NO_SEATS  # each seat's total after the deal
    team_scores: tuple[int, int] | None = None  # T41.1 / TX.1; None in Solo

    @property
    def scored(self) -> bool:
        """Played to the end and scored: neither cancelled nor cut short."""
        return self.finished and not self.cancelled

    @property
    def played(self) -> tuple[str, ...]:
        """Every card played in the deal, in play order."""
        cards = [code for trick in self.tricks for code in trick.cards]
        cards += [code for _, code in self.open_trick]
        cards += [code for _, code in self.layout if code != "pass"]
        return tuple(cards)


@dataclass(frozen=True)
class MatchRecord:
    """A whole match: its deals in order, the engine's result (``{"winners": [...],
    "draw": bool}``, None when the log ends before a result) and the final scores."""

    variant: str
    deals: tuple[DealRecord, ...]
    result: dict[str, Any] | None = field(hash=False)
    scores: tuple[int, ...]
    team_scores: tuple[int, int] | None


def replay(
    variant: str,
    options: dict[str, Any],
    seed: int,
    decks: list[list[str]] | None,
    moves: Iterable[tuple[int, dict[str, Any]]],
) -> MatchRecord:
    """Rebuild the match from its seed, options (``TableConfig.engine_options()``) and
    stacked decks, apply ``moves`` ((seat, action) in log order), and record it."""
    match = engine.new_match(variant, seed=seed, options=options, decks=decks)
    recorder = _Recorder(variant)
    view = match.view(None)
    # The first deal is dealt when the match is built, with no event: read it off the
    # match before any move (the owner of the first kingdom too, TX.3).
    recorder.open(
        number=match.deal_number,
        dealer=match.dealer,
        hands=tuple(tuple(match.hand(seat)) for seat in range(4)),
        shown_card=view["shown_card"],
        trump=view["trump"],
        kingdom=view.get("kingdom"),
        owner=view.get("owner"),
    )
    for seat, action in moves:
        recorder.acted = True
        for event in match.apply(seat, action):
            recorder.event(event)
    recorder.stop()
    return MatchRecord(
        variant=variant,
        deals=tuple(recorder.deals),
        result=match.result,
        scores=tuple(match.scores),
        team_scores=_pair(match.team_scores),
    )


def _pair(scores: list[int] | None) -> tuple[int, int] | None:
    return None if scores is None else (scores[0], scores[1])


class _Recorder:
    """Follows the engine's events and closes one ``DealRecord`` per deal."""

    def __init__(self, variant: str) -> None:
        self.teams = engine.VARIANTS[variant].teams
        self.solo = variant == "tarneeb_solo"
        self.deals: list[DealRecord] = []
        self.scores: tuple[int, ...] = NO_SEATS
        self.deal: DealRecord | None = None
        self.acted = False  # a move was applied in the open deal
        self.auction: list[Call] = []
        self.tricks: list[TrickRecord] = []
        self.trick: list[Turn] = []
        self.layout: list[Turn] = []

    def open(self, **fields: Any) -> None:
        self.deal = DealRecord(scores=self.scores, team_scores=self._teams(), **fields)
        self.acted = False
        self.auction, self.tricks, self.trick, self.layout = [], [], [], []

    def _teams(self) -> tuple[int, int] | None:
        scores = self.scores
        return (scores[0] + scores[2], scores[1] + scores[3]) if self.teams else None

    def _set(self, **fields: Any) -> None:
        assert self.deal is not None, "an event arrived with no deal open"
        self.deal = replace(self.deal, **fields)

    def close(self, **fields: Any) -> None:
        assert self.deal is not None, "a deal ended with no deal open"
        if "scores" in fields:
            self.scores = tuple(fields.pop("scores"))
        self._set(
            auction=tuple(self.auction),
            tricks=tuple(self.tricks),
            open_trick=tuple(self.trick),
            layout=tuple(self.layout),
            scores=self.scores,
            team_scores=self._teams(),
            **fields,
        )
        self.deals.append(self.deal)
        self.deal = None

    def stop(self) -> None:
        """The log is over: keep a deal cut short only if someone acted in it (a deal
        dealt after the last scored one and never touched shows nothing)."""
        if self.deal is not None and self.acted:
            won = [0, 0, 0, 0]
            for trick in self.tricks:
                won[trick.winner] += 1
            self.close(finished=False, tricks_won=tuple(won))

    def event(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "deal":
            self.open(
                number=event["deal_number"],
                dealer=event["dealer"],
                hands=((), (), (), ()),
                shown_card=event.get("shown_card"),
                trump=event.get("trump"),
                kingdom=event.get("kingdom"),
                owner=event.get("owner"),
            )
        elif kind == "hand":
            # The private deal events carry each new hand before any card is played.
            assert self.deal is not None
            hands = list(self.deal.hands)
            hands[event["to"]] = tuple(event["cards"])
            self._set(hands=tuple(hands))
        elif kind == "bid":
            self._bid(event["seat"], event["value"])
        elif kind == "auction_won":
            self._set(declarer=event["seat"], bid=event["bid"])  # TS.6
        elif kind == "trump":
            self._set(trump=event["suit"])  # TS.6
        elif kind == "contract":
            self._set(contract=event["contract"], kingdom=event["kingdom"], owner=event["seat"])
        elif kind == "doubles_revealed":
            self._set(doubled=tuple((d["card"], d["seat"]) for d in event["doubled"]))  # TX.7
        elif kind in ("play", "pass"):
            self._turn(event)
        elif kind == "trick_won":
            cards = tuple(event["cards"])
            self.tricks.append(TrickRecord(event["leader"], cards, event["seat"]))
            self.trick = []
        elif kind == "hand_scored":
            self._scored(event)
        elif kind == "deal_cancelled":
            # T41.6 / T41D.3: nothing is scored; the totals stay as they were.
            self.close(
                bids=tuple(event["bids"]), cancelled=True, needed=event["needed"], deltas=NO_SEATS
            )

    def _bid(self, seat: int, value: int | str) -> None:
        assert self.deal is not None
        if self.solo:
            self.auction.append((seat, value))  # TS.3: calls in order, passes included
        bids = list(self.deal.bids)
        bids[seat] = value if isinstance(value, int) else None
        self._set(bids=tuple(bids))

    def _turn(self, event: dict[str, Any]) -> None:
        assert self.deal is not None
        seat = event["seat"]
        if self.deal.contract == "trix":
            self.layout.append((seat, event.get("card", "pass")))  # TX.9: passes too
        else:
            self.trick.append((seat, event["card"]))

    def _scored(self, event: dict[str, Any]) -> None:
        fields: dict[str, Any] = {
            "deltas": tuple(event["deltas"]),
            "scores": tuple(event["scores"]),
            "tricks_won": tuple(event.get("tricks") or NO_SEATS),
        }
        if "bids" in event:
            fields["bids"] = tuple(event["bids"])
        if "kingdom" in event:  # TX.3: the history's word on the kingdom and its owner
            fields.update(kingdom=event["kingdom"], owner=event["owner"])
        if "finished_order" in event:  # TX.10
            fields.update(finished_order=tuple(event["finished_order"]), fourth=event["fourth"])
        self.close(**fields)


__all__ = ["Call", "DealRecord", "MatchRecord", "TrickRecord", "Turn", "replay"]
