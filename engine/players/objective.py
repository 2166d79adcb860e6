"""What side tricks are worth in partnership Tarneeb: the deal's score, not the trick count.

A double-dummy solver counts the tricks a side takes from here. The score (T41.8, T41D.4)
pays each player +bid when their own tricks reach their own bid and -bid when not, and
nothing for overtricks; so a trick is worth a lot when it makes or breaks a bid and nothing
otherwise. Playing for the most tricks (as a bridge solver does) gives away contracts for
overtricks; playing for the score does not.

``trick_values`` turns "our side takes f of the tricks left" into the deal's team margin
(our two score changes minus theirs), assuming each side then gives its tricks to whichever
of its partners needs them most (the side would, given the cards: it is optimistic for both
sides alike). The value depends only on the bids and the tricks taken so far, so it is made
once per decision and looked up for every sampled deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.params import PARTNERSHIP_PARAMS, TARNEEB_SOLO, PartnershipParams
from engine.players.complex import COST
from engine.players.endgame import Endgame, Tally
from engine.players.knowledge import Knowledge
from engine.solo import solo_deltas
from engine.trix import trick_points


def side_trick_values(know: Knowledge) -> list[int]:
    """``trick_values`` for this seat's side in its deal so far."""
    params = PARTNERSHIP_PARAMS[know.variant]
    return trick_values(params, know.bid_values, know.tricks_won, know.seat)


def trick_values(
    params: PartnershipParams, bids: Sequence[int], won: Sequence[int], seat: int
) -> list[int]:
    """For f = 0 .. the tricks left: the team margin of ``seat``'s side when that side
    takes f of the remaining tricks and the other side the rest."""
    left = 13 - sum(won)
    mine, theirs = (seat, seat ^ 2), (seat ^ 1, seat ^ 3)
    return [
        _best_share(params, bids, won, mine, f) - _best_share(params, bids, won, theirs, left - f)
        for f in range(left + 1)
    ]


def _best_share(
    params: PartnershipParams,
    bids: Sequence[int],
    won: Sequence[int],
    side: tuple[int, int],
    tricks: int,
) -> int:
    """The side's two score changes (T41.8), with ``tricks`` more to share between them as
    well as it can: both bids if they fit, else the one that is worth more."""
    first, second = side
    need = [max(0, bids[first] - won[first]), max(0, bids[second] - won[second])]
    value = [params.bid_value(bids[first]), params.bid_value(bids[second])]
    if need[0] + need[1] <= tricks:
        return value[0] + value[1]
    best = -value[0] - value[1]
    for made in (0, 1):
        if need[made] <= tricks:
            best = max(best, value[made] - value[1 - made])
    return best


def exact_search(know: Knowledge) -> tuple[Endgame, int]:
    """An exact search of the last tricks scored as this deal is (the seat's side
    maximizes), and the sign that turns its values into this seat's: -1 where the seat is
    on the minimizing side (a solo defender).

    - Partnership Tarneeb: the team margin of the deal's score changes, each seat's own
      tricks against its own bid (T41.8, T41D.4).
    - Solo Tarneeb: the declarer against the other three, the declarer's score change
      against the others' average (TS.8); defenders play to break the contract.
    - Complex: the team margin of the penalties and doubling points (TX.6, TX.8).
    """
    seat = know.seat
    won = know.tricks_won
    side = 1 << seat | 1 << (seat ^ 2)
    if know.variant == "trix_complex":
        doubled = know.doubled

        def complex_points(cards: list[int], seats: list[int], winner: int, tally: Tally) -> Tally:
            a, b, c, d = trick_points(cards, seats[0], winner, doubled)
            return (tally[0] + a, tally[1] + b, tally[2] + c, tally[3] + d)

        def complex_margin(tally: Tally) -> float:
            return tally[seat] + tally[seat ^ 2] - tally[seat ^ 1] - tally[seat ^ 3]

        return Endgame(-1, side, complex_margin, complex_points, COST), 1
    if know.variant == "tarneeb_solo":
        declarer = know.declarer if know.declarer is not None else seat
        bid = know.contract_bid or TARNEEB_SOLO.min_bid

        def solo_margin(tally: Tally) -> float:
            deltas = solo_deltas(bid, declarer, [won[s] + tally[s] for s in range(4)])
            return 4 * deltas[declarer] - sum(deltas)

        return Endgame(know.trump, 1 << declarer, solo_margin), 1 if seat == declarer else -1
    params = PARTNERSHIP_PARAMS[know.variant]
    bids = know.bid_values

    def team_margin(tally: Tally) -> float:
        deltas = params.deltas(bids, [won[s] + tally[s] for s in range(4)])
        return deltas[seat] + deltas[seat ^ 2] - deltas[seat ^ 1] - deltas[seat ^ 3]

    return Endgame(know.trump, side, team_margin), 1


__all__ = ["exact_search", "side_trick_values", "trick_values"]
