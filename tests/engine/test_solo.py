"""Solo Tarneeb (TS, ``tarneeb_solo``), rule by rule.

Every outcome below is worked out by hand from a stacked deck:

* a whole-suit deal (``suits_deck``): every seat holds one whole suit. A declarer who
  names their own suit trump takes all 13 tricks however anyone plays (kaboot). A
  declarer who names the suit another seat holds loses every trick to that seat: the
  declarer leads their own suit, the holder of the trump suit can only play a trump and
  wins, then leads trumps that nobody can follow or beat;
* the golden deal (``GOLDEN_HANDS``/``GOLDEN_PLAYS`` from scripts.py): with spades trump
  and seat 0 leading, seat 0 takes 7 tricks, seat 1 takes 6, seats 2 and 3 none;
* the nine deal (``NINE_HANDS``/``NINE_PLAYS`` below): with spades trump and seat 0
  leading, seat 0 takes 9 tricks, seats 1 and 2 one each, seat 3 two.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import engine
from tests.engine.scripts import (
    GOLDEN_HANDS,
    GOLDEN_PLAYS,
    GOLDEN_WINNERS,
    SUIT_CARDS,
    events_of,
    one_suit_deck,
    play_out,
    play_script,
    refused,
)

Call = int | str  # a bid value or "pass"
PASS = "pass"


def stack(hands: Sequence[Sequence[str]], dealer: int) -> list[str]:
    """The deck that deals ``hands[s]`` to seat ``s`` when ``dealer`` deals (TS.2: one
    card at a time from ``dealer + 1``)."""
    first = (dealer + 1) % 4
    return [hands[(first + j) % 4][j // 4] for j in range(52)]


def suits_deck(dealer: int, suits: str) -> list[str]:
    """Seat ``s`` holds the whole suit ``suits[s]``."""
    return stack([SUIT_CARDS[suit] for suit in suits], dealer)


def turned(hands: Sequence[Sequence[str]], k: int) -> list[list[str]]:
    """The same hands moved ``k`` seats round the table."""
    return [list(hands[(seat - k) % 4]) for seat in range(4)]


GOLDEN = [t.split() for t in GOLDEN_PLAYS]

# Seat 0 holds the nine top spades and the smallest card of three other suits.
NINE_HANDS = [
    hand.split()
    for hand in [
        "AS KS QS JS TS 9S 8S 7S 6S 2H 2D 2C 3C",
        "4S 5S 6C 7C 4D 7D 3H 4H 5H 4C 5C 6D QD",
        "3S 8C 9C 8D 9D 6H 7H 8H TH 9H TD TC JC",
        "2S QC KC JD KD JH QH KH AH 5D AD AC 3D",
    ]
]
# Spades trump, the declarer (seat 0 here) leads; each trick starts with its leader.
NINE_PLAYS = [
    t.split()
    for t in [
        "AS 4S 3S 2S",  # seat 0 draws the four outstanding spades in two rounds
        "KS 5S 8C QC",
        "QS 6C 9C KC",
        "JS 7C 8D JD",
        "TS 4D 9D KD",
        "9S 7D 6H JH",
        "8S 3H 7H QH",
        "7S 4H 8H KH",
        "6S 5H TH AH",  # nine spade tricks for seat 0, whose trumps are now gone
        "2H 4C 9H 5D",  # seats 1 and 3 are out of hearts: the 9H wins, seat 2 leads
        "TD AD 2D 6D",  # seat 3 wins and leads
        "AC 2C 5C TC",  # seat 3 again
        "3D 3C QD JC",  # the QD wins: seat 1
    ]
]
NINE_WINNERS = [0] * 9 + [2, 3, 3, 1]


def new(decks: list[list[str]] | None = None, dealer: int = 3, **options: Any) -> engine.Match:
    return engine.new_match(
        "tarneeb_solo", seed=7, options={"first_dealer": dealer, **options}, decks=decks
    )


def golden_match() -> engine.Match:
    """Dealer 3: seat 0 bids first and, when it wins the auction, leads the golden deal."""
    return new([stack(GOLDEN_HANDS, 3)])


def call(match: engine.Match, seat: int, value: Call) -> list[dict[str, Any]]:
    action = {"type": "pass"} if value == PASS else {"type": "bid", "value": value}
    return match.apply(seat, action)


def auction(match: engine.Match, calls: Sequence[Call]) -> list[dict[str, Any]]:
    """The calls in turn order, each by the seat whose turn it is."""
    events: list[dict[str, Any]] = []
    for value in calls:
        events += call(match, match.to_act[0], value)
    return events


def solo_hand(
    match: engine.Match,
    calls: Sequence[Call],
    trump: str,
    plays: list[list[str]] | None = None,
) -> list[dict[str, Any]]:
    """One whole hand: the auction, the declarer's trump, then ``plays`` card by card (or
    the timeout moves when ``plays`` is None)."""
    events = auction(match, calls)
    assert match.phase == "trump"
    events += match.apply(match.to_act[0], {"type": "trump", "suit": trump})
    events += play_script(match, plays) if plays is not None else play_out(match)
    return events


def deltas(events: list[dict[str, Any]]) -> list[int]:
    scored = events_of(events, "hand_scored")
    assert len(scored) == 1
    result: list[int] = scored[0]["deltas"]
    return result


def bid_values(match: engine.Match, seat: int) -> list[int]:
    return [a["value"] for a in match.legal_actions(seat) if a["type"] == "bid"]


def can_pass(match: engine.Match, seat: int) -> bool:
    return {"type": "pass"} in match.legal_actions(seat)


# ---------------------------------------------------------------- TS.1


def test_ts_1_four_players_each_for_themselves() -> None:
    info = engine.VARIANTS["tarneeb_solo"]
    assert info.teams is False
    match = golden_match()
    assert match.team_scores is None
    assert match.view(None)["team_scores"] is None
    # Seat 0 makes 7 alone: only seat 0 scores, nobody shares it with a partner.
    solo_hand(match, [7, PASS, PASS, PASS], "S", GOLDEN)
    assert match.scores == [7, 0, 0, 0]
    assert match.team_scores is None


def test_ts_1_target_defaults_to_31() -> None:
    assert engine.VARIANTS["tarneeb_solo"].options["target"] == 31
    match = new()
    assert match.view(None)["options"]["target"] == 31


@pytest.mark.parametrize("target", [31, 51, 61])
def test_ts_1_target_may_be_31_51_or_61(target: int) -> None:
    match = new(target=target)
    assert match.view(None)["options"]["target"] == target
    assert match.phase == "bidding"


@pytest.mark.parametrize("target", [0, 30, 32, 41, 50, 60, 62, 100, -31, "31", True])
def test_ts_1_any_other_target_is_refused(target: object) -> None:
    with pytest.raises(ValueError):
        new(target=target)


def test_ts_1_target_is_an_option_of_solo_only() -> None:
    with pytest.raises(ValueError):
        engine.new_match("syrian41", options={"target": 31})


# ---------------------------------------------------------------- TS.2


def test_ts_2_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {engine.new_match("tarneeb_solo", seed=seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    for seed in (3, 9, 1234):
        first = engine.new_match("tarneeb_solo", seed=seed)
        again = engine.new_match("tarneeb_solo", seed=seed)
        assert first.dealer == again.dealer
        assert first.to_act == [(first.dealer + 1) % 4]  # type: ignore[operator]


def test_ts_2_the_deal_passes_right_after_every_hand() -> None:
    match = new(dealer=2)
    for hand in range(1, 7):
        dealer = (2 + hand - 1) % 4
        assert match.deal_number == hand and match.dealer == dealer
        assert match.to_act == [(dealer + 1) % 4]  # the auction opens right of the dealer
        events = play_out(match)
        assert len(events_of(events, "hand_scored")) == 1
        assert match.result is None
        assert events_of(events, "deal")[0]["dealer"] == (dealer + 1) % 4


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_ts_2_dealing_starts_right_of_the_dealer_and_no_card_is_shown(dealer: int) -> None:
    deck = stack(GOLDEN_HANDS, 3)
    match = new([deck], dealer=dealer)
    first = (dealer + 1) % 4
    for j, card in enumerate(deck):
        assert card in match.hand((first + j) % 4)
    assert deck[51] in match.hand(dealer)  # the dealer is served last
    for seat in (None, 0, 1, 2, 3):
        view = match.view(seat)
        assert view["shown_card"] is None
        assert view["trump"] is None  # trump only comes from the auction
        assert view["dealer"] == dealer


def test_ts_2_the_next_deal_shows_no_card_either() -> None:
    match = golden_match()
    events = solo_hand(match, [7, PASS, PASS, PASS], "S", GOLDEN)
    deal = events_of(events, "deal")[0]
    assert deal["deal_number"] == 2 and deal["dealer"] == 0
    # Public deal event: no card in it; each hand goes privately to its own seat.
    assert not any(key in deal for key in ("card", "cards", "shown_card"))
    for event in events_of(events, "hand"):
        assert "to" in event
    assert match.view(None)["shown_card"] is None and match.view(None)["trump"] is None


# ---------------------------------------------------------------- TS.3


def test_ts_3_the_auction_opens_right_of_the_dealer_with_pass_or_7_to_13() -> None:
    for dealer in range(4):
        match = new(dealer=dealer)
        first = (dealer + 1) % 4
        assert match.phase == "bidding" and match.to_act == [first]
        assert match.legal_actions(first) == [
            {"type": "pass"},
            *({"type": "bid", "value": v} for v in range(7, 14)),
        ]
        for other in range(4):
            if other != first:
                assert match.legal_actions(other) == []
    match = golden_match()
    refused(match, 0, {"type": "bid", "value": 6}, "bid_out_of_range")
    refused(match, 0, {"type": "bid", "value": 2}, "bid_out_of_range")
    refused(match, 0, {"type": "bid", "value": 14}, "bid_out_of_range")
    refused(match, 1, {"type": "bid", "value": 7}, "not_your_turn")
    refused(match, 1, {"type": "pass"}, "not_your_turn")


def test_ts_3_a_bid_must_be_higher_and_a_pass_is_final() -> None:
    match = golden_match()  # dealer 3: seats 0, 1, 2, 3
    call(match, 0, PASS)
    call(match, 1, 8)
    assert match.to_act == [2]
    assert bid_values(match, 2) == [9, 10, 11, 12, 13]
    refused(match, 2, {"type": "bid", "value": 8}, "bid_too_low")
    refused(match, 2, {"type": "bid", "value": 7}, "bid_too_low")
    call(match, 2, PASS)
    call(match, 3, 9)
    # Seat 0 passed: it is skipped for good, the turn goes back to seat 1.
    assert match.to_act == [1]
    assert match.legal_actions(0) == []
    refused(match, 0, {"type": "bid", "value": 10}, "not_your_turn")
    assert match.view(None)["bids"] == ["pass", 8, "pass", 9]
    call(match, 1, 10)
    # Seats 2 and 0 passed: straight back to seat 3.
    assert match.to_act == [3]
    assert bid_values(match, 3) == [11, 12, 13]
    call(match, 3, PASS)
    # Everyone but seat 1 has passed: seat 1 won at 10.
    assert match.phase == "trump" and match.to_act == [1]
    view = match.view(None)
    assert view["bids"] == ["pass", 10, "pass", "pass"]
    assert view["declarer"] == 1 and view["contract_bid"] == 10


def test_ts_3_a_bidder_may_raise_again_when_the_turn_comes_back() -> None:
    match = golden_match()
    events = auction(match, [7, PASS, 8, PASS])
    assert [(e["seat"], e["value"]) for e in events_of(events, "bid")] == [
        (0, 7),
        (1, "pass"),
        (2, 8),
        (3, "pass"),
    ]
    assert match.phase == "bidding" and match.to_act == [0]
    assert can_pass(match, 0)
    assert bid_values(match, 0) == [9, 10, 11, 12, 13]
    call(match, 0, 9)  # seat 0 outbids seat 2
    assert match.to_act == [2]  # seat 1 and seat 3 are out
    call(match, 2, 10)
    assert match.to_act == [0]
    call(match, 0, PASS)  # seat 0 gives up: seat 2 holds the last bid
    assert match.phase == "trump" and match.to_act == [2]
    assert match.view(2)["contract_bid"] == 10


def test_ts_3_calls_out_of_phase_or_of_another_game_are_refused() -> None:
    match = golden_match()
    refused(match, 0, {"type": "trump", "suit": "S"}, "wrong_phase")
    refused(match, 0, {"type": "play", "card": "AS"}, "wrong_phase")
    refused(match, 0, {"type": "contract", "contract": "trix"}, "wrong_action")
    refused(match, 0, {"type": "double", "cards": []}, "wrong_action")
    refused(match, 0, {"type": "bid", "value": "7"}, "bad_action")
    refused(match, 0, {"type": "bid"}, "bad_action")
    refused(match, 0, {"type": "fold"}, "bad_action")
    refused(match, 0, "pass", "bad_action")
    with pytest.raises(engine.IllegalAction):
        match.apply(4, {"type": "pass"})


def test_ts_3_a_restored_match_keeps_the_auction_and_its_passes() -> None:
    match = golden_match()
    auction(match, [PASS, 8, PASS])
    restored = engine.Match.from_json(match.to_json())
    for seat in (None, 0, 1, 2, 3):
        assert restored.view(seat) == match.view(seat)
    for m in (match, restored):
        assert m.legal_actions(0) == []  # seat 0 passed
        assert m.to_act == [3]
        call(m, 3, 9)
        assert m.to_act == [1]
        call(m, 1, PASS)
        assert m.phase == "trump" and m.to_act == [3]
    assert restored.to_json() == match.to_json()


# ---------------------------------------------------------------- TS.4


def test_ts_4_the_auction_ends_when_all_others_have_passed_after_the_last_bid() -> None:
    match = golden_match()
    call(match, 0, 7)
    call(match, 1, PASS)
    call(match, 2, PASS)
    assert match.phase == "bidding" and match.to_act == [3]  # seat 3 may still bid
    events = call(match, 3, PASS)
    assert match.phase == "trump" and match.to_act == [0]
    assert events_of(events, "auction_won") == [{"type": "auction_won", "seat": 0, "bid": 7}]


def test_ts_4_players_who_passed_before_the_last_bid_do_not_reopen_it() -> None:
    match = golden_match()
    auction(match, [PASS, PASS, 12])
    assert match.to_act == [3] and match.phase == "bidding"  # 12 does not close it
    call(match, 3, PASS)
    assert match.phase == "trump" and match.to_act == [2]
    assert match.view(None)["contract_bid"] == 12


def test_ts_4_a_bid_of_13_ends_the_auction_at_once() -> None:
    match = golden_match()
    events = call(match, 0, 13)
    assert match.phase == "trump" and match.to_act == [0]
    assert events_of(events, "auction_won") == [{"type": "auction_won", "seat": 0, "bid": 13}]
    view = match.view(None)
    assert view["bids"] == [13, None, None, None]  # seats 1-3 never called
    assert view["declarer"] == 0 and view["contract_bid"] == 13


def test_ts_4_a_bid_of_13_ends_the_auction_even_with_earlier_bidders_still_in() -> None:
    match = golden_match()
    auction(match, [7, 8, 13])
    assert match.phase == "trump" and match.to_act == [2]
    refused(match, 3, {"type": "bid", "value": 13}, "wrong_phase")
    refused(match, 0, {"type": "pass"}, "wrong_phase")
    assert match.view(None)["bids"] == [7, 8, 13, None]


# ---------------------------------------------------------------- TS.5


def test_ts_5_dealer_must_bid_when_the_first_three_pass() -> None:
    match = golden_match()
    auction(match, [PASS, PASS, PASS])
    assert match.phase == "bidding" and match.to_act == [3]
    assert match.deal_number == 1  # no redeal
    assert not can_pass(match, 3)
    assert match.legal_actions(3) == [{"type": "bid", "value": v} for v in range(7, 14)]
    refused(match, 3, {"type": "pass"}, "pass_not_allowed")
    refused(match, 3, {"type": "bid", "value": 6}, "bid_out_of_range")
    call(match, 3, 7)
    assert match.phase == "trump" and match.to_act == [3]
    assert match.deal_number == 1
    assert match.view(None)["bids"] == ["pass", "pass", "pass", 7]


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_ts_5_the_forced_dealer_may_bid_more_than_7_and_plays_the_hand(dealer: int) -> None:
    # The dealer holds the whole spade suit, names spades and takes all 13 (kaboot: 16).
    suits = ["C", "D", "H"]
    suits.insert(dealer, "S")
    match = new([suits_deck(dealer, "".join(suits))], dealer=dealer)
    events = solo_hand(match, [PASS, PASS, PASS, 10], "S")
    expected = [0, 0, 0, 0]
    expected[dealer] = 16
    assert deltas(events) == expected
    assert match.deal_number == 2


def test_ts_5_the_dealer_may_pass_once_someone_has_bid() -> None:
    match = golden_match()
    auction(match, [PASS, 7, PASS])
    assert match.to_act == [3] and can_pass(match, 3)
    call(match, 3, PASS)
    assert match.phase == "trump" and match.to_act == [1]


# ---------------------------------------------------------------- TS.6


def test_ts_6_the_declarer_chooses_trump_from_the_four_suits_and_leads() -> None:
    # Dealer 0 holds the clubs, seat 1 diamonds, seat 2 spades, seat 3 hearts.
    match = new([one_suit_deck(0, 2)], dealer=0)
    auction(match, [PASS, 7, PASS, PASS])  # seats 1, 2, 3, 0
    assert match.phase == "trump" and match.to_act == [2]
    assert match.legal_actions(2) == [{"type": "trump", "suit": s} for s in "CDHS"]
    for seat in (0, 1, 3):
        assert match.legal_actions(seat) == []
    refused(match, 1, {"type": "trump", "suit": "D"}, "not_your_turn")
    refused(match, 2, {"type": "play", "card": "AS"}, "wrong_phase")
    refused(match, 2, {"type": "bid", "value": 8}, "wrong_phase")
    events = match.apply(2, {"type": "trump", "suit": "S"})
    assert events == [{"type": "trump", "seat": 2, "suit": "S"}]
    assert match.phase == "playing"
    assert match.to_act == [2]  # the declarer leads, not the dealer's right (seat 1)
    for viewer in (None, 0, 1, 2, 3):
        assert match.view(viewer)["trump"] == "S"
        assert match.view(viewer)["declarer"] == 2
    refused(match, 2, {"type": "trump", "suit": "H"}, "wrong_phase")


@pytest.mark.parametrize("suit", ["N", "NT", "", "X", None, 3])
def test_ts_6_there_is_no_no_trump(suit: object) -> None:
    match = golden_match()
    auction(match, [7, PASS, PASS, PASS])
    refused(match, 0, {"type": "trump", "suit": suit}, "bad_action")


@pytest.mark.parametrize("suit", ["C", "D", "H", "S"])
def test_ts_6_any_of_the_four_suits_may_be_named_and_lower_case_is_accepted(suit: str) -> None:
    match = golden_match()
    auction(match, [7, PASS, PASS, PASS])
    match.apply(0, {"type": "trump", "suit": suit.lower()})
    assert match.view(None)["trump"] == suit
    assert match.to_act == [0]


def test_ts_6_trump_may_be_a_suit_the_declarer_does_not_hold() -> None:
    # Dealer 0 holds clubs, seat 1 diamonds, seat 2 spades, seat 3 hearts. Seat 2 names
    # hearts: it must lead a spade, seat 3 can only answer with a heart (trump) and wins;
    # then seat 3 leads hearts that nobody can follow or beat: 13 tricks to seat 3.
    match = new([one_suit_deck(0, 2)], dealer=0)
    events = solo_hand(match, [PASS, 7, PASS, PASS], "H")
    assert [e["seat"] for e in events_of(events, "trick_won")] == [3] * 13
    assert events_of(events, "trick_won")[0]["leader"] == 2
    assert deltas(events) == [0, 0, -7, 13]


# ---------------------------------------------------------------- TS.7


def test_ts_7_suit_must_be_followed() -> None:
    match = golden_match()
    auction(match, [7, PASS, PASS, PASS])
    match.apply(0, {"type": "trump", "suit": "S"})
    assert len(match.legal_actions(0)) == 13  # the leader may lead anything
    match.apply(0, {"type": "play", "card": "AS"})
    refused(match, 1, {"type": "play", "card": "AH"}, "must_follow_suit")
    refused(match, 1, {"type": "play", "card": "2S"}, "card_not_held")
    refused(match, 2, {"type": "play", "card": "2S"}, "not_your_turn")
    refused(match, 1, {"type": "play", "card": "ZZ"}, "bad_action")
    assert [a["card"] for a in match.legal_actions(1)] == ["5S", "6S", "7S"]


def test_ts_7_a_void_player_may_discard_and_is_never_forced_to_trump() -> None:
    # Seat 0 names hearts. Seat 3 has no spade but holds 5H and 6H (trumps).
    match = golden_match()
    auction(match, [7, PASS, PASS, PASS])
    match.apply(0, {"type": "trump", "suit": "H"})
    for card in ("AS", "5S", "2S"):
        match.apply(match.to_act[0], {"type": "play", "card": card})
    assert len(match.legal_actions(3)) == 13
    events = match.apply(3, {"type": "play", "card": "8D"})  # a high card of another suit
    won = events_of(events, "trick_won")[0]
    assert won["seat"] == 0 and won["cards"] == ["AS", "5S", "2S", "8D"]
    view = match.view(None)
    assert view["trick"] == []
    assert view["last_trick"] == [
        {"seat": 0, "card": "AS"},
        {"seat": 1, "card": "5S"},
        {"seat": 2, "card": "2S"},
        {"seat": 3, "card": "8D"},
    ]
    assert match.to_act == [0]  # the winner leads


def test_ts_7_the_smallest_trump_beats_the_led_ace_and_the_winner_leads() -> None:
    match = golden_match()
    auction(match, [7, PASS, PASS, PASS])
    match.apply(0, {"type": "trump", "suit": "H"})
    for card in ("AS", "5S", "2S"):
        match.apply(match.to_act[0], {"type": "play", "card": card})
    events = match.apply(3, {"type": "play", "card": "5H"})
    assert events_of(events, "trick_won")[0]["seat"] == 3
    assert match.to_act == [3]
    assert match.view(None)["tricks_won"] == [0, 0, 0, 1]


def test_ts_7_every_trick_goes_to_the_highest_trump_or_of_the_led_suit() -> None:
    match = golden_match()
    events = solo_hand(match, [7, PASS, PASS, PASS], "S", GOLDEN)
    assert [e["seat"] for e in events_of(events, "trick_won")] == GOLDEN_WINNERS
    assert events_of(events, "hand_scored")[0]["tricks"] == [7, 6, 0, 0]
    match = new([stack(NINE_HANDS, 3)])
    events = solo_hand(match, [7, PASS, PASS, PASS], "S", NINE_PLAYS)
    assert [e["seat"] for e in events_of(events, "trick_won")] == NINE_WINNERS
    assert events_of(events, "hand_scored")[0]["tricks"] == [9, 1, 1, 2]


# ---------------------------------------------------------------- TS.8


def test_ts_8_a_made_bid_scores_the_tricks_taken_and_nobody_else_scores() -> None:
    match = golden_match()  # seat 0 takes 7, seat 1 takes 6
    events = solo_hand(match, [7, PASS, PASS, PASS], "S", GOLDEN)
    assert deltas(events) == [7, 0, 0, 0]
    assert match.scores == [7, 0, 0, 0]
    assert events_of(events, "hand_scored")[0]["scores"] == [7, 0, 0, 0]


@pytest.mark.parametrize("bid", [7, 8, 9])
def test_ts_8_a_made_bid_scores_the_tricks_taken_not_the_bid(bid: int) -> None:
    match = new([stack(NINE_HANDS, 3)])  # seat 0 takes 9 tricks
    events = solo_hand(match, [bid, PASS, PASS, PASS], "S", NINE_PLAYS)
    assert deltas(events) == [9, 0, 0, 0]


@pytest.mark.parametrize("bid", [7, 10, 12])
def test_ts_8_kaboot_scores_16(bid: int) -> None:
    # Seat 0 holds every spade and names spades: all 13 tricks without having bid 13.
    match = new([one_suit_deck(3, 0)])
    events = solo_hand(match, [bid, PASS, PASS, PASS], "S")
    assert events_of(events, "hand_scored")[0]["tricks"] == [13, 0, 0, 0]
    assert deltas(events) == [16, 0, 0, 0]


@pytest.mark.parametrize(
    ("hands", "plays", "bid", "expected"),
    [
        (GOLDEN_HANDS, GOLDEN, 8, [-8, 6, 0, 0]),  # 7 tricks of 8
        (GOLDEN_HANDS, GOLDEN, 12, [-12, 6, 0, 0]),
        (NINE_HANDS, NINE_PLAYS, 10, [-10, 1, 1, 2]),  # 9 tricks of 10
        (NINE_HANDS, NINE_PLAYS, 12, [-12, 1, 1, 2]),
    ],
)
def test_ts_8_a_failed_bid_costs_the_bid_and_the_others_score_their_tricks(
    hands: list[list[str]], plays: list[list[str]], bid: int, expected: list[int]
) -> None:
    match = new([stack(hands, 3)])
    events = solo_hand(match, [bid, PASS, PASS, PASS], "S", plays)
    assert deltas(events) == expected
    assert match.scores == expected


def test_ts_8_thirteen_made_scores_26() -> None:
    match = new([one_suit_deck(3, 0)])
    events = solo_hand(match, [13], "S")
    assert deltas(events) == [26, 0, 0, 0]


@pytest.mark.parametrize(
    ("hands", "plays", "expected"),
    [
        (GOLDEN_HANDS, GOLDEN, [-16, 12, 0, 0]),  # 7 tricks: seat 1 has 6 → 12
        (NINE_HANDS, NINE_PLAYS, [-16, 2, 2, 4]),  # 9 tricks: 1, 1, 2 doubled
    ],
)
def test_ts_8_thirteen_failed_costs_16_and_the_others_score_double(
    hands: list[list[str]], plays: list[list[str]], expected: list[int]
) -> None:
    match = new([stack(hands, 3)])
    events = solo_hand(match, [13], "S", plays)
    assert deltas(events) == expected


@pytest.mark.parametrize(("bid", "expected"), [(7, [0, 0, -7, 13]), (13, [0, 0, -16, 26])])
def test_ts_8_naming_another_seats_whole_suit_gives_it_every_trick(
    bid: int, expected: list[int]
) -> None:
    # As in TS.6: seat 2 holds spades and names hearts, seat 3's whole suit.
    match = new([one_suit_deck(0, 2)], dealer=0)
    calls: list[Call] = [PASS, bid] if bid == 13 else [PASS, bid, PASS, PASS]
    events = solo_hand(match, calls, "H")
    assert events_of(events, "hand_scored")[0]["tricks"] == [0, 0, 0, 13]
    assert deltas(events) == expected


def test_ts_8_scores_accumulate_and_may_go_negative() -> None:
    decks = [stack(GOLDEN_HANDS, 3), stack(turned(NINE_HANDS, 1), 0)]
    match = new(decks)
    solo_hand(match, [8, PASS, PASS, PASS], "S", GOLDEN)  # [-8, 6, 0, 0]
    # Dealer 0: seat 1 holds the nine deal's declarer hand, seats 2, 3, 0 take 1, 1, 2.
    events = solo_hand(match, [13], "S", NINE_PLAYS)
    assert deltas(events) == [4, -16, 2, 2]
    assert match.scores == [-4, -10, 2, 2]


# ---------------------------------------------------------------- TS.9


def test_ts_9_reaching_the_target_exactly_wins() -> None:
    decks = [
        suits_deck(3, "SDHC"),  # dealer 3: seat 0 holds the spades
        stack(NINE_HANDS, 0),  # dealer 0: seat 0 is the nine deal's declarer
        stack(turned(GOLDEN_HANDS, 3), 1),  # dealer 1: seat 3 leads the golden deal
    ]
    match = new(decks)
    solo_hand(match, [7, PASS, PASS, PASS], "S")  # kaboot → [16, 0, 0, 0]
    assert match.scores == [16, 0, 0, 0]
    solo_hand(match, [PASS, PASS, PASS, 7], "S", NINE_PLAYS)  # 9 of 7 → [25, 0, 0, 0]
    assert match.scores == [25, 0, 0, 0] and match.result is None
    # Seats 2, 3, 0, 1: seat 3 bids 8 and takes 7; seat 0 takes 6 → [31, 0, 0, -8].
    events = solo_hand(match, [PASS, 8, PASS, PASS], "S", GOLDEN)
    assert deltas(events) == [6, 0, 0, -8]
    assert match.scores == [31, 0, 0, -8]
    assert match.result == {"winners": [0], "draw": False}
    assert events_of(events, "match_over") == [
        {"type": "match_over", "result": {"winners": [0], "draw": False}}
    ]
    assert match.phase == "finished" and match.to_act == []


# Seat 0 takes every trick of four hands: 16, 16, 26, 16 → 16, 32, 58, 74.
RUN_DECKS = [suits_deck(dealer, "SDHC") for dealer in (3, 0, 1, 2)]
RUN_CALLS: list[list[Call]] = [
    [7, PASS, PASS, PASS],  # dealer 3
    [PASS, PASS, PASS, 7],  # dealer 0 is forced (TS.5)
    [PASS, PASS, 13],  # dealer 1: seats 2, 3, 0
    [PASS, 7, PASS, PASS],  # dealer 2: seats 3, 0, 1, 2
]


@pytest.mark.parametrize(
    ("options", "hands_needed", "final"),
    [({}, 2, 32), ({"target": 31}, 2, 32), ({"target": 51}, 3, 58), ({"target": 61}, 4, 74)],
)
def test_ts_9_a_higher_target_needs_more_hands(
    options: dict[str, int], hands_needed: int, final: int
) -> None:
    match = new(RUN_DECKS, **options)
    played = 0
    for calls in RUN_CALLS:
        solo_hand(match, calls, "S")
        played += 1
        if match.result is not None:
            break
        assert match.phase == "bidding"
    assert played == hands_needed
    assert match.scores == [final, 0, 0, 0]
    assert match.result == {"winners": [0], "draw": False}


def _tie_setup(last_deck: list[str]) -> engine.Match:
    """Four whole-suit hands from dealer 3 → [0, 29, 29, -14], then ``last_deck``."""
    decks = [
        suits_deck(3, "DSHC"),  # seat 1 names its spades: kaboot 16
        suits_deck(0, "CDSH"),  # seat 2 names its spades: kaboot 16
        suits_deck(1, "DCHS"),  # seat 3 names clubs, seat 1's suit: seat 1 +13, seat 3 −7
        suits_deck(2, "DHCS"),  # seat 3 names clubs, seat 2's suit: seat 2 +13, seat 3 −7
        last_deck,
        suits_deck(0, "CSDH"),  # seat 1 holds the spades
    ]
    match = new(decks)
    solo_hand(match, [PASS, 7, PASS, PASS], "S")
    solo_hand(match, [PASS, 7, PASS, PASS], "S")
    solo_hand(match, [PASS, 7, PASS, PASS], "C")
    solo_hand(match, [7, PASS, PASS, PASS], "C")
    assert match.scores == [0, 29, 29, -14]
    assert match.result is None and match.dealer == 3
    return match


def test_ts_9_a_tie_at_the_top_plays_another_hand() -> None:
    match = _tie_setup(stack(NINE_HANDS, 3))
    # Seat 0 bids 13 and takes 9: −16; seats 1, 2, 3 score 2 × 1, 2 × 1, 2 × 2.
    events = solo_hand(match, [13], "S", NINE_PLAYS)
    assert deltas(events) == [-16, 2, 2, 4]
    assert match.scores == [-16, 31, 31, -10]  # two at the target, level at the top
    assert match.result is None and not events_of(events, "match_over")
    assert match.phase == "bidding" and match.deal_number == 6 and match.dealer == 0
    solo_hand(match, [7, PASS, PASS, PASS], "S")  # seat 1's kaboot
    assert match.scores == [-16, 47, 31, -10]
    assert match.result == {"winners": [1], "draw": False}


def test_ts_9_when_two_reach_the_target_the_higher_score_wins() -> None:
    match = _tie_setup(stack(turned(NINE_HANDS, 3), 3))
    # Seat 3 (dealer) holds the nine deal's declarer hand; seats 0, 1, 2 pass, seat 3 is
    # forced and bids 13, takes 9: seats 0, 1, 2 score 2, 2, 4.
    events = solo_hand(match, [PASS, PASS, PASS, 13], "S", NINE_PLAYS)
    assert deltas(events) == [2, 2, 4, -16]
    assert match.scores == [2, 31, 33, -30]
    assert match.result == {"winners": [2], "draw": False}


def test_ts_9_a_tie_at_the_top_below_the_target_decides_nothing() -> None:
    match = new([suits_deck(3, "DSHC"), suits_deck(0, "CDSH")])
    solo_hand(match, [PASS, 7, PASS, PASS], "S")
    solo_hand(match, [PASS, 7, PASS, PASS], "S")
    assert match.scores == [0, 16, 16, 0]
    assert match.result is None and match.phase == "bidding"


def test_ts_9_a_finished_match_refuses_every_action() -> None:
    match = new([suits_deck(3, "SDHC"), suits_deck(0, "SDHC")])
    solo_hand(match, [13], "S")
    solo_hand(match, [PASS, PASS, PASS, 7], "S")
    assert match.scores == [42, 0, 0, 0]
    assert match.result == {"winners": [0], "draw": False}
    for seat in range(4):
        assert match.legal_actions(seat) == []
        assert match.auto_action(seat) is None
        refused(match, seat, {"type": "pass"}, "match_over")
        refused(match, seat, {"type": "bid", "value": 7}, "match_over")
    assert match.view(None)["result"] == {"winners": [0], "draw": False}


# ---------------------------------------------------------------- TS.10


def test_ts_10_timeout_in_the_auction_is_a_pass() -> None:
    match = golden_match()
    assert match.auto_action(0) == {"type": "pass"}
    assert match.auto_action(1) is None  # not seat 1's turn
    call(match, 0, 9)
    assert match.auto_action(1) == {"type": "pass"}  # also after a bid
    auction(match, [PASS, PASS])
    assert match.auto_action(3) == {"type": "pass"}  # the dealer is free: someone bid


def test_ts_10_timeout_of_the_forced_dealer_is_a_bid_of_7() -> None:
    match = golden_match()
    for seat in (0, 1, 2):
        action = match.auto_action(seat)
        assert action == {"type": "pass"}
        match.apply(seat, action)
    assert match.auto_action(3) == {"type": "bid", "value": 7}
    match.apply(3, {"type": "bid", "value": 7})
    assert match.phase == "trump" and match.to_act == [3]


def declarer_hand(cards: str) -> engine.Match:
    """Seat 0 holds ``cards`` (13 codes), the other seats the rest; seat 0 wins at 7."""
    mine = cards.split()
    assert len(mine) == 13
    rest = [card for suit in "CDHS" for card in SUIT_CARDS[suit] if card not in mine]
    match = new([stack([mine, rest[:13], rest[13:26], rest[26:]], 3)])
    auction(match, [7, PASS, PASS, PASS])
    assert match.phase == "trump" and match.to_act == [0]
    return match


@pytest.mark.parametrize(
    ("cards", "trump"),
    [
        # 5 hearts beat 4 higher spades: the count comes first.
        ("2H 3H 4H 5H 6H AS KS QS JS 2D 3D 2C 3C", "H"),
        ("2C 3C 4C 5C 6C 7C AS KS QS JS AH KH AD", "C"),
        # 4 clubs (A+2+3+4 = 23) beat 4 diamonds (Q+4+3+2 = 21) though C is the lowest suit.
        ("AC 2C 3C 4C QD 4D 3D 2D 5H 4H 3H 2H 5S", "C"),
        # J = 11: hearts J+4+3+2 = 20 beat spades 10+4+3+2 = 19.
        ("JH 4H 3H 2H TS 4S 3S 2S 5D 6D 7D 5C 6C", "H"),
        # K = 13 beats Q = 12: diamonds K+4+3+2 = 22 beat spades Q+4+3+2 = 21.
        ("KD 4D 3D 2D QS 4S 3S 2S 5H 6H 7H 5C 6C", "D"),
    ],
)
def test_ts_10_timeout_trump_is_the_longest_suit_then_the_higher_rank_sum(
    cards: str, trump: str
) -> None:
    match = declarer_hand(cards)
    assert match.auto_action(0) == {"type": "trump", "suit": trump}
    assert match.auto_action(1) is None


@pytest.mark.parametrize(
    ("cards", "trump"),
    [
        # Equal count (4) and equal sum (22) in the two suits named; the others are shorter.
        ("QS 5S 3S 2S QH 5H 3H 2H 5D 6D 7D 5C 6C", "S"),
        ("KH 4H 3H 2H KD 4D 3D 2D 5S 6S 7S 5C 6C", "H"),
        ("KD 4D 3D 2D KC 4C 3C 2C 5H 6H 7H 5S 6S", "D"),
        ("AS 2S 3S 4S AC 2C 3C 4C 5H 6H 7H 5D 6D", "S"),
        # Different cards but the same sum: A+2+3+4 = 23 = K+5+3+2 → S wins.
        ("KS 5S 3S 2S AH 2H 3H 4H 5D 6D 7D 5C 6C", "S"),
    ],
)
def test_ts_10_timeout_trump_full_ties_go_s_then_h_then_d_then_c(cards: str, trump: str) -> None:
    match = declarer_hand(cards)
    assert match.auto_action(0) == {"type": "trump", "suit": trump}


@pytest.mark.parametrize(("trump", "lead"), [("S", "2C"), ("H", "2C"), ("D", "2C"), ("C", "2D")])
def test_ts_10_timeout_lead_is_the_weakest_card_not_a_trump(trump: str, lead: str) -> None:
    # Seat 0 holds 2C, 2D and 2H among its cards: lowest rank, suits C < D < H < S, but a
    # trump only when nothing else is left.
    match = golden_match()
    auction(match, [7, PASS, PASS, PASS])
    match.apply(0, {"type": "trump", "suit": trump})
    assert match.auto_action(0) == {"type": "play", "card": lead}


@pytest.mark.parametrize(("trump", "discard"), [("S", "3C"), ("H", "3C"), ("C", "4D")])
def test_ts_10_timeout_follow_is_the_lowest_of_the_suit_and_a_void_discards_non_trump(
    trump: str, discard: str
) -> None:
    match = golden_match()
    auction(match, [7, PASS, PASS, PASS])
    match.apply(0, {"type": "trump", "suit": trump})
    match.apply(0, {"type": "play", "card": "AS"})
    assert match.auto_action(1) == {"type": "play", "card": "5S"}
    match.apply(1, {"type": "play", "card": "7S"})
    assert match.auto_action(2) == {"type": "play", "card": "2S"}
    match.apply(2, {"type": "play", "card": "4S"})
    # Seat 3 has no spade. With hearts trump it keeps its 5H/6H; with clubs trump it
    # keeps its clubs and the lowest other card is the 4D.
    assert match.auto_action(3) == {"type": "play", "card": discard}


def test_ts_10_timeout_plays_trump_only_when_holding_nothing_else() -> None:
    # Seat 0 holds the spades and names hearts, seat 1's whole suit.
    match = new([suits_deck(3, "SHDC")])
    auction(match, [7, PASS, PASS, PASS])
    match.apply(0, {"type": "trump", "suit": "H"})
    assert match.auto_action(0) == {"type": "play", "card": "2S"}
    match.apply(0, {"type": "play", "card": "AS"})
    assert match.auto_action(1) == {"type": "play", "card": "2H"}


def test_ts_10_a_match_of_timeouts_alone_reaches_a_result() -> None:
    match = engine.new_match("tarneeb_solo", seed=11)
    for _ in range(5000):
        if match.result is not None:
            break
        seat = match.to_act[0]
        action = match.auto_action(seat)
        assert action is not None and action in match.legal_actions(seat)
        match.apply(seat, action)
    result = match.result
    assert result is not None and result["draw"] is False
    (winner,) = result["winners"]
    scores = match.scores
    assert scores[winner] >= 31 and scores[winner] == max(scores)
    assert scores.count(max(scores)) == 1
