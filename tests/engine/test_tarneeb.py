"""Syrian Tarneeb 41 (T41) and Tarneeb 41 with doubled high bids (T41D), rule by rule."""

from __future__ import annotations

import pytest

import engine
from tests.engine.scripts import (
    GOLDEN_PLAYS,
    GOLDEN_WINNERS,
    bid_round,
    events_of,
    golden_deck,
    one_suit_deck,
    play_out,
    play_script,
    refused,
)


def golden_match(variant: str = "syrian41") -> engine.Match:
    return engine.new_match(variant, seed=5, options={"first_dealer": 3}, decks=[golden_deck()])


def bids_of(match: engine.Match, seat: int) -> list[int]:
    return [a["value"] for a in match.legal_actions(seat) if a["type"] == "bid"]


# ---------------------------------------------------------------- T41


def test_t41_1_scores_are_personal_and_team_score_is_the_partners_sum() -> None:
    match = golden_match()
    bid_round(match, [7, 4, 2, 2])
    play_script(match, [t.split() for t in GOLDEN_PLAYS])
    assert match.scores == [7, 4, -2, -2]
    assert match.team_scores == [5, 2]
    assert engine.VARIANTS["syrian41"].teams is True


def test_t41_2_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {engine.new_match("syrian41", seed=seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert (
        engine.new_match("syrian41", seed=9).dealer == engine.new_match("syrian41", seed=9).dealer
    )


def test_t41_2_deal_passes_right_after_played_and_cancelled_hands() -> None:
    match = engine.new_match("syrian41", seed=1, options={"first_dealer": 2})
    bid_round(match, [2, 2, 2, 2])  # cancelled (T41.6)
    assert match.dealer == 3 and match.deal_number == 2
    bid_round(match, [3, 3, 3, 3])
    play_out(match)
    assert match.dealer == 0 and match.deal_number == 3


def test_t41_3_dealing_starts_right_of_the_dealer_who_receives_last() -> None:
    deck = golden_deck()
    for dealer in range(4):
        match = engine.new_match("syrian41", options={"first_dealer": dealer}, decks=[deck])
        first = (dealer + 1) % 4
        for j, card in enumerate(deck):
            assert card in match.hand((first + j) % 4)
        assert deck[51] in match.hand(dealer)


@pytest.mark.parametrize(("shown", "trump"), [("AC", "S"), ("AS", "C"), ("AD", "H"), ("AH", "D")])
def test_t41_4_dealers_13th_card_is_shown_and_trump_is_the_other_suit_of_its_colour(
    shown: str, trump: str
) -> None:
    deck = golden_deck()
    index = deck.index(shown)
    deck[index], deck[51] = deck[51], deck[index]
    match = engine.new_match("syrian41", options={"first_dealer": 3}, decks=[deck])
    for seat in (None, 0, 1, 2, 3):
        view = match.view(seat)
        assert view["shown_card"] == shown
        assert view["trump"] == trump
    assert shown in match.hand(3)  # the shown card stays in the dealer's hand


def test_t41_4_the_shown_card_is_played_like_any_other() -> None:
    match = golden_match()
    bid_round(match, [7, 4, 2, 2])
    events = play_script(match, [GOLDEN_PLAYS[0].split()])
    assert {"type": "play", "seat": 3, "card": "3C"} in events
    assert "3C" not in match.hand(3)


def test_t41_5_each_seat_bids_once_from_the_dealers_right_2_to_13_without_pass() -> None:
    match = golden_match()
    assert match.to_act == [0]
    assert bids_of(match, 0) == list(range(2, 14))
    refused(match, 0, {"type": "bid", "value": 1}, "bid_out_of_range")
    refused(match, 0, {"type": "bid", "value": 14}, "bid_out_of_range")
    refused(match, 0, {"type": "pass"}, "wrong_action")
    refused(match, 1, {"type": "bid", "value": 3}, "not_your_turn")
    order = []
    for _ in range(4):
        order.append(match.to_act[0])
        match.apply(order[-1], {"type": "bid", "value": 3})
    assert order == [0, 1, 2, 3]
    assert match.phase == "playing"
    refused(match, 0, {"type": "bid", "value": 3}, "wrong_phase")


def test_t41_6_bids_below_11_cancel_the_deal() -> None:
    match = golden_match()
    events = bid_round(match, [2, 3, 2, 3])
    cancelled = events_of(events, "deal_cancelled")
    assert cancelled == [
        {
            "type": "deal_cancelled",
            "deal_number": 1,
            "bids": [2, 3, 2, 3],
            "total": 10,
            "needed": 11,
        }
    ]
    assert match.scores == [0, 0, 0, 0]
    assert match.deal_number == 2 and match.dealer == 0 and match.phase == "bidding"
    assert events_of(events, "deal")[0]["deal_number"] == 2
    assert match.view(None)["history"][0]["cancelled"] is True


def test_t41_6_a_total_of_11_is_played() -> None:
    match = golden_match()
    bid_round(match, [2, 3, 3, 3])
    assert match.phase == "playing" and match.deal_number == 1


def test_t41_6_the_last_bidder_may_keep_the_total_under_11() -> None:
    match = golden_match()
    for seat in (0, 1, 2):
        match.apply(seat, {"type": "bid", "value": 2})
    assert bids_of(match, 3) == list(range(2, 14))


def test_t41_7_dealers_right_leads_suit_must_be_followed_and_trump_wins() -> None:
    match = golden_match()
    bid_round(match, [7, 4, 2, 2])
    assert match.to_act == [0]
    match.apply(0, {"type": "play", "card": "AS"})
    refused(match, 1, {"type": "play", "card": "AH"}, "must_follow_suit")
    assert [a["card"] for a in match.legal_actions(1)] == ["5S", "6S", "7S"]
    match.apply(1, {"type": "play", "card": "5S"})
    match.apply(2, {"type": "play", "card": "2S"})
    # Seat 3 holds no spade: any card is legal.
    assert len(match.legal_actions(3)) == 13
    events = match.apply(3, {"type": "play", "card": "3C"})
    assert events_of(events, "trick_won")[0]["seat"] == 0
    assert match.to_act == [0]  # the winner leads


def test_t41_7_thirteen_tricks_each_won_by_trump_or_the_highest_of_the_led_suit() -> None:
    match = golden_match()
    bid_round(match, [7, 4, 2, 2])
    events = play_script(match, [t.split() for t in GOLDEN_PLAYS])
    assert [e["seat"] for e in events_of(events, "trick_won")] == GOLDEN_WINNERS


def test_t41_7_the_smallest_trump_beats_the_ace_of_the_led_suit() -> None:
    # Dealer 2 holds clubs (trump spades); seat 1 spades, seat 0 diamonds, seat 3 hearts.
    match = engine.new_match("syrian41", options={"first_dealer": 2}, decks=[one_suit_deck(2, 1)])
    bid_round(match, [2, 5, 2, 2])
    match.apply(3, {"type": "play", "card": "AH"})
    match.apply(0, {"type": "play", "card": "AD"})
    match.apply(1, {"type": "play", "card": "2S"})
    events = match.apply(2, {"type": "play", "card": "AC"})
    assert events_of(events, "trick_won")[0]["seat"] == 1
    assert match.to_act == [1]


def test_t41_8_made_bids_score_the_bid_failed_bids_lose_it_overtricks_count_nothing() -> None:
    match = golden_match()
    bid_round(match, [7, 4, 2, 2])  # seat 1 takes 6 tricks on a bid of 4
    events = play_script(match, [t.split() for t in GOLDEN_PLAYS])
    scored = events_of(events, "hand_scored")[0]
    assert scored["tricks"] == [7, 6, 0, 0]
    assert scored["deltas"] == [7, 4, -2, -2]


def test_t41_8_scores_may_go_negative_and_accumulate() -> None:
    decks = [one_suit_deck(0, 1), one_suit_deck(1, 2)]
    match = engine.new_match("syrian41", options={"first_dealer": 0}, decks=decks)
    bid_round(match, [5, 5, 2, 2])
    play_out(match)
    assert match.scores == [-5, 5, -2, -2]
    bid_round(match, [3, 3, 5, 3])
    play_out(match)
    assert match.scores == [-8, 2, 3, -5]


def _one_suit_script(
    variant: str, first_dealer: int, script: list[tuple[int, list[int]]]
) -> engine.Match:
    """Play one-suit deals: (winner, bids) each; the winner takes all 13 tricks."""
    decks = [one_suit_deck((first_dealer + i) % 4, winner) for i, (winner, _) in enumerate(script)]
    match = engine.new_match(variant, options={"first_dealer": first_dealer}, decks=decks)
    for _, bids in script:
        bid_round(match, bids)
        if match.phase == "playing":
            play_out(match)
    return match


def test_t41_9_41_with_a_partner_at_or_below_zero_does_not_qualify() -> None:
    script = [
        (2, [2, 2, 5, 2]),  # dealer 0 → [-2, -2, 5, -2]
        (0, [13, 2, 2, 2]),  # dealer 1 → [11, -4, 3, -4]
        (0, [13, 2, 2, 2]),  # → [24, -6, 1, -6]
        (0, [13, 2, 2, 2]),  # → [37, -8, -1, -8]
        (1, [2, 5, 2, 2]),  # → [35, -3, -3, -10]
        (0, [13, 2, 2, 2]),  # → [48, -5, -5, -12]: 48 but the partner is at -5
    ]
    match = _one_suit_script("syrian41", 0, script)
    assert match.scores == [48, -5, -5, -12]
    assert match.result is None and match.phase == "bidding"


def test_t41_9_a_partner_at_exactly_zero_does_not_qualify() -> None:
    script = [
        (2, [2, 2, 13, 2]),  # dealer 1 → [-2, -2, 13, -2]
        (0, [13, 2, 2, 2]),  # dealer 2 → [11, -4, 11, -4]
        (0, [13, 2, 2, 2]),  # dealer 3 → [24, -6, 9, -6]
        (1, [2, 5, 2, 2]),  # dealer 0 → [22, -1, 7, -8]
        (0, [13, 2, 2, 2]),  # dealer 1 → [35, -3, 5, -10]
        (0, [6, 2, 5, 2]),  # dealer 2 → [41, -5, 0, -12]
    ]
    match = _one_suit_script("syrian41", 1, script)
    assert match.scores == [41, -5, 0, -12]
    assert match.result is None and match.phase == "bidding"


def test_t41_10_one_qualifying_team_wins() -> None:
    script = [
        (2, [2, 2, 5, 2]),
        (0, [13, 2, 2, 2]),
        (0, [13, 2, 2, 2]),
        (0, [13, 2, 2, 2]),  # [37, -8, -1, -8]
        (2, [2, 2, 9, 2]),  # dealer 0 → [35, -10, 8, -10]
        (0, [8, 2, 2, 2]),  # dealer 1 → [43, -12, 6, -12]: 43 and partner 6 → team A wins
    ]
    match = _one_suit_script("syrian41", 0, script)
    assert match.scores == [43, -12, 6, -12]
    assert match.result == {"winners": [0, 2], "draw": False}
    assert match.phase == "finished" and match.to_act == []
    assert match.legal_actions(0) == []


# Twelve one-suit deals from dealer 3 that bring the scores to [34, 35, 5, 5], nobody at 41.
TIE_SETUP = [
    (0, [13, 2, 2, 2]),
    (1, [2, 13, 2, 2]),
    (2, [2, 2, 13, 2]),
    (3, [2, 2, 2, 13]),
    (0, [13, 2, 2, 2]),
    (1, [2, 13, 2, 2]),
    (0, [13, 2, 2, 2]),
    (1, [2, 13, 2, 2]),
    (2, [2, 2, 12, 2]),
    (3, [2, 2, 2, 12]),
    (0, [11, 2, 2, 2]),
    (1, [2, 12, 2, 2]),
]


def _tie_match(
    setup: list[tuple[int, list[int]]], last_bids: list[int], extra: list[list[str]] | None = None
) -> engine.Match:
    """``setup`` one-suit deals from dealer 3, then the golden deal (dealer 3 again) with
    ``last_bids`` — seat 0 takes 7 tricks, seat 1 takes 6 — then the ``extra`` decks."""
    decks = [one_suit_deck((3 + i) % 4, w) for i, (w, _) in enumerate(setup)]
    decks.append(golden_deck())
    decks.extend(extra or [])
    match = engine.new_match("syrian41", options={"first_dealer": 3}, decks=decks)
    for _, bids in setup:
        bid_round(match, bids)
        play_out(match)
    assert match.dealer == 3 and match.result is None
    bid_round(match, last_bids)
    play_script(match, [t.split() for t in GOLDEN_PLAYS])
    return match


def test_t41_10_both_teams_qualify_and_the_higher_total_wins() -> None:
    setup = [*TIE_SETUP[:-1], (1, [2, 13, 2, 2])]  # seat 1 ends the setup on 36
    match = _tie_match(setup, [7, 6, 2, 2])
    assert match.scores == [41, 42, 3, 3]  # both qualify: 44 against 45
    assert match.result == {"winners": [1, 3], "draw": False}


def test_t41_10_an_exact_tie_of_qualified_teams_plays_one_more_hand() -> None:
    extra = [
        one_suit_deck(0, 1),  # deal 14, dealer 0: bids of 2 each → cancelled
        one_suit_deck(1, 0),  # deal 15, dealer 1: seat 0 takes all 13
    ]
    match = _tie_match(TIE_SETUP, [7, 6, 2, 2], extra)
    assert match.scores == [41, 41, 3, 3]
    assert match.team_scores == [44, 44]
    assert match.result is None and match.deal_number == 14 and match.dealer == 0
    bid_round(match, [2, 2, 2, 2])  # cancelled: scores unchanged, no decision
    assert match.result is None and match.dealer == 1
    bid_round(match, [5, 2, 2, 2])
    play_out(match)
    assert match.scores == [46, 39, 1, 1]
    assert match.result == {"winners": [0, 2], "draw": False}


def test_t41_11_timeout_bids_2_and_the_dealer_bids_what_reaches_11() -> None:
    match = golden_match()
    assert match.auto_action(0) == {"type": "bid", "value": 2}
    assert match.auto_action(1) is None  # not seat 1's turn
    match.apply(0, {"type": "bid", "value": 2})
    match.apply(1, {"type": "bid", "value": 3})
    match.apply(2, match.auto_action(2))  # type: ignore[arg-type]
    assert match.auto_action(3) == {"type": "bid", "value": 4}  # max(2, 11 − 7)


def test_t41_11_timeout_dealer_bids_at_least_2() -> None:
    match = golden_match()
    for seat, bid in ((0, 5), (1, 5), (2, 5)):
        match.apply(seat, {"type": "bid", "value": bid})
    assert match.auto_action(3) == {"type": "bid", "value": 2}


def test_t41_11_timeout_in_play_is_the_weakest_legal_card() -> None:
    match = golden_match()
    bid_round(match, [7, 4, 2, 2])
    assert match.auto_action(0) == {"type": "play", "card": "2C"}  # lowest non-trump
    match.apply(0, {"type": "play", "card": "AS"})
    assert match.auto_action(1) == {"type": "play", "card": "5S"}  # must follow spades
    match.apply(1, {"type": "play", "card": "5S"})
    match.apply(2, {"type": "play", "card": "2S"})
    # Void in spades, seat 3 holds no trump: its lowest card, 3C, goes.
    assert match.auto_action(3) == {"type": "play", "card": "3C"}


def test_t41_11_timeout_plays_trump_only_when_holding_nothing_else() -> None:
    match = engine.new_match("syrian41", options={"first_dealer": 2}, decks=[one_suit_deck(2, 1)])
    bid_round(match, [2, 5, 2, 2])
    match.apply(3, {"type": "play", "card": "AH"})
    match.apply(0, {"type": "play", "card": "2D"})
    assert match.auto_action(1) == {"type": "play", "card": "2S"}  # all spades (trump)


def test_t41_12_a_restored_match_keeps_shown_card_trump_bids_tricks_and_scores() -> None:
    match = golden_match()
    bid_round(match, [7, 4, 2, 2])
    play_script(match, [t.split() for t in GOLDEN_PLAYS[:5]])
    match.apply(0, {"type": "play", "card": "9S"})
    restored = engine.Match.from_json(match.to_json())
    for seat in (None, 0, 1, 2, 3):
        assert restored.view(seat) == match.view(seat)
    assert restored.deal_number == 1  # never a redeal
    rest = [t.split() for t in GOLDEN_PLAYS[5:]]
    rest[0] = rest[0][1:]
    for m in (match, restored):
        play_script(m, rest)
    assert restored.scores == match.scores == [7, 4, -2, -2]


# ---------------------------------------------------------------- T41D


def test_t41d_1_a_bid_of_6_does_not_exist() -> None:
    match = golden_match("tarneeb41_double")
    assert 6 not in bids_of(match, 0)
    assert bids_of(match, 0) == [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13]
    refused(match, 0, {"type": "bid", "value": 6}, "bid_forbidden")


T41D_THIRTY = [
    (1, [2, 13, 2, 2]),  # dealer 2 → [-2, 26, -2, -2]
    (1, [3, 7, 2, 2]),  # dealer 3 → [-5, 40, -4, -4]
]


def test_t41d_2_from_30_points_bidding_2_is_refused() -> None:
    match = _one_suit_script("tarneeb41_double", 2, T41D_THIRTY)
    assert match.scores == [-5, 40, -4, -4]
    assert match.to_act == [1]  # deal 3, dealer 0: seat 1 bids first, on 40 points
    assert 2 not in bids_of(match, 1)
    refused(match, 1, {"type": "bid", "value": 2}, "bid_two_forbidden")
    assert match.auto_action(1) == {"type": "bid", "value": 3}  # T41D.7


def test_t41d_2_bidding_2_is_legal_again_below_30() -> None:
    script = [
        *T41D_THIRTY,
        (3, [2, 3, 2, 8]),  # dealer 0 → [-7, 37, -6, 12]: seat 1 fails 3
        (0, [7, 7, 2, 2]),  # dealer 1 → [7, 23, -8, 10]: seat 1 fails 7 (−14)
    ]
    match = _one_suit_script("tarneeb41_double", 2, script)
    assert match.scores == [7, 23, -8, 10]
    match.apply(3, {"type": "bid", "value": 3})  # deal 5, dealer 2: seats 3, 0, 1, 2
    match.apply(0, {"type": "bid", "value": 3})
    assert match.to_act == [1] and 2 in bids_of(match, 1)


def test_t41d_3_a_total_of_11_is_cancelled_and_12_is_played() -> None:
    match = golden_match("tarneeb41_double")
    events = bid_round(match, [2, 4, 2, 3])
    assert events_of(events, "deal_cancelled")[0]["total"] == 11
    assert match.deal_number == 2 and match.phase == "bidding"
    bid_round(match, [2, 4, 3, 3])
    assert match.phase == "playing"


def test_t41d_4_bids_from_7_count_double_made_or_failed() -> None:
    match = golden_match("tarneeb41_double")
    bid_round(match, [7, 8, 2, 2])  # seat 0 makes 7 (+14), seat 1 takes 6 of 8 (−16)
    events = play_script(match, [t.split() for t in GOLDEN_PLAYS])
    assert events_of(events, "hand_scored")[0]["deltas"] == [14, -16, -2, -2]
    match13 = _one_suit_script("tarneeb41_double", 0, [(1, [2, 13, 2, 2])])
    assert match13.scores == [-2, 26, -2, -2]


def test_t41d_4_bids_below_7_count_face_value() -> None:
    match = golden_match("tarneeb41_double")
    bid_round(match, [5, 5, 2, 2])
    play_script(match, [t.split() for t in GOLDEN_PLAYS])
    assert match.scores == [5, 5, -2, -2]


def test_t41d_5_qualification_needs_41_and_a_partner_above_zero() -> None:
    script = [
        (2, [2, 2, 7, 3]),  # dealer 0 → [-2, -2, 14, -3]
        (0, [13, 2, 2, 2]),  # dealer 1 → [24, -4, 12, -5]
        (0, [9, 2, 2, 2]),  # dealer 2 → [42, -6, 10, -7]: team A qualifies
    ]
    match = _one_suit_script("tarneeb41_double", 0, script)
    assert match.scores == [42, -6, 10, -7]
    assert match.result == {"winners": [0, 2], "draw": False}


def test_t41d_6_hands_are_grouped_by_suit_ascending_within_each_suit() -> None:
    match = golden_match("tarneeb41_double")
    hand = match.view(0)["hand"]
    assert hand == match.hand(0)
    assert hand == ["2C", "2D", "3D", "2H", "3H", "4H", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]


def test_t41d_7_timeout_bids_the_smallest_legal_bid_and_the_last_reaches_12_skipping_6() -> None:
    match = golden_match("tarneeb41_double")
    for seat in (0, 1, 2):
        assert match.auto_action(seat) == {"type": "bid", "value": 2}
        match.apply(seat, {"type": "bid", "value": 2})
    assert match.auto_action(3) == {"type": "bid", "value": 7}  # needs 6, which does not exist
    match = golden_match("tarneeb41_double")
    for seat, bid in ((0, 2), (1, 3), (2, 2)):
        match.apply(seat, {"type": "bid", "value": bid})
    assert match.auto_action(3) == {"type": "bid", "value": 5}
    match = golden_match("tarneeb41_double")
    for seat, bid in ((0, 5), (1, 5), (2, 5)):
        match.apply(seat, {"type": "bid", "value": bid})
    assert match.auto_action(3) == {"type": "bid", "value": 2}
