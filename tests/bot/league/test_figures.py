"""Per-seat figures: additive counters, checked against the engine's own history and
events, and on stacked deals whose outcome is known by hand (TS.8 kaboot, TX.8 cases)."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from bot.league.figures import FAMILIES, FAMILY_VARIANTS, FIGURE_KEYS, family, figures
from engine.dealing import deck_for_hands
from engine.records import DealRecord, MatchRecord
from tests.bot.render.support import VARIANTS
from tests.engine.test_records import SEEDS, Played, finished, start

ORDERED_DECK = [rank + suit for suit in "CDHS" for rank in "23456789TJQKA"]


def test_every_variant_has_one_family() -> None:
    assert set(FAMILIES) == set(FAMILY_VARIANTS) == set(FIGURE_KEYS)
    listed = [v for variants in FAMILY_VARIANTS.values() for v in variants]
    assert sorted(listed) == sorted(engine.VARIANTS)
    assert family("syrian41") == family("tarneeb41_double") == "tarneeb"
    assert family("tarneeb_solo") == "solo"
    assert family("trix_complex") == "trix"
    with pytest.raises(ValueError):
        family("poker")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_each_seat_has_every_key_of_its_family_as_an_int(variant: str, seed: int) -> None:
    _, record = finished(variant, seed)
    per_seat = figures(record)
    assert len(per_seat) == 4
    for figure in per_seat:
        assert tuple(figure) == FIGURE_KEYS[family(variant)]
        assert all(
            type(value) is int and value >= 0
            for key, value in figure.items()
            if key != "kingdom_points"
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", ["syrian41", "tarneeb41_double"])
def test_tarneeb_figures_follow_the_engine_history(variant: str, seed: int) -> None:
    played, record = finished(variant, seed)
    expected = [Counter({"deals": 0, "bids_made": 0, "bid_total": 0}) for _ in range(4)]
    history = played.match.view(None)["history"]
    assert any(entry["cancelled"] for entry in history)  # T41.6: skipped below
    for entry in history:
        if entry["cancelled"]:
            continue
        for seat in range(4):
            expected[seat]["deals"] += 1
            expected[seat]["bid_total"] += entry["bids"][seat]
            expected[seat]["bids_made"] += entry["made"][seat]  # T41.8
    assert figures(record) == [dict(c) for c in expected]


@pytest.mark.parametrize("seed", SEEDS)
def test_solo_figures_follow_the_engine_history(seed: int) -> None:
    played, record = finished("tarneeb_solo", seed)
    keys = FIGURE_KEYS["solo"]
    expected = [dict.fromkeys(keys, 0) for _ in range(4)]
    for entry in played.match.view(None)["history"]:
        declarer = entry["declarer"]
        expected[declarer]["declared"] += 1
        expected[declarer]["declared_bid_total"] += entry["bid"]
        expected[declarer]["declared_made"] += int(entry["made"])  # TS.8
        for seat in range(4):
            expected[seat]["deals"] += 1
            expected[seat]["kaboot"] += int(entry["tricks"][seat] == 13)
    assert figures(record) == expected


def test_solo_kaboot_counts_the_seat_that_took_all_13_tricks() -> None:
    """Seat 1 holds every spade, declares 7 in spades and so takes all 13 (TS.8: +16)."""
    spades = [code for code in ORDERED_DECK if code[1] == "S"]
    rest = [code for code in ORDERED_DECK if code[1] != "S"]
    hands = [rest[0:13], spades, rest[13:26], rest[26:39]]
    deck = deck_for_hands(hands, 1)  # TS.2: dealer 0 deals first to seat 1
    played = start("tarneeb_solo", options={"first_dealer": 0}, decks=[deck])
    played.apply(1, {"type": "bid", "value": 7})
    for seat in (2, 3, 0):
        played.apply(seat, {"type": "pass"})
    played.apply(1, {"type": "trump", "suit": "S"})
    while played.match.deal_number == 1:
        played.step()
    record = played.record()
    assert len(record.deals) == 1  # the next deal is dealt but untouched
    assert record.deals[0].tricks_won == (0, 13, 0, 0)
    assert record.deals[0].deltas[1] == 16  # TS.8: kaboot
    declarer = {"deals": 1, "declared": 1, "declared_made": 1, "declared_bid_total": 7}
    other = dict.fromkeys(declarer, 0) | {"deals": 1}
    assert figures(record) == [
        other | {"kaboot": 0},
        declarer | {"kaboot": 1},
        other | {"kaboot": 0},
        other | {"kaboot": 0},
    ]


def complex_deal_with_three_doubles() -> Played:
    """A stacked first Complex deal whose first three tricks take the three doubled cards,
    one TX.8 case each:

    1. seat 0 leads K♠, seat 1 follows with its doubled Q♠: seat 0 takes it (case 1);
    2. seat 0 leads 2♥, seat 2 follows with its doubled K♥, the highest: seat 2 takes
       its own card on another's lead (case 2);
    3. seat 2 leads its doubled Q♦ and nobody beats it (case 3).
    """
    fixed = [
        ["7H", "KS", "AS", "2H", "AH", "3D"],  # 7♥: seat 0 owns the first kingdom (TX.3)
        ["QS", "3H", "4D"],
        ["2S", "KH", "QD", "KD", "AD"],
        ["3S", "4H", "2D"],
    ]
    rest = iter(code for code in ORDERED_DECK if all(code not in hand for hand in fixed))
    hands = [hand + [next(rest) for _ in range(13 - len(hand))] for hand in fixed]
    played = start("trix_complex", decks=[deck_for_hands(hands, 0)])  # TX.2: from seat 0
    played.apply(0, {"type": "contract", "contract": "complex"})
    doubles = {1: ["QS"], 2: ["KH", "QD"]}
    for seat in list(played.match.to_act):
        played.apply(seat, {"type": "double", "cards": doubles.get(seat, [])})
    for seat, code in [
        *((0, "KS"), (1, "QS"), (2, "2S"), (3, "3S")),
        *((0, "2H"), (1, "3H"), (2, "KH"), (3, "4H")),
        *((2, "QD"), (3, "2D"), (0, "3D"), (1, "4D")),
    ]:
        played.apply(seat, {"type": "play", "card": code})
    while played.match.deal_number == 1:
        played.step()
    return played


def test_tx8_doubles_won_when_another_takes_the_card_and_lost_when_the_doubler_does() -> None:
    played = complex_deal_with_three_doubles()
    record = played.record()
    deal = record.deals[0]
    assert set(deal.doubled) == {("QS", 1), ("KH", 2), ("QD", 2)}
    # The engine scored the three tricks as TX.8 says: case 1, case 2, case 3.
    points = [e["points"] for _, e in played.events if e["type"] == "trick_won"][:3]
    assert points[0] == [-15 - 50, 25, 0, 0]  # case 1: the taker −2v, the doubler +v
    assert points[1] == [75, 0, -15 - 150, 0]  # case 2: the doubler −2v, the leader +v
    assert points[2] == [0, 0, -15 - 4 * 10 - 25, 0]  # case 3: the doubler −v (4 diamonds)
    per_seat = figures(record)
    assert [(f["doubles_won"], f["doubles_lost"]) for f in per_seat] == [
        (0, 0),
        (1, 0),
        (0, 2),
        (0, 0),
    ]
    # The kingdom's second deal is not played: no kingdom counts yet.
    assert all(f["kingdoms_owned"] == 0 and f["kingdom_points"] == 0 for f in per_seat)


@pytest.mark.parametrize("seed", SEEDS)
def test_trix_figures_follow_the_engine_history_and_events(seed: int) -> None:
    played, record = finished("trix_complex", seed)
    expected = [dict.fromkeys(FIGURE_KEYS["trix"], 0) for _ in range(4)]
    history = played.match.view(None)["history"]
    for first, second in zip(history[::2], history[1::2], strict=True):  # TX.3
        owner = first["owner"]
        assert second["owner"] == owner
        expected[owner]["kingdoms_owned"] += 1
        expected[owner]["kingdom_points"] += first["deltas"][owner] + second["deltas"][owner]
    doubler: dict[str, int] = {}
    for _, event in played.events:
        if event["type"] == "doubles_revealed":
            doubler = {d["card"]: d["seat"] for d in event["doubled"]}
        elif event["type"] == "trick_won":
            for code in event["cards"]:
                if code in doubler:
                    won = event["seat"] != doubler[code]  # TX.8 case 1, else cases 2–3
                    expected[doubler[code]]["doubles_won" if won else "doubles_lost"] += 1
    assert figures(record) == expected
    assert sum(f["kingdoms_owned"] for f in expected) == 4


def test_a_doubled_card_no_trick_took_counts_neither_way() -> None:
    deal = DealRecord(
        number=1,
        dealer=None,
        hands=((), (), (), ()),
        kingdom=1,
        owner=0,
        contract="complex",
        doubled=(("QS", 1),),
    )
    record = MatchRecord("trix_complex", (deal,), None, (0, 0, 0, 0), (0, 0))
    assert all(f["doubles_won"] == f["doubles_lost"] == 0 for f in figures(record))


def test_cancelled_and_unfinished_deals_count_nothing() -> None:
    played = start("syrian41", seed=5, options={"first_dealer": 0})
    for seat in (1, 2, 3, 0):
        played.apply(seat, {"type": "bid", "value": 2})  # T41.6: cancelled
    for _ in range(10):
        played.step()  # into the redeal, which the log stops in the middle of
    record = played.record()
    assert [deal.scored for deal in record.deals] == [False, False]
    assert all(value == 0 for figure in figures(record) for value in figure.values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_figures_add_up_over_seats_and_matches(variant: str) -> None:
    """The counters are additive: a player's figures over matches are key-by-key sums,
    and summed over the four seats they give the matches' own totals."""
    records = [finished(variant, seed)[1] for seed in SEEDS]
    total: Counter[str] = Counter()
    for record in records:
        for figure in figures(record):
            total.update(figure)
    scored = [deal for record in records for deal in record.deals if deal.scored]
    name = family(variant)
    if name == "tarneeb":
        assert total["deals"] == 4 * len(scored)
        assert total["bid_total"] == sum(b or 0 for deal in scored for b in deal.bids)
    elif name == "solo":
        assert total["deals"] == 4 * len(scored)
        assert total["declared"] == len(scored)
        assert total["declared_bid_total"] == sum(deal.bid or 0 for deal in scored)
    else:
        assert total["kingdoms_owned"] == 4 * len(records)
        # Each kingdom is worth its owner's points in its two deals.
        assert total["kingdom_points"] == sum(
            deal.deltas[deal.owner] for deal in scored if deal.owner is not None
        )
        doubled = sum(len(deal.doubled) for deal in scored)
        assert total["doubles_won"] + total["doubles_lost"] == doubled
