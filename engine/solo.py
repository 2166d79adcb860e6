"""Solo Tarneeb (``tarneeb_solo``, TS): an auction from 7, the declarer names trump and
plays alone against the three others; first to the table's target (31/51/61) wins."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.actions import BID, PASS, PLAY, TRUMP
from engine.dealing import seeded_first_dealer
from engine.errors import IllegalAction
from engine.match import Action, Event, Phase
from engine.params import TARNEEB_SOLO as PARAMS
from engine.params import SoloParams
from engine.trickplay import TrickPlayMatch
from engine.tricks import NO_TRUMP

TARGETS = PARAMS.targets  # TS.1
MIN_BID, MAX_BID = PARAMS.min_bid, PARAMS.max_bid  # TS.3


def solo_deltas(bid: int, declarer: int, tricks: list[int]) -> list[int]:
    """TS.8 scoring of one deal: the declarer's bid, seat and everyone's tricks.

    >>> solo_deltas(8, 0, [9, 2, 1, 1])      # made: the declarer scores their tricks
    [9, 0, 0, 0]
    >>> solo_deltas(9, 0, [7, 3, 2, 1])      # failed: −bid, the others their own tricks
    [-9, 3, 2, 1]
    >>> solo_deltas(13, 1, [1, 12, 0, 0])    # 13 failed: −16, the others double tricks
    [2, -16, 0, 0]
    """
    taken = tricks[declarer]
    deltas = [0, 0, 0, 0]
    if bid < MAX_BID:
        if taken == 13:  # all 13 tricks
            deltas[declarer] = PARAMS.kaboot
        elif taken >= bid:
            deltas[declarer] = taken
        else:
            deltas = list(tricks)
            deltas[declarer] = -bid
    elif taken == 13:
        deltas[declarer] = PARAMS.grand_slam
    else:
        deltas = [PARAMS.grand_slam_failed_factor * t for t in tricks]
        deltas[declarer] = -PARAMS.grand_slam_failed
    return deltas


def timeout_trump(hand: int) -> int:
    """TS.10: the suit the declarer holds most cards of; ties by the higher sum of ranks
    (J=11, Q=12, K=13, A=14), then S > H > D > C."""

    def strength(suit: int) -> tuple[int, int, int]:
        ranks = [rank for rank in range(13) if hand >> (suit * 13 + rank) & 1]
        return len(ranks), sum(rank + 2 for rank in ranks), suit

    return max(range(4), key=strength)


class SoloTarneeb(TrickPlayMatch):
    variant = "tarneeb_solo"
    teams = False
    params: ClassVar[SoloParams] = PARAMS
    option_defaults: ClassVar[dict[str, object]] = {
        "first_dealer": None,
        "target": PARAMS.default_target,
    }
    _state_fields = (*TrickPlayMatch._trick_fields, "_bids", "_high_bid", "_declarer")

    _bids: list[int | str | None]  # the seat's latest call: a bid, "pass", or None
    _high_bid: int  # 0 before any bid
    _declarer: int  # the highest bidder so far, -1 before any bid

    def __init__(
        self, seed: int = 0, options: dict[str, Any] | None = None, decks: object = None
    ) -> None:
        super().__init__(seed, options, decks)
        first_dealer = self._options["first_dealer"]
        self._dealer = seeded_first_dealer(seed) if first_dealer is None else first_dealer
        self._start_deal()

    @classmethod
    def _check_option(cls, key: str, value: object) -> None:
        super()._check_option(key, value)
        if key == "target" and (type(value) is not int or value not in TARGETS):
            choices = ", ".join(str(target) for target in TARGETS[:-1])
            raise ValueError(f"target must be {choices} or {TARGETS[-1]}, not {value!r}")

    @property
    def target(self) -> int:
        target: int = self._options["target"]
        return target

    def _start_deal(self) -> list[Event]:
        dealer = self._dealer
        assert dealer is not None
        _, events = self._deal(first=(dealer + 1) & 3)  # TS.2: no card is shown
        self._reset_tricks(NO_TRUMP)
        self._bids = [None, None, None, None]
        self._high_bid = 0
        self._declarer = -1
        self.phase = Phase.BIDDING
        self._turn = (dealer + 1) & 3  # TS.3
        return events

    # ---------------------------------------------------------------- auction

    def _dealer_forced(self, seat: int) -> bool:
        """TS.5: the first three passed without a bid; the dealer must bid."""
        return self._high_bid == 0 and seat == self._dealer and self._bids.count("pass") == 3

    def legal_bids(self, seat: int) -> list[int]:
        return list(range(max(MIN_BID, self._high_bid + 1), MAX_BID + 1))

    def _bid(self, seat: int, value: int) -> list[Event]:
        self._require(seat, Phase.BIDDING, "bid")
        if not MIN_BID <= value <= MAX_BID:
            raise IllegalAction(
                "bid_out_of_range", f"a solo bid is from {MIN_BID} to {MAX_BID} tricks"
            )
        if value <= self._high_bid:
            raise IllegalAction(
                "bid_too_low", f"a bid must be higher than the current {self._high_bid}"
            )
        self._bids[seat] = value
        self._high_bid = value
        self._declarer = seat
        events: list[Event] = [{"type": "bid", "seat": seat, "value": value}]
        if value == MAX_BID:  # TS.4: nobody can bid over the top (13)
            events.append(self._end_auction())
        else:
            events.extend(self._next_bidder(seat))
        return events

    def _pass(self, seat: int) -> list[Event]:
        self._require(seat, Phase.BIDDING, "pass")
        if self._dealer_forced(seat):
            raise IllegalAction(
                "pass_not_allowed",
                f"everyone else passed: as the dealer you must bid {MIN_BID} or more",
            )
        self._bids[seat] = "pass"  # TS.3: out of this auction for good
        events: list[Event] = [{"type": "bid", "seat": seat, "value": "pass"}]
        events.extend(self._next_bidder(seat))
        return events

    def _next_bidder(self, seat: int) -> list[Event]:
        following = (seat + 1) & 3
        while self._bids[following] == "pass":
            following = (following + 1) & 3
        if following == self._declarer:  # TS.4: all others passed after the last bid
            return [self._end_auction()]
        self._turn = following
        return []

    def _end_auction(self) -> Event:
        self.phase = Phase.TRUMP  # TS.6: the declarer names trump
        self._turn = self._declarer
        return {"type": "auction_won", "seat": self._declarer, "bid": self._high_bid}

    def _choose_trump(self, seat: int, suit: int) -> list[Event]:
        self._require(seat, Phase.TRUMP, "choose trump")
        self._trump = suit
        self._start_play(seat)  # TS.6: the declarer leads the first trick
        return [{"type": "trump", "seat": seat, "suit": "CDHS"[suit]}]

    # ---------------------------------------------------------------- scoring

    def _end_of_deal(self) -> list[Event]:
        tricks = self._tricks_won
        deltas = solo_deltas(self._high_bid, self._declarer, tricks)
        scores = self._scores
        for seat in range(4):
            scores[seat] += deltas[seat]
        self._history.append(
            {
                "deal_number": self.deal_number,
                "dealer": self._dealer,
                "declarer": self._declarer,
                "bid": self._high_bid,
                "trump": "CDHS"[self._trump],
                "tricks": list(tricks),
                "made": tricks[self._declarer] >= self._high_bid,
                "deltas": deltas,
                "scores": list(scores),
            }
        )
        events: list[Event] = [
            {
                "type": "hand_scored",
                "deal_number": self.deal_number,
                "declarer": self._declarer,
                "bid": self._high_bid,
                "tricks": list(tricks),
                "deltas": deltas,
                "scores": list(scores),
            }
        ]
        # TS.9: someone reached the target → the highest wins; a tie at the top plays on.
        best = max(scores)
        leaders = [seat for seat in range(4) if scores[seat] == best]
        if best >= self.target and len(leaders) == 1:
            events.append(self._finish(leaders))
            return events
        assert self._dealer is not None
        self._dealer = (self._dealer + 1) & 3  # TS.2
        events.extend(self._start_deal())
        return events

    # ---------------------------------------------------------------- hooks

    def _legal(self, seat: int) -> list[Action]:
        if self.phase is Phase.BIDDING:
            bids: list[Action] = [{"type": "bid", "value": v} for v in self.legal_bids(seat)]
            return bids if self._dealer_forced(seat) else [{"type": "pass"}, *bids]
        if self.phase is Phase.TRUMP:
            return [{"type": "trump", "suit": suit} for suit in "CDHS"]
        return self._legal_plays(seat)

    def _apply_parsed(self, seat: int, kind: str, payload: Any) -> list[Event]:
        if kind == PLAY:
            return self._play(seat, payload)
        if kind == BID:
            return self._bid(seat, payload)
        if kind == PASS:
            return self._pass(seat)
        if kind == TRUMP:
            return self._choose_trump(seat, payload)
        raise IllegalAction("wrong_action", f"there is no {kind!r} in {self.variant}")

    def _auto(self, seat: int) -> Action:
        if self.phase is Phase.BIDDING:
            # TS.10: pass; the dealer forced by TS.5 bids 7.
            if self._dealer_forced(seat):
                return {"type": "bid", "value": MIN_BID}
            return {"type": "pass"}
        if self.phase is Phase.TRUMP:
            return {"type": "trump", "suit": "CDHS"[timeout_trump(self._hands[seat])]}
        return self._auto_play(seat)

    def _view_extra(self, view: dict[str, Any], seat: int | None) -> None:
        self._trick_view(view)
        view["bids"] = list(self._bids)
        # While the auction runs there is a high bidder but no declarer yet (TS.4).
        bidding = self.phase is Phase.BIDDING
        view["high_bidder"] = self._declarer if self._declarer >= 0 else None
        view["declarer"] = None if bidding or self._declarer < 0 else self._declarer
        view["contract_bid"] = self._high_bid or None
        view["target"] = self.target
