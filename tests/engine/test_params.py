"""Each variant's exported rule parameters (``engine.params``) are the ones the rules use.

Every test reads a number from the parameters and checks that the engine behaves by it: a
bid the parameters forbid is refused, a total below the exported minimum cancels the
deal, the exported target decides the match, and so on. The fast path, the computer
players and the renderer are checked to read the same numbers (the renderer's rules text
and table lines show the exported figures), so a parameter is stated once and a change to
it reaches every reader.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from typing import Any

import pytest

import engine
from engine.cards import parse_card
from engine.dealing import deck_for_hands
from engine.fast import random_solo_deal, random_tarneeb_deal
from engine.params import (
    PARAMS,
    PARTNERSHIP_PARAMS,
    SYRIAN41,
    TARNEEB41_DOUBLE,
    TARNEEB_SOLO,
    TRIX_COMPLEX,
    PartnershipParams,
    variant_params,
)
from engine.players import new_player
from engine.players.heuristic import bid_context
from engine.players.knowledge import read_view
from engine.solo import SoloTarneeb
from engine.tarneeb import Syrian41, Tarneeb41Double
from engine.trix import DOUBLABLE, TrixComplex, trick_points
from tests.engine.scripts import SUIT_CARDS, bid_round, events_of, one_suit_deck, play_out, refused

PARTNERSHIP = sorted(PARTNERSHIP_PARAMS)


def bids_of(match: engine.Match, seat: int) -> list[int]:
    return [a["value"] for a in match.legal_actions(seat) if a["type"] == "bid"]


def bids_totalling(params: PartnershipParams, total: int) -> list[int]:
    """Four bids that exist in the variant and add up to ``total``."""
    for bids in itertools.product(params.bids, repeat=4):
        if sum(bids) == total:
            return list(bids)
    raise AssertionError(f"no four bids total {total}")


# ---------------------------------------------------------------- the module itself


def test_every_variant_exports_its_parameters_once() -> None:
    assert set(PARAMS) == set(engine.VARIANTS)
    for variant, info in engine.VARIANTS.items():
        params = engine.variant_params(variant)
        assert info.params is params is PARAMS[variant]
        assert params.variant == variant and params.rules == info.rules
    assert Syrian41.params is SYRIAN41 and Tarneeb41Double.params is TARNEEB41_DOUBLE
    assert SoloTarneeb.params is TARNEEB_SOLO and TrixComplex.params is TRIX_COMPLEX
    with pytest.raises(ValueError):
        variant_params("tarneeb_41")


def test_parameters_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        TARNEEB41_DOUBLE.min_total = 11  # type: ignore[misc]


def test_the_parameters_say_what_the_rules_say() -> None:
    """The figures of rules.md, read once more against the exported values."""
    assert (SYRIAN41.min_bid, SYRIAN41.max_bid, SYRIAN41.min_total) == (2, 13, 11)  # T41.5-6
    assert SYRIAN41.forbidden_bids == frozenset() and SYRIAN41.double_from is None  # T41.8
    assert SYRIAN41.no_two_from is None and SYRIAN41.target == 41  # T41.9
    assert TARNEEB41_DOUBLE.forbidden_bids == {6} and TARNEEB41_DOUBLE.no_two_from == 30
    assert TARNEEB41_DOUBLE.min_total == 12 and TARNEEB41_DOUBLE.double_from == 7
    assert TARNEEB41_DOUBLE.target == 41  # T41D.5
    assert TARNEEB_SOLO.targets == (31, 51, 61) and TARNEEB_SOLO.default_target == 31
    assert (TARNEEB_SOLO.min_bid, TARNEEB_SOLO.max_bid) == (7, 13)  # TS.3
    assert (TARNEEB_SOLO.kaboot, TARNEEB_SOLO.grand_slam, TARNEEB_SOLO.grand_slam_failed) == (
        16,
        26,
        16,
    )
    assert (TRIX_COMPLEX.kingdoms, TRIX_COMPLEX.deals) == (4, 8)  # TX.3
    assert TRIX_COMPLEX.complex_total == -500 and TRIX_COMPLEX.trix_total == 500  # TX.6, TX.10


def test_t41d_4_bid_values_double_from_the_threshold() -> None:
    assert [TARNEEB41_DOUBLE.bid_value(b) for b in (5, 7, 8, 13)] == [5, 14, 16, 26]
    assert [SYRIAN41.bid_value(b) for b in (5, 7, 8, 13)] == [5, 7, 8, 13]


# ---------------------------------------------------------------- T41 / T41D


@pytest.mark.parametrize("variant", PARTNERSHIP)
def test_the_bids_that_exist_are_the_exported_ones(variant: str) -> None:
    params = PARTNERSHIP_PARAMS[variant]
    match = engine.new_match(variant, seed=3)
    seat = match.to_act[0]
    assert bids_of(match, seat) == list(params.bids) == list(params.legal_bids(0))
    for value in params.forbidden_bids:  # T41D.1
        refused(match, seat, {"type": "bid", "value": value}, "bid_forbidden")
    for value in (params.min_bid - 1, params.max_bid + 1):  # T41.5
        refused(match, seat, {"type": "bid", "value": value}, "bid_out_of_range")
    assert set(params.bids) | set(params.forbidden_bids) == set(
        range(params.min_bid, params.max_bid + 1)
    )


def test_the_engine_follows_altered_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules read their variant's parameters and restate none: a T41D built from
    other figures forbids, cancels and reports by those figures."""
    altered = dataclasses.replace(
        TARNEEB41_DOUBLE, forbidden_bids=frozenset({5}), min_total=14, target=50
    )
    monkeypatch.setattr(Tarneeb41Double, "params", altered)
    match = engine.new_match("tarneeb41_double", seed=3, options={"first_dealer": 0})
    assert 6 in bids_of(match, 1) and bids_of(match, 1) == list(altered.bids)
    refused(match, 1, {"type": "bid", "value": 5}, "bid_forbidden")
    assert match.view(None)["target"] == 50 and match.view(None)["min_total"] == 14
    (cancelled,) = events_of(bid_round(match, bids_totalling(altered, 13)), "deal_cancelled")
    assert cancelled["needed"] == 14


@pytest.mark.parametrize("variant", PARTNERSHIP)
def test_the_lowest_bid_goes_from_the_exported_score(variant: str) -> None:
    """T41D.2: seat 1 takes every trick bidding the top, until it has the no-2 score;
    then its lowest bid is refused (in syrian41, with no such score, it never is)."""
    params = PARTNERSHIP_PARAMS[variant]
    threshold = TARNEEB41_DOUBLE.no_two_from if params.no_two_from is None else params.no_two_from
    assert threshold is not None
    deals = -(-threshold // params.bid_value(params.max_bid))  # deals to reach it
    assert deals <= 3  # dealers 2, 3, 0: never seat 1, which must take every trick
    bids = [params.min_bid, params.max_bid, params.min_bid, params.min_bid]
    decks = [one_suit_deck((2 + i) % 4, 1) for i in range(deals)]
    match = engine.new_match(variant, options={"first_dealer": 2}, decks=decks)
    for _ in range(deals):
        bid_round(match, bids)
        play_out(match)
    assert match.scores[1] >= threshold and match.result is None
    while match.to_act != [1]:  # the others (below zero) bid the lowest
        match.apply(match.to_act[0], {"type": "bid", "value": params.min_bid})
    legal = bids_of(match, 1)
    assert legal == list(params.legal_bids(match.scores[1]))
    if params.no_two_from is None:
        assert params.min_bid in legal
        return
    assert params.min_bid not in legal
    assert legal == [b for b in params.bids if b != params.min_bid]
    refused(match, 1, {"type": "bid", "value": params.min_bid}, "bid_two_forbidden")
    assert match.dealer != 1
    assert match.auto_action(1) == {"type": "bid", "value": legal[0]}  # T41D.7


@pytest.mark.parametrize("variant", PARTNERSHIP)
def test_a_total_below_the_exported_minimum_cancels_the_deal(variant: str) -> None:
    params = PARTNERSHIP_PARAMS[variant]
    match = engine.new_match(variant, seed=4, options={"first_dealer": 0})
    events = bid_round(match, bids_totalling(params, params.min_total - 1))
    (cancelled,) = events_of(events, "deal_cancelled")  # T41.6, T41D.3
    assert cancelled["needed"] == params.min_total == match.view(0)["min_total"]
    assert match.deal_number == 2 and match.phase == "bidding"
    bid_round(match, bids_totalling(params, params.min_total))
    assert match.phase == "playing"


@pytest.mark.parametrize("variant", PARTNERSHIP)
def test_the_last_bidders_timeout_reaches_the_exported_minimum(variant: str) -> None:
    """T41.11, T41D.7: the dealer's timeout bid is the smallest legal one that lets the
    deal be played (over the exported minimum total)."""
    params = PARTNERSHIP_PARAMS[variant]
    match = engine.new_match(variant, seed=4, options={"first_dealer": 0})
    for _ in range(3):
        match.apply(match.to_act[0], {"type": "bid", "value": params.min_bid})
    others = 3 * params.min_bid
    expected = min(b for b in params.bids if others + b >= params.min_total)
    assert match.auto_action(0) == {"type": "bid", "value": expected}


@pytest.mark.parametrize("variant", PARTNERSHIP)
@pytest.mark.parametrize("high", [False, True])
def test_a_made_bid_scores_what_the_parameters_say(variant: str, high: bool) -> None:
    """T41.8, T41D.4: seat 1 takes all 13 tricks; its bid is just under or at the
    doubling threshold (7 in both games: syrian41 has none and scores face value)."""
    params = PARTNERSHIP_PARAMS[variant]
    threshold = TARNEEB41_DOUBLE.double_from if params.double_from is None else params.double_from
    assert threshold is not None
    bid = threshold if high else max(b for b in params.bids if b < threshold)
    match = engine.new_match(variant, options={"first_dealer": 0}, decks=[one_suit_deck(0, 1)])
    bids = [params.min_bid, bid, params.max_bid, params.min_bid]
    bid_round(match, bids)
    (scored,) = events_of(play_out(match), "hand_scored")
    doubled = params.double_from is not None and bid >= params.double_from
    assert scored["deltas"][1] == (2 * bid if doubled else bid)
    assert scored["deltas"] == params.deltas(bids, scored["tricks"])


@pytest.mark.parametrize("variant", PARTNERSHIP)
def test_the_match_ends_at_the_exported_target(variant: str) -> None:
    """T41.9–T41.10 on heuristic matches: after every scored hand, the match is over
    exactly when the exported target says so."""
    params = PARTNERSHIP_PARAMS[variant]
    player = new_player("heuristic")
    finished = 0
    for seed in range(4):
        match = engine.new_match(variant, seed=seed)
        assert match.view(None)["target"] == params.target
        while match.result is None and match.deal_number < 300:
            seat = match.to_act[0]
            events = match.apply(seat, player.decide(match.view(seat)))
            for scored in events_of(events, "hand_scored"):
                s = scored["scores"]
                a = (s[0] >= params.target and s[2] > 0) or (s[2] >= params.target and s[0] > 0)
                b = (s[1] >= params.target and s[3] > 0) or (s[3] >= params.target and s[1] > 0)
                ends = a != b or (a and b and s[0] + s[2] != s[1] + s[3])
                assert bool(events_of(events, "match_over")) == ends
                assert params.qualifies(s[0], s[2]) == a and params.qualifies(s[1], s[3]) == b
        finished += match.result is not None
    assert finished == 4


# ---------------------------------------------------------------- TS


def solo_deck(hands: list[list[str]], dealer: int = 3) -> list[str]:
    return deck_for_hands(hands, (dealer + 1) % 4)


def test_solo_targets_are_the_exported_ones() -> None:
    assert engine.VARIANTS["tarneeb_solo"].options["target"] == TARNEEB_SOLO.default_target
    assert engine.new_match("tarneeb_solo").view(None)["target"] == TARNEEB_SOLO.default_target
    for target in TARNEEB_SOLO.targets:
        assert engine.new_match("tarneeb_solo", options={"target": target}).target == target
    for target in (min(TARNEEB_SOLO.targets) - 1, max(TARNEEB_SOLO.targets) + 10):
        with pytest.raises(ValueError):
            engine.new_match("tarneeb_solo", options={"target": target})


def test_solo_bids_are_the_exported_range_and_the_top_ends_the_auction() -> None:
    params = TARNEEB_SOLO
    match = engine.new_match("tarneeb_solo", seed=1, options={"first_dealer": 3})
    assert bids_of(match, 0) == list(params.bids)
    for value in (params.min_bid - 1, params.max_bid + 1):
        refused(match, 0, {"type": "bid", "value": value}, "bid_out_of_range")
    events = match.apply(0, {"type": "bid", "value": params.max_bid})  # TS.4
    assert events_of(events, "auction_won") and match.phase == "trump"


def test_solo_forced_dealer_bids_the_exported_minimum() -> None:
    match = engine.new_match("tarneeb_solo", seed=1, options={"first_dealer": 3})
    for _ in range(3):
        match.apply(match.to_act[0], {"type": "pass"})
    assert match.to_act == [3]
    assert bids_of(match, 3) == list(TARNEEB_SOLO.bids)
    assert match.auto_action(3) == {"type": "bid", "value": TARNEEB_SOLO.min_bid}  # TS.10


def solo_deal(bid: int, hands: list[list[str]], trump: str) -> dict[str, Any]:
    """Seat 0 (first to bid, dealer 3) bids ``bid``, the others pass, trump is named, and
    the deal is played out with the timeout moves: its ``hand_scored`` event."""
    match = engine.new_match("tarneeb_solo", options={"first_dealer": 3}, decks=[solo_deck(hands)])
    match.apply(0, {"type": "bid", "value": bid})
    while match.phase == "bidding":
        match.apply(match.to_act[0], {"type": "pass"})
    match.apply(0, {"type": "trump", "suit": trump})
    (scored,) = events_of(play_out(match), "hand_scored")
    return scored


def test_solo_kaboot_and_grand_slam_score_the_exported_figures() -> None:
    params = TARNEEB_SOLO
    hands = [SUIT_CARDS["S"], SUIT_CARDS["C"], SUIT_CARDS["D"], SUIT_CARDS["H"]]
    kaboot = solo_deal(params.min_bid, hands, "S")
    assert kaboot["tricks"][0] == 13 and kaboot["deltas"] == [params.kaboot, 0, 0, 0]
    slam = solo_deal(params.max_bid, hands, "S")
    assert slam["deltas"] == [params.grand_slam, 0, 0, 0]
    # Seat 0 holds the clubs and names spades, which seat 1 holds: it takes nothing.
    weak = [SUIT_CARDS["C"], SUIT_CARDS["S"], SUIT_CARDS["D"], SUIT_CARDS["H"]]
    failed = solo_deal(params.max_bid, weak, "S")
    assert failed["tricks"][0] < 13
    others = [params.grand_slam_failed_factor * t for t in failed["tricks"][1:]]
    assert failed["deltas"] == [-params.grand_slam_failed, *others]


# ---------------------------------------------------------------- TX


def test_trix_match_has_the_exported_kingdoms_deals_and_totals() -> None:
    params = TRIX_COMPLEX
    match = engine.new_match("trix_complex", seed=2)
    kingdoms: dict[int, list[str]] = {}
    while match.result is None:
        seat = match.to_act[0]
        action = match.auto_action(seat)
        assert action is not None
        for scored in events_of(match.apply(seat, action), "hand_scored"):
            kingdoms.setdefault(scored["kingdom"], []).append(scored["contract"])
            total = sum(scored["deltas"])
            if scored["contract"] == "complex":  # the timeout doubles nothing (TX.13)
                assert total == params.complex_total
            else:
                assert total == params.trix_total
                assert sorted(scored["deltas"]) == sorted(params.placings)
    assert match.deal_number == params.deals == match.view(None)["deals_total"]
    assert sorted(kingdoms) == list(range(1, params.kingdoms + 1))
    assert all(sorted(c) == sorted(params.contracts) for c in kingdoms.values())


def test_trix_doubles_are_worth_the_exported_penalties() -> None:
    params = TRIX_COMPLEX
    kh, qd = parse_card("KH"), parse_card("QD")
    assert DOUBLABLE[kh] == params.king_of_hearts_cost
    assert {v for c, v in DOUBLABLE.items() if c != kh} == {params.queen_cost}
    cards = [parse_card(c) for c in ("2H", "3H", "4H")] + [kh]
    assert trick_points(cards, 0, 0, {})[0] == -params.trick_cost - params.king_of_hearts_cost
    assert trick_points(cards, 0, 0, {kh: 3}) == [
        -params.trick_cost - 2 * params.king_of_hearts_cost,
        0,
        0,
        params.king_of_hearts_cost,
    ]
    diamonds = [parse_card(c) for c in ("2D", "3D", "4D")] + [qd]
    assert trick_points(diamonds, 0, 1, {})[1] == -(
        params.trick_cost + 4 * params.diamond_cost + params.queen_cost
    )


# ---------------------------------------------------------------- fast path and players


@pytest.mark.parametrize("variant", PARTNERSHIP)
def test_the_fast_path_bids_and_scores_by_the_parameters(variant: str) -> None:
    params = PARTNERSHIP_PARAMS[variant]
    rng = random.Random(5)
    scores = [0, 35, 0, 35]
    for deal in range(300):
        bids, tricks, deltas = random_tarneeb_deal(
            rng, deal % 4, scores, variant == "tarneeb41_double"
        )
        assert all(bids[s] in params.legal_bids(scores[s]) for s in range(4))
        assert sum(bids) >= params.min_total and deltas == params.deltas(bids, tricks)
    for deal in range(300):
        _, bid, _, _ = random_solo_deal(rng, deal % 4)
        assert bid in TARNEEB_SOLO.bids


@pytest.mark.parametrize("variant", PARTNERSHIP)
def test_computer_players_bid_with_the_exported_parameters(variant: str) -> None:
    match = engine.new_match(variant, seed=6)
    view = match.view(match.to_act[0])
    assert bid_context(read_view(view))["params"] is PARTNERSHIP_PARAMS[variant]


# ---------------------------------------------------------------- the renderer


def numbers_in(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", text)}


def test_the_rules_texts_show_the_exported_numbers() -> None:
    from bot.render.rules_text import rules_text

    t41, t41d, ts, tx = SYRIAN41, TARNEEB41_DOUBLE, TARNEEB_SOLO, TRIX_COMPLEX
    english = {variant: rules_text(variant, "en") for variant in engine.VARIANTS}
    wanted = {
        "syrian41": [
            f"{t41.min_bid} to {t41.max_bid}",
            f"less than {t41.min_total}",
            f"has {t41.target} or more",
            f"you bid {t41.min_bid}",
        ],
        "tarneeb41_double": [
            f"{t41d.min_bid} to {t41d.max_bid}; {min(t41d.forbidden_bids)} does not exist",
            f"With {t41d.no_two_from} points or more you may not bid {t41d.min_bid}",
            f"total {t41d.min_total - 1} or less",
            f"a total of {t41d.min_total} or more",
            f"A bid of {t41d.double_from} or more counts double",
            f"made +{t41d.bid_value(t41d.double_from or 0)}",
            f"has {t41d.target} or more",
        ],
        "tarneeb_solo": [
            f"{ts.default_target} (default)",
            *(str(target) for target in ts.targets),
            f"{ts.min_bid} to {ts.max_bid}",
            f"at once on a bid of {ts.max_bid}",
            f"must bid at least {ts.min_bid}",
            f"(kaboot) scores {ts.kaboot}",
            f"scores {ts.grand_slam}",
            f"loses {ts.grand_slam_failed}",
        ],
        "trix_complex": [
            f"{tx.deals} deals",
            f"−{tx.trick_cost} per trick",
            f"−{tx.diamond_cost} per diamond",
            f"−{tx.queen_cost} per queen",
            f"−{tx.king_of_hearts_cost} for K♥",
            f"totals −{-tx.complex_total}",
            ", ".join(f"+{points}" for points in tx.placings),
        ],
    }
    for variant, phrases in wanted.items():
        for phrase in phrases:
            assert phrase in english[variant], (variant, phrase)
        # The Arabic text quotes the same numbers.
        assert numbers_in(rules_text(variant, "ar")) == numbers_in(english[variant])


def test_the_table_lines_show_the_exported_figures() -> None:
    from bot.render.hand import hand_screen
    from bot.render.i18n import t
    from bot.render.model import TableInfo
    from bot.render.sheets import score_sheet
    from bot.render.table import table_screen
    from bot.tables.config import TableConfig

    def info(variant: str) -> TableInfo:
        config = TableConfig(variant=variant, language="en")  # type: ignore[arg-type]
        return TableInfo(id=1, config=config, status="running", version=1)

    trix = engine.new_match("trix_complex", seed=1)
    text = table_screen(info("trix_complex"), trix.view(None)).text
    assert t("en", "trix_target", deals=TRIX_COMPLEX.deals) in text
    assert f"After {TRIX_COMPLEX.deals} deals" in text
    assert f"Kingdom 1 of {TRIX_COMPLEX.kingdoms}" in text
    for variant, params in PARTNERSHIP_PARAMS.items():
        match = engine.new_match(variant, seed=1, options={"first_dealer": 0})
        assert f"target {params.target}" in table_screen(info(variant), match.view(None)).text
        match.apply(1, {"type": "bid", "value": params.min_bid})
        private = hand_screen(info(variant), match.view(2)).text
        assert f"the deal needs {params.min_total})" in private
        events = bid_round_from(match, params)
        (cancelled,) = events_of(events, "deal_cancelled")
        sheet = score_sheet(info(variant), {**cancelled, "cancelled": True}, None).text
        assert f"{params.min_total} needed" in sheet
    solo = engine.new_match("tarneeb_solo", seed=1)
    solo_text = table_screen(info("tarneeb_solo"), solo.view(None)).text
    assert f"First to {TARNEEB_SOLO.default_target} wins" in solo_text


def bid_round_from(match: engine.Match, params: PartnershipParams) -> list[dict[str, Any]]:
    """The other three bid the lowest: the total stays under the minimum, so the deal is
    cancelled (T41.6, T41D.3)."""
    events: list[dict[str, Any]] = []
    while match.phase == "bidding" and match.deal_number == 1:
        events += match.apply(match.to_act[0], {"type": "bid", "value": params.min_bid})
    return events
