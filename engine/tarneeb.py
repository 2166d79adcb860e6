"""Partnership Tarneeb 41: ``syrian41`` (T41) and ``tarneeb41_double`` (T41D).

Both share dealing, the shown card and trump, personal bids, play and the 41-with-partner
qualification; they differ only in their parameters (``engine.params``: which bids exist,
the total a deal needs, and the doubling of high bids).
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.actions import BID, PLAY
from engine.cards import CARD_CODES, same_colour_partner
from engine.dealing import seeded_first_dealer
from engine.errors import IllegalAction
from engine.match import Action, Event, Match, Phase
from engine.params import SYRIAN41, TARNEEB41_DOUBLE, PartnershipParams
from engine.trickplay import TrickPlayMatch

BIDDING = Phase.BIDDING


class PartnershipTarneeb(TrickPlayMatch):
    """Rules common to T41 and T41D; subclasses set ``params``."""

    teams = True
    option_defaults: ClassVar[dict[str, object]] = {"first_dealer": None}
    _state_fields = (*TrickPlayMatch._trick_fields, "_bids", "_shown_card")

    #: the variant's rule parameters: bids, forbidden bids, the no-2 score, the total a
    #: deal needs, doubling, the target (T41.5–T41.9, T41D.1–T41D.4)
    params: ClassVar[PartnershipParams] = SYRIAN41

    _bids: list[int | None]
    _shown_card: int

    def __init__(
        self, seed: int = 0, options: dict[str, Any] | None = None, decks: object = None
    ) -> None:
        super().__init__(seed, options, decks)
        first_dealer = self._options["first_dealer"]
        # T41.2: the first dealer is random, drawn from the seed.
        self._dealer = seeded_first_dealer(seed) if first_dealer is None else first_dealer
        self._start_deal()

    # ---------------------------------------------------------------- dealing

    def _start_deal(self) -> list[Event]:
        dealer = self._dealer
        assert dealer is not None
        deck, events = self._deal(first=(dealer + 1) & 3)  # T41.3
        # T41.4: the dealer's own 13th card (the last card dealt) is shown; trump is the
        # other suit of its colour. The card stays in the dealer's hand.
        self._shown_card = deck[51]
        self._reset_tricks(trump=same_colour_partner(deck[51] // 13))
        events[0]["shown_card"] = CARD_CODES[self._shown_card]
        events[0]["trump"] = "CDHS"[self._trump]
        self._bids = [None, None, None, None]
        self.phase = Phase.BIDDING
        self._turn = (dealer + 1) & 3  # T41.5
        return events

    # ---------------------------------------------------------------- bidding

    def _bid_refusal(self, seat: int, value: int) -> IllegalAction | None:
        params = self.params
        if not params.min_bid <= value <= params.max_bid:  # T41.5
            return IllegalAction(
                "bid_out_of_range",
                f"a bid is a number of tricks from {params.min_bid} to {params.max_bid}",
            )
        if value in params.forbidden_bids:  # T41D.1
            return IllegalAction("bid_forbidden", f"a bid of {value} does not exist here")
        if value not in params.legal_bids(self._scores[seat]):  # T41D.2
            return IllegalAction(
                "bid_two_forbidden",
                f"with {params.no_two_from} points or more you may not bid {value}",
            )
        return None

    def legal_bids(self, seat: int) -> list[int]:
        return list(self.params.legal_bids(self._scores[seat]))

    def _bid(self, seat: int, value: int) -> list[Event]:
        self._require(seat, Phase.BIDDING, "bid")
        refusal = self._bid_refusal(seat, value)
        if refusal is not None:
            raise refusal
        bids = self._bids
        bids[seat] = value
        events: list[Event] = [{"type": "bid", "seat": seat, "value": value}]
        if seat != self._dealer:
            self._turn = (seat + 1) & 3
            return events
        # The dealer bids last (T41.5); now the total decides (T41.6, T41D.3).
        total = sum(b for b in bids if b is not None)
        if total < self.params.min_total:
            self._history.append(
                {
                    "deal_number": self.deal_number,
                    "dealer": self._dealer,
                    "cancelled": True,
                    "bids": list(bids),
                }
            )
            events.append(
                {
                    "type": "deal_cancelled",
                    "deal_number": self.deal_number,
                    "bids": list(bids),
                    "total": total,
                    "needed": self.params.min_total,
                }
            )
            self._dealer = (seat + 1) & 3  # T41.2: the deal passes on after a cancelled hand
            events.extend(self._start_deal())
            return events
        self._start_play((seat + 1) & 3)  # T41.7: dealer + 1 leads
        return events

    # ---------------------------------------------------------------- scoring

    def bid_value(self, bid: int) -> int:
        """What a bid is worth, made or failed (T41.8; ×2 from 7 in T41D.4)."""
        return self.params.bid_value(bid)

    def _end_of_deal(self) -> list[Event]:
        bids = [b for b in self._bids if b is not None]
        tricks = self._tricks_won
        # T41.8: made → +bid, failed → −bid (T41D.4: ×2 from 7); overtricks score nothing.
        deltas = self.params.deltas(bids, tricks)
        scores = self._scores
        for seat in range(4):
            scores[seat] += deltas[seat]
        self._history.append(
            {
                "deal_number": self.deal_number,
                "dealer": self._dealer,
                "cancelled": False,
                "bids": list(bids),
                "tricks": list(tricks),
                "made": [tricks[seat] >= bids[seat] for seat in range(4)],
                "deltas": deltas,
                "scores": list(scores),
                "trump": "CDHS"[self._trump],
            }
        )
        events: list[Event] = [
            {
                "type": "hand_scored",
                "deal_number": self.deal_number,
                "bids": list(bids),
                "tricks": list(tricks),
                "deltas": deltas,
                "scores": list(scores),
                "team_scores": self.team_scores,
            }
        ]
        winners = self._winners()
        if winners is not None:
            events.append(self._finish(winners))
            return events
        assert self._dealer is not None
        self._dealer = (self._dealer + 1) & 3  # T41.2
        events.extend(self._start_deal())
        return events

    def _winners(self) -> list[int] | None:
        """T41.9–T41.10: the winning team's seats, or None to play another hand."""
        scores = self._scores
        qualifies = self.params.qualifies
        team_a, team_b = qualifies(scores[0], scores[2]), qualifies(scores[1], scores[3])
        if team_a and team_b:
            total_a, total_b = scores[0] + scores[2], scores[1] + scores[3]
            if total_a == total_b:
                return None  # exact tie: one more hand, then check again
            team_a = total_a > total_b
            team_b = not team_a
        if team_a:
            return [0, 2]
        if team_b:
            return [1, 3]
        return None

    # ---------------------------------------------------------------- hooks

    def _legal(self, seat: int) -> list[Action]:
        if self.phase is BIDDING:
            return [{"type": "bid", "value": value} for value in self.legal_bids(seat)]
        return self._legal_plays(seat)

    def _apply_parsed(self, seat: int, kind: str, payload: Any) -> list[Event]:
        if kind == PLAY:
            return self._play(seat, payload)
        if kind == BID:
            return self._bid(seat, payload)
        raise IllegalAction("wrong_action", f"there is no {kind!r} in {self.variant}")

    def _auto(self, seat: int) -> Action:
        if self.phase is Phase.PLAYING:
            return self._auto_play(seat)
        legal = self.legal_bids(seat)
        if seat != self._dealer:
            return {"type": "bid", "value": legal[0]}  # T41.11 / T41D.7: the smallest bid
        # The last bidder: the smallest legal bid that lets the deal be played
        # (T41.11: max(2, 11 − others); T41D.7: total >= 12, a needed 6 becomes 7).
        others = sum(b for b in self._bids if b is not None)
        for value in legal:
            if others + value >= self.params.min_total:
                return {"type": "bid", "value": value}
        return {"type": "bid", "value": legal[-1]}

    def _view_extra(self, view: dict[str, Any], seat: int | None) -> None:
        self._trick_view(view)
        view["shown_card"] = CARD_CODES[self._shown_card]
        view["bids"] = list(self._bids)
        view["target"] = self.params.target
        view["min_total"] = self.params.min_total


class Syrian41(PartnershipTarneeb):
    """T41 — Syrian Tarneeb 41: bids 2..13, total ≥ 11, face-value scoring."""

    variant = "syrian41"
    params = SYRIAN41


class Tarneeb41Double(PartnershipTarneeb):
    """T41D — no bid of 6, no 2 from 30 points, total ≥ 12, bids from 7 count double."""

    variant = "tarneeb41_double"
    params = TARNEEB41_DOUBLE


__all__ = ["Match", "PartnershipTarneeb", "Syrian41", "Tarneeb41Double"]
