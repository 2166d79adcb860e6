"""Each variant's rule parameters, stated once (``shared/spec/rules.md``).

The rules modules (``tarneeb``, ``solo``, ``trix``), the fast path, the computer players
and the renderer all read these numbers from here instead of restating them:

>>> import engine
>>> engine.variant_params("tarneeb41_double").min_total  # T41D.3
12
>>> engine.VARIANTS["tarneeb_solo"].params.targets  # TS.1
(31, 51, 61)
>>> TARNEEB41_DOUBLE.bid_value(8), SYRIAN41.bid_value(8)  # T41D.4 doubles, T41.8 does not
(16, 8)
>>> engine.variant_params("trix_complex").deals  # TX.3: 4 kingdoms × 2 contracts
8

What is not a parameter stays in the rules code: the deck (52 cards, 13 tricks a deal),
seats and teams, who deals and leads, follow-suit and trick winners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias


@dataclass(frozen=True)
class PartnershipParams:
    """Partnership Tarneeb 41: ``syrian41`` (T41) and ``tarneeb41_double`` (T41D)."""

    variant: str
    rules: str  # the rules.md section: "T41" or "T41D"
    min_bid: int = 2  # T41.5: a bid is 2..13 tricks
    max_bid: int = 13  # T41.5
    forbidden_bids: frozenset[int] = frozenset()  # T41D.1: {6}
    #: from this personal score on the bid of 2 (the lowest) is refused (T41D.2); None = never
    no_two_from: int | None = None
    min_total: int = 11  # a deal is played when the four bids total at least this (T41.6, T41D.3)
    #: bids from this value on count double, made or failed (T41D.4); None = never (T41.8)
    double_from: int | None = None
    target: int = 41  # T41.9: one partner at 41 or more, the other above 0
    #: every bid that exists, ascending (derived: the range less the forbidden bids)
    bids: tuple[int, ...] = field(init=False)
    _bids_without_two: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        bids = tuple(
            b for b in range(self.min_bid, self.max_bid + 1) if b not in self.forbidden_bids
        )
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "_bids_without_two", tuple(b for b in bids if b != self.min_bid))

    def legal_bids(self, score: int) -> tuple[int, ...]:
        """The bids a player with personal ``score`` may make (T41.5, T41D.1, T41D.2)."""
        if self.no_two_from is not None and score >= self.no_two_from:
            return self._bids_without_two
        return self.bids

    def bid_value(self, bid: int) -> int:
        """What a bid wins when made and loses when failed (T41.8; ×2 from 7 in T41D.4)."""
        if self.double_from is not None and bid >= self.double_from:
            return 2 * bid
        return bid

    def doubles(self, bid: int) -> bool:
        """T41D.4: whether ``bid`` counts double."""
        return self.double_from is not None and bid >= self.double_from

    def deltas(self, bids: Sequence[int], tricks: Sequence[int]) -> list[int]:
        """One deal's score changes (T41.8, T41D.4): made → +value, failed → −value;
        overtricks score nothing."""
        deltas = []
        for seat in range(4):
            value = self.bid_value(bids[seat])
            deltas.append(value if tricks[seat] >= bids[seat] else -value)
        return deltas

    def qualifies(self, score: int, partner: int) -> bool:
        """T41.9: one partner has reached the target and the other is above zero."""
        return (score >= self.target and partner > 0) or (partner >= self.target and score > 0)


@dataclass(frozen=True)
class SoloParams:
    """Solo Tarneeb (``tarneeb_solo``, TS)."""

    variant: str = "tarneeb_solo"
    rules: str = "TS"
    targets: tuple[int, ...] = (31, 51, 61)  # TS.1: the table's choice
    default_target: int = 31  # TS.1
    min_bid: int = 7  # TS.3: a bid is 7..13; TS.5 and TS.10: the forced dealer bids 7
    max_bid: int = 13  # TS.3; TS.4: a bid of 13 ends the auction at once
    kaboot: int = 16  # TS.8: all 13 tricks without having bid 13
    grand_slam: int = 26  # TS.8: bid 13 and made
    grand_slam_failed: int = 16  # TS.8: bid 13 and failed costs the declarer this
    #: TS.8: bid 13 and failed, each other player scores this many times their own tricks
    grand_slam_failed_factor: int = 2

    @property
    def bids(self) -> tuple[int, ...]:
        return tuple(range(self.min_bid, self.max_bid + 1))


@dataclass(frozen=True)
class TrixParams:
    """Trix Complex Partnership (``trix_complex``, TX)."""

    variant: str = "trix_complex"
    rules: str = "TX"
    kingdoms: int = 4  # TX.3
    contracts: tuple[str, ...] = ("complex", "trix")  # TX.3: each kingdom plays both
    trick_cost: int = 15  # TX.6: −15 per trick taken
    diamond_cost: int = 10  # TX.6: −10 per diamond
    queen_cost: int = 25  # TX.6: −25 per queen; TX.8: v = 25
    king_of_hearts_cost: int = 75  # TX.6: −75 for K♥; TX.8: v = 75
    placings: tuple[int, ...] = (200, 150, 100, 50)  # TX.10: by the order of going out

    @property
    def deals(self) -> int:
        """TX.3, TX.11: the match is this many deals (4 kingdoms × 2 contracts = 8)."""
        return self.kingdoms * len(self.contracts)

    @property
    def complex_total(self) -> int:
        """TX.6: what a Complex deal without doubles costs the four seats together (−500):
        13 tricks, 13 diamonds, 4 queens and K♥."""
        return -(
            13 * self.trick_cost
            + 13 * self.diamond_cost
            + 4 * self.queen_cost
            + self.king_of_hearts_cost
        )

    @property
    def trix_total(self) -> int:
        """TX.10: what a Trix deal gives the four seats together (+500)."""
        return sum(self.placings)


Params: TypeAlias = PartnershipParams | SoloParams | TrixParams

SYRIAN41 = PartnershipParams("syrian41", "T41")
TARNEEB41_DOUBLE = PartnershipParams(
    "tarneeb41_double",
    "T41D",
    forbidden_bids=frozenset({6}),  # T41D.1
    no_two_from=30,  # T41D.2
    min_total=12,  # T41D.3
    double_from=7,  # T41D.4
)
TARNEEB_SOLO = SoloParams()
TRIX_COMPLEX = TrixParams()

PARAMS: dict[str, Params] = {
    "syrian41": SYRIAN41,
    "tarneeb41_double": TARNEEB41_DOUBLE,
    "tarneeb_solo": TARNEEB_SOLO,
    "trix_complex": TRIX_COMPLEX,
}
#: the two partnership variants (T41, T41D), for code that handles both
PARTNERSHIP_PARAMS: dict[str, PartnershipParams] = {
    "syrian41": SYRIAN41,
    "tarneeb41_double": TARNEEB41_DOUBLE,
}


def variant_params(variant: str) -> Params:
    """The rule parameters of ``variant`` (``ValueError`` for an unknown one)."""
    params = PARAMS.get(variant) if isinstance(variant, str) else None
    if params is None:
        raise ValueError(f"unknown variant {variant!r}; known: {sorted(PARAMS)}")
    return params


__all__ = [
    "PARAMS",
    "PARTNERSHIP_PARAMS",
    "SYRIAN41",
    "TARNEEB41_DOUBLE",
    "TARNEEB_SOLO",
    "TRIX_COMPLEX",
    "Params",
    "PartnershipParams",
    "SoloParams",
    "TrixParams",
    "variant_params",
]
