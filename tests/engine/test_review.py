"""The review after a deal (``engine.review``): every card's double-dummy figures for its
player's side, worked out by hand on small endings, and the invariants that must hold on
deals the computer players played through the real engine."""

from __future__ import annotations

import functools
import itertools
import json
from typing import Any

import pytest

import engine
from engine.cards import CARD_BY_CODE, suit_index
from engine.players import doubledummy
from engine.players.heuristic import HeuristicPlayer
from engine.records import DealRecord, TrickRecord, replay
from engine.review import VERSION, DealReview, review_deal
from engine.tricks import trick_winner

pytestmark = pytest.mark.skipif(not doubledummy.available(), reason="DDS is not installed")
COMPLEX_DEAL_POINTS = -500  # TX.6, TX.8: a Complex deal totals -500, doubled or not


def ending(
    hands: list[str], tricks: list[str], trump: str | None, leader: int, **fields: Any
) -> DealRecord:
    """A deal record of a few tricks: ``tricks`` as the leader's card then the next
    seats'; each trick's winner is worked out by the trick rule (T41.7, TX.5)."""
    played: list[TrickRecord] = []
    won = [0, 0, 0, 0]
    for text in tricks:
        cards = text.split()
        winner = (leader + trick_winner([CARD_BY_CODE[c] for c in cards], _trump(trump))) % 4
        played.append(TrickRecord(leader, tuple(cards), winner))
        won[winner] += 1
        leader = winner
    return DealRecord(
        number=1,
        dealer=None,
        hands=tuple(tuple(hand.split()) for hand in hands),
        trump=trump,
        tricks=tuple(played),
        tricks_won=tuple(won),
        **fields,
    )


def _trump(letter: str | None) -> int:
    return -1 if letter is None else suit_index(letter)


def figures(review: DealReview) -> list[tuple[int, str, int | None, int | None, int | None]]:
    return [(c.seat, c.card, c.before, c.after, c.cost) for c in review.cards]


# Spades are trump but nobody holds one. North (0) leads three top hearts and then the
# 2C; South (2), void in hearts, must keep the AC for the last trick: discarding it on the
# first heart lets East-West's 4C take that trick.
HANDS = ["AH KH QH 2C", "3H 4H 5H 3C", "AC 6D 7D 8D", "6H 7H 8H 4C"]
PLAY = ["AH 3H AC 6H", "KH 4H 6D 7H", "QH 5H 7D 8H", "2C 3C 8D 4C"]


def test_a_discard_that_throws_away_a_sure_trick_costs_one_and_names_the_cards_that_kept_it() -> (
    None
):
    deal = ending(HANDS, PLAY, "S", 0, bids=(2, 2, 3, 4))
    review = review_deal("syrian41", deal)
    assert figures(review) == [
        (0, "AH", 4, 4, 0),
        (1, "3H", 0, 0, 0),  # East-West's figures: what they can still take, 4 - North-South's
        (2, "AC", 4, 3, 1),  # the mistake
        (3, "6H", 1, 1, 0),
        (0, "KH", 3, 3, 0),
        (1, "4H", 1, 1, 0),
        (2, "6D", 3, 3, 0),
        (3, "7H", 1, 1, 0),
        (0, "QH", 3, 3, 0),
        (1, "5H", 1, 1, 0),
        (2, "7D", 3, 3, 0),
        (3, "8H", 1, 1, 0),
        (0, "2C", 3, 3, 0),
        (1, "3C", 1, 1, 0),
        (2, "8D", 3, 3, 0),
        (3, "4C", 1, 1, 0),
    ]
    assert review.cards[2].better == ("6D", "7D", "8D")
    assert all(c.better == () for c in review.cards if c.index != 2)
    assert {c.method for c in review.cards} == {"dds"}
    assert review.lost == (0, 0, 1, 0)
    assert [(s.seats, s.makeable, s.bid, s.took) for s in review.sides] == [
        ((0, 2), 4, 5, 3),  # T41.5: the side's bid is its two personal bids summed
        ((1, 3), 0, 6, 1),
    ]


def test_in_solo_the_declarers_opposite_defends_so_the_same_discard_costs_nothing() -> None:
    """TS.1, TS.8: North declares alone; South is a defender, and the AC it throws away
    was East-West's trick as much as its own: the defenders still take one trick."""
    deal = ending(HANDS, PLAY, "S", 0, declarer=0, bid=7)
    review = review_deal("tarneeb_solo", deal)
    assert {c.method for c in review.cards} == {"endgame"}  # four tricks: all in the window
    assert [(c.before, c.after, c.cost) for c in review.cards[:4]] == [
        (3, 3, 0),  # the declarer: AH KH QH, never the last club
        (1, 1, 0),  # the three defenders together
        (1, 1, 0),
        (1, 1, 0),
    ]
    assert review.lost == (0, 0, 0, 0)
    assert [(s.seats, s.makeable, s.bid, s.took) for s in review.sides] == [
        ((0,), None, 7, 3),  # TS.6: the declarer's bid; nothing exact from the opening lead
        ((1, 2, 3), None, None, 1),
    ]


def test_a_complex_discard_is_marked_in_points_with_its_double() -> None:
    """TX.6, TX.8. South (2) doubled its QS and is void in clubs when North leads the 2C
    under East's AC. Discarding the queen there gives it to East (-15 -50 to East, +25 to
    South); then South's 5D must take the diamonds: North-South -30. Keeping it and
    discarding the 5D, East takes the last trick with the queen led to it: North-South +25."""
    hands = ["2C 3D", "AC 4D", "QS 5D", "3C 2D"]
    play = ["2C AC QS 3C", "4D 5D 2D 3D"]
    deal = ending(hands, play, None, 0, contract="complex", doubled=(("QS", 2),))
    review = review_deal("trix_complex", deal)
    assert review.unit == "points"
    assert figures(review) == [
        (0, "2C", 25, 25, 0),  # leading the 3D instead gives South the diamonds and the queen
        (1, "AC", -120, -120, 0),
        (2, "QS", 25, -30, 55),
        (3, "3C", -65, -65, 0),
        (1, "4D", -65, -65, 0),
        (2, "5D", -30, -30, 0),
        (3, "2D", -65, -65, 0),
        (0, "3D", -30, -30, 0),
    ]
    assert review.cards[2].better == ("5D",)
    assert review.lost == (0, 0, 55, 0)
    assert review.sides == ()


def test_the_trix_layout_has_no_marks_and_says_so() -> None:
    """TX.9: a layout, not tricks; no exact analysis exists, so every figure is None."""
    layout = ((0, "JH"), (1, "pass"), (2, "QH"), (3, "TH"))
    deal = DealRecord(
        number=2, dealer=None, hands=((), (), (), ()), contract="trix", layout=layout
    )
    review = review_deal("trix_complex", deal)
    assert [(c.index, c.seat, c.card) for c in review.cards] == [
        (0, 0, "JH"),
        (1, 2, "QH"),
        (2, 3, "TH"),
    ]
    assert all(
        (c.method, c.before, c.after, c.cost, c.better) == (None,) * 5 for c in review.cards
    )
    assert review.lost == (None, None, None, None)
    assert [r.to_dict() for r in review.ranges] == [{"start": 0, "stop": 3, "method": None}]


def test_a_deal_still_being_played_is_not_reviewed() -> None:
    deal = ending(HANDS, PLAY[:1], "S", 0, finished=False)
    with pytest.raises(ValueError):
        review_deal("syrian41", deal)


def test_the_review_is_plain_json_with_card_codes_and_its_format_version() -> None:
    review = review_deal("syrian41", ending(HANDS, PLAY, "S", 0, bids=(2, 2, 3, 4)))
    data = review.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["version"] == VERSION
    assert (data["variant"], data["deal"], data["unit"]) == ("syrian41", 1, "tricks")
    assert data["ranges"] == [{"start": 0, "stop": 16, "method": "dds"}]
    assert data["cards"][2] == {
        "index": 2,
        "seat": 2,
        "card": "AC",
        "method": "dds",
        "before": 4,
        "after": 3,
        "cost": 1,
        "better": ["6D", "7D", "8D"],
    }
    assert data["lost"] == [0, 0, 1, 0]
    assert data["sides"][0] == {"seats": [0, 2], "makeable": 4, "bid": 5, "took": 3}


@functools.cache
def played_deals(variant: str, seed: int, deals: int) -> tuple[DealRecord, ...]:
    """The first scored deals of a match the heuristic players played, replayed from its
    log as the tables keep it."""
    match = engine.new_match(variant, seed=seed)
    player = HeuristicPlayer()
    moves: list[tuple[int, dict[str, Any]]] = []
    while match.result is None and match.deal_number < deals + 4:
        seat = match.to_act[0]
        action = player.decide(match.view(seat))
        match.apply(seat, action)
        moves.append((seat, action))
    record = replay(variant, {}, seed, None, moves)
    return tuple(d for d in record.deals if d.scored)[:deals]


def side_of(declarer: int | None, seat: int) -> tuple[int, ...]:
    """The seat's side: its partnership (T41.1, TX.1), or in Solo the declarer against the
    other three (TS.8)."""
    if declarer is not None:
        return (declarer,) if seat == declarer else tuple(s for s in range(4) if s != declarer)
    return (seat % 2, seat % 2 + 2)


def side_result(variant: str, deal: DealRecord, seats: tuple[int, ...]) -> int:
    if variant == "trix_complex":
        return sum(deal.deltas[s] for s in seats)  # TX.6: the deal's points
    return sum(deal.tricks_won[s] for s in seats)


@pytest.mark.parametrize(
    "variant", ["syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex"]
)
def test_a_played_deal_adds_up_card_by_card(variant: str) -> None:
    """On real deals: every cost is before - after and never negative; one card's
    ``after`` is the next card's ``before`` (seen from the other side: the rest of the
    deal's total); the last ``after`` is what the side took; and over the analysed cards,
    a side's first figure minus its result is exactly its lost tricks minus the other
    side's (each card moves the figure only by its own player's mistakes)."""
    for deal in played_deals(variant, 3, 2):
        review = review_deal(variant, deal)
        cards = [c for c in review.cards if c.method is not None]
        if deal.contract == "trix":
            assert cards == [] and review.lost == (None,) * 4
            continue
        side = functools.partial(side_of, deal.declarer)

        total = COMPLEX_DEAL_POINTS if variant == "trix_complex" else 13
        assert cards and cards[-1].index == 51
        for card in cards:
            assert card.cost == card.before - card.after >= 0
            assert (card.better == ()) == (card.cost == 0)
            assert card.card not in card.better
        for card, following in itertools.pairwise(cards):
            same = side(card.seat) == side(following.seat)
            assert following.before == (card.after if same else total - card.after)
        last = cards[-1]
        assert last.after == side_result(variant, deal, side(last.seat))
        lost = {
            s: sum(c.cost or 0 for c in cards if side(c.seat) == s) for s in map(side, range(4))
        }
        for seats, mine in lost.items():
            first = next(c for c in cards if side(c.seat) == seats)
            # The other side's earlier mistakes raised this side's figure before its first card.
            start = first.before - sum(c.cost or 0 for c in cards[: cards.index(first)])
            theirs = sum(v for s, v in lost.items() if s != seats)
            assert start - side_result(variant, deal, seats) == mine - theirs
        for seat in range(4):
            assert review.lost[seat] == sum(c.cost or 0 for c in cards if c.seat == seat)
        if variant in ("syrian41", "tarneeb41_double"):
            assert len(cards) == 52
            first_side = side(cards[0].seat)
            makeable = {s.seats: s.makeable for s in review.sides}
            assert makeable[first_side] == cards[0].before
            assert sum(v or 0 for v in makeable.values()) == 13
        else:
            assert cards[0].index == 32  # the last five tricks, searched exactly
            assert all(c.method is None and c.before is None for c in review.cards[:32])
