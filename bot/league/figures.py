"""Per-seat figures of a finished match, read from its replayed record.

Every figure is an additive integer counter, so a player's figures over many matches are
the key-by-key sums of the figures of their seats; rates (bids made per deal, points per
kingdom) are divided out when shown, never stored. Pure: no I/O.
"""

from __future__ import annotations

from engine import FAMILIES, VARIANTS
from engine.records import DealRecord, MatchRecord

#: the families of games whose figures are kept together, and their variants
FAMILY_VARIANTS: dict[str, tuple[str, ...]] = {
    name: tuple(v.id for v in VARIANTS.values() if v.family == name) for name in FAMILIES
}
#: the counters of each family, in the order they are shown
FIGURE_KEYS: dict[str, tuple[str, ...]] = {
    "tarneeb": ("deals", "bids_made", "bid_total"),
    "solo": ("deals", "declared", "declared_made", "declared_bid_total", "kaboot"),
    "trix": ("kingdoms_owned", "kingdom_points", "doubles_won", "doubles_lost"),
}
ALL_TRICKS = 13  # TS.8: all 13 tricks are always played; taking them all is kaboot


def family(variant: str) -> str:
    """The family of ``variant``: "tarneeb", "solo" or "trix" (``ValueError`` if unknown)."""
    info = VARIANTS.get(variant)
    if info is None:
        raise ValueError(f"unknown variant {variant!r}")
    return info.family


def figures(record: MatchRecord) -> list[dict[str, int]]:
    """One dict of counters per seat (0..3), every key of the variant's family present.

    Only deals played to the end count: cancelled deals (T41.6, T41D.3) and a deal the
    log stopped in the middle of are left out."""
    name = family(record.variant)
    seats = [dict.fromkeys(FIGURE_KEYS[name], 0) for _ in range(4)]
    deals = [deal for deal in record.deals if deal.scored]
    if name == "tarneeb":
        for deal in deals:
            _tarneeb(deal, seats)
    elif name == "solo":
        for deal in deals:
            _solo(deal, seats)
    else:
        _kingdoms(deals, seats)
        for deal in deals:
            _doubles(deal, seats)
    return seats


def _tarneeb(deal: DealRecord, seats: list[dict[str, int]]) -> None:
    """T41.5, T41.8: every seat bids; a bid is made with at least that many tricks."""
    for seat, figure in enumerate(seats):
        bid = deal.bids[seat]
        if bid is None:  # a scored partnership deal has four bids; be safe
            continue
        figure["deals"] += 1
        figure["bid_total"] += bid
        figure["bids_made"] += int(deal.tricks_won[seat] >= bid)


def _solo(deal: DealRecord, seats: list[dict[str, int]]) -> None:
    """TS.6, TS.8: the declarer's contract, made with at least the bid; kaboot is one
    seat taking all 13 tricks."""
    for seat, figure in enumerate(seats):
        figure["deals"] += 1
        figure["kaboot"] += int(deal.tricks_won[seat] == ALL_TRICKS)
    declarer, bid = deal.declarer, deal.bid
    if declarer is None or bid is None:
        return
    figure = seats[declarer]
    figure["declared"] += 1
    figure["declared_bid_total"] += bid
    figure["declared_made"] += int(deal.tricks_won[declarer] >= bid)


def _kingdoms(deals: list[DealRecord], seats: list[dict[str, int]]) -> None:
    """TX.3: a kingdom is its owner's two deals; only kingdoms with both deals played
    count, so points per kingdom compare like with like."""
    kingdoms: dict[int, list[DealRecord]] = {}
    for deal in deals:
        if deal.kingdom is not None:
            kingdoms.setdefault(deal.kingdom, []).append(deal)
    for played in kingdoms.values():
        owner = played[0].owner
        if owner is None or len(played) < 2:
            continue
        seats[owner]["kingdoms_owned"] += 1
        seats[owner]["kingdom_points"] += sum(deal.deltas[owner] for deal in played)


def _doubles(deal: DealRecord, seats: list[dict[str, int]]) -> None:
    """TX.8: a doubled card taken by anyone but its doubler is won by the doubler (case 1);
    taken by the doubler himself it is lost (cases 2 and 3). A doubled card no trick took
    (impossible in Complex: all 13 tricks are played) counts neither way."""
    taker = {code: trick.winner for trick in deal.tricks for code in trick.cards}
    for code, doubler in deal.doubled:
        winner = taker.get(code)
        if winner is None:
            continue
        if winner == doubler:
            seats[doubler]["doubles_lost"] += 1
        else:
            seats[doubler]["doubles_won"] += 1


__all__ = ["FAMILIES", "FAMILY_VARIANTS", "FIGURE_KEYS", "family", "figures"]
