"""Small fixed positions where the right play is known.

Most call the mask-level policies the heuristic player and the search rollouts share
(``cardplay.choose_play``, ``complex.complex_play``, ``layout.layout_play``,
``complex.choose_doubles``, ``bidding``); some drive the real engine from stacked decks
and ask the heuristic player through a seat's view. Then what a seat knows
(``knowledge.read_view``) and the deals the search player samples from it
(``sampling.sample_hands``).

Seats: partners sit opposite (0 & 2, 1 & 3). In the trick-play positions trump is spades
unless stated otherwise; ``out`` is every card neither in the hand nor already played.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.cards import FULL_MASK, SUIT_MASKS, card_code, cards_of, parse_card
from engine.dealing import deck_for_hands
from engine.params import SYRIAN41, TARNEEB41_DOUBLE
from engine.players import new_player
from engine.players.bidding import estimate_tricks, solo_call, spread, tarneeb_bid
from engine.players.cardplay import choose_play
from engine.players.complex import choose_doubles, complex_play, prefers_trix
from engine.players.heuristic import allies_of
from engine.players.knowledge import Knowledge, read_view
from engine.players.layout import layout_play
from engine.players.sampling import sample_hands
from tests.engine.players.support import VARIANTS
from tests.engine.scripts import bid_round, rotated

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
DOUBLABLE = {"KH", "QC", "QD", "QH", "QS"}  # TX.7
TEAM_A, TEAM_B = 0b0101, 0b1010  # seats 0 & 2, seats 1 & 3


def mask(text: str) -> int:
    result = 0
    for code in text.split():
        result |= 1 << parse_card(code)
    return result


def card(code: str) -> int:
    return parse_card(code)


def codes(cards_mask: int) -> set[str]:
    return {card_code(c) for c in cards_of(cards_mask)}


def trick_play(
    hand: str,
    trick: list[tuple[int, str]],
    allies: int,
    trump: int = SPADES,
    played: str = "",
    danger: int = 0,
) -> str:
    """``choose_play`` for a seat holding ``hand`` after ``trick`` ((seat, card) in play
    order); cards in ``played`` have gone in earlier tricks."""
    hand_mask = mask(hand)
    gone = mask(played) | mask(" ".join(code for _, code in trick))
    out = FULL_MASK & ~hand_mask & ~gone
    chosen = choose_play(
        hand_mask,
        [card(code) for _, code in trick],
        [seat for seat, _ in trick],
        trump,
        out,
        allies,
        danger,
    )
    assert hand_mask >> chosen & 1, "the card must come from the hand"
    return card_code(chosen)


# ---------------------------------------------------------------- trick play (T41, TS)


def test_third_seat_does_not_overtake_a_partner_winning_with_the_master() -> None:
    # AH is gone, so the partner's KH is the master: seat 2 plays low under it.
    chosen = trick_play("QH 4H 9C 2D", [(0, "KH"), (1, "3H")], TEAM_A, played="AH 5C 6C 7C")
    assert chosen == "4H"


def test_last_seat_wins_as_cheaply_as_possible() -> None:
    chosen = trick_play("AH KH QH 2H 4C", [(1, "5H"), (2, "3H"), (3, "JH")], TEAM_A)
    assert chosen == "QH"


def test_last_seat_does_not_take_a_trick_its_partner_already_wins() -> None:
    chosen = trick_play("AH KH 2H 4C", [(1, "5H"), (2, "QH"), (3, "9H")], TEAM_A)
    assert chosen == "2H"


def test_second_hand_plays_low_without_a_sure_winner() -> None:
    # AH is still out: KH is no sure winner, so seat 1 keeps it and plays low (T41.7).
    assert trick_play("KH 9H 3H 5C", [(0, "5H")], TEAM_B) == "3H"


def test_second_hand_wins_with_the_cheaper_of_two_sure_winners() -> None:
    # AH and KH both beat everything still out (QH is the highest heart out).
    assert trick_play("AH KH 3H 5C", [(0, "5H")], TEAM_B) == "KH"


def test_third_hand_plays_high_when_an_opponent_is_winning() -> None:
    # The last seat may hold AH: KH makes it pay for the trick.
    assert trick_play("KH TH 2H 5C", [(0, "3H"), (1, "9H")], TEAM_A) == "KH"


def test_void_seat_ruffs_an_opponents_winner_with_the_lowest_trump_that_wins() -> None:
    # Seat 2 (opponent) has ruffed with 7S: 3S would not win, 9S is the cheapest that does.
    chosen = trick_play("3S 9S KS 2C 5D", [(0, "AH"), (1, "4H"), (2, "7S")], TEAM_B)
    assert chosen == "9S"
    # Nobody has ruffed yet: the lowest trump does.
    assert trick_play("3S 9S KS 2C 5D", [(0, "AH")], TEAM_B) == "3S"


def test_void_seat_whose_partner_wins_pitches_a_low_loser_not_a_trump() -> None:
    # Partner (seat 0) leads the master AH; seat 2 has no heart. AD is a sure winner, so
    # the diamonds are kept; the lowest club goes.
    chosen = trick_play("2S 5S 3C 9C 4D AD", [(0, "AH"), (1, "4H")], TEAM_A)
    assert chosen == "3C"


def test_void_seat_that_cannot_win_pitches_a_loser() -> None:
    # Opponent seat 2 leads AS (trump); seat 3 has no spade, so it cannot win: it keeps
    # the master AH and throws its lowest loser.
    assert trick_play("QD 2C 7C AH", [(2, "AS")], TEAM_B) == "2C"


def test_leader_holding_the_top_trump_draws_trumps() -> None:
    assert trick_play("AS 4S 2S KH 3C 7D", [], TEAM_A) == "AS"


def test_leader_does_not_lead_trumps_when_none_are_left_out() -> None:
    # Every other spade has been played: cash the side-suit master instead.
    others = " ".join(f"{r}S" for r in "23456789TJQ")
    assert trick_play("AS KS AH 3C 7D", [], TEAM_A, played=others) == "AH"


def test_leader_avoids_a_suit_an_opponent_can_ruff() -> None:
    hand = "AH 5H AC 2D 3D"
    played = "2C 3C 4C 5C 6C 7C 8C"  # more hearts than clubs out: AH is cashed first
    assert trick_play(hand, [], TEAM_A, played=played) == "AH"
    # An opponent has shown a heart void while trumps are out: AC instead.
    assert trick_play(hand, [], TEAM_A, played=played, danger=1 << HEARTS) == "AC"


def test_leader_without_winners_leads_low_from_the_longest_side_suit() -> None:
    assert trick_play("9C 7C 4C 3C 8D 6H 2S", [], TEAM_A) == "3C"


def test_golden_deal_first_lead_draws_trumps() -> None:
    """The real engine: seat 0 holds AS KS QS JS TS 9S 8S with spades trump (T41.4: the
    dealer's shown 3C) and leads; the heuristic player draws trumps with the ace."""
    deck, dealer, _, _ = rotated(0)
    match = engine.new_match("syrian41", seed=1, options={"first_dealer": dealer}, decks=[deck])
    bid_round(match, [7, 6, 2, 2])
    assert match.to_act == [0]
    assert new_player("heuristic").decide(match.view(0)) == {"type": "play", "card": "AS"}


# ---------------------------------------------------------------- Complex (TX.5–TX.8)


def complex_move(
    hand: str,
    trick: list[tuple[int, str]],
    seat: int,
    played: str = "",
    doubled: dict[str, int] | None = None,
) -> str:
    hand_mask = mask(hand)
    gone = mask(played) | mask(" ".join(code for _, code in trick))
    chosen = complex_play(
        hand_mask,
        [card(code) for _, code in trick],
        [s for s, _ in trick],
        FULL_MASK & ~hand_mask & ~gone,
        1 << seat | 1 << (seat ^ 2),
        seat,
        {card(code): s for code, s in (doubled or {}).items()},
    )
    assert hand_mask >> chosen & 1
    return card_code(chosen)


def test_complex_duck_dumps_a_queen_onto_an_opponents_trick() -> None:
    # Seat 3 (opponent) leads AS; seat 0 ducks under it with QS: the queen's −25 is theirs.
    assert complex_move("QS 5S 2S 3D", [(3, "AS")], 0) == "QS"


def test_complex_duck_keeps_the_queen_off_the_partners_trick() -> None:
    # Partner (seat 2) leads AS: seat 0 ducks with a card that costs nothing (TX.6).
    chosen = complex_move("QS 5S 2S 3D", [(2, "AS"), (3, "4S")], 0)
    assert chosen != "QS"
    assert chosen == "5S"


def test_complex_void_seat_dumps_the_king_of_hearts_on_an_opponent() -> None:
    # Clubs led; seat 0 has none; opponent seat 3 wins with AC: K♥ (−75) goes there.
    chosen = complex_move("KH QS 2D 9H", [(1, "3C"), (2, "5C"), (3, "AC")], 0)
    assert chosen == "KH"


def test_complex_void_seat_dumps_its_own_doubled_card_on_an_opponent() -> None:
    """TX.8 case 1: seat 0 doubled QC; an opponent taking it gets −50 and seat 0 gets +25,
    better for seat 0's side than feeding the undoubled QS (−25)."""
    trick = [(1, "3H"), (2, "2H"), (3, "9H")]  # seat 3 (opponent) wins; seat 0 plays last
    chosen = complex_move("QC QS AD 2D 5C", trick, 0, doubled={"QC": 0})
    assert chosen == "QC"


def test_complex_void_seat_keeps_penalties_off_the_partners_trick() -> None:
    # Partner (seat 2) wins with AH; seat 0 sheds a card that costs nothing — never its
    # doubled QC (TX.8 case 1 would cost the side 25 net), a queen or a diamond (TX.6).
    trick = [(1, "3H"), (2, "AH"), (3, "5H")]
    chosen = complex_move("QC QS AS 2D 5C", trick, 0, doubled={"QC": 0})
    assert chosen == "AS"


def test_complex_last_seat_forced_to_take_sheds_its_highest_harmless_card() -> None:
    # Every spade of seat 0 beats the trick: it takes it anyway, so it gets rid of KS
    # and keeps the queen out of its own trick.
    assert complex_move("9S KS QS 2H", [(1, "2S"), (2, "3S"), (3, "4S")], 0) == "KS"


def test_complex_lead_is_a_card_that_someone_can_beat() -> None:
    # AS cannot be beaten (it would take the trick); the low club can.
    assert complex_move("2C AS 5H", [], 0) == "2C"


def test_choose_doubles_doubles_only_well_guarded_cards() -> None:
    """TX.7: only K♥ or queens the hand holds, and only with low cards to duck under."""
    assert choose_doubles(mask("KH 2H 3H 4H 6H 9C")) == [card("KH")]
    assert choose_doubles(mask("KH AH 2H 3H 4H 6H")) == []  # AH above it: case 2 risk
    assert choose_doubles(mask("KH 2H")) == []
    assert choose_doubles(mask("QS 2S 3S 5S")) == [card("QS")]
    assert choose_doubles(mask("QS 4D")) == []
    assert choose_doubles(mask("QS AS KS 2S 3S")) == []
    both = mask("QS 2S 3S 5S KH 2H 3H 4H 6H QD")
    assert choose_doubles(both) == sorted([card("KH"), card("QS")])
    for seed in range(200):  # always a subset of the hand's doublable cards
        hand = sum(1 << c for c in random.Random(seed).sample(range(52), 13))
        chosen = choose_doubles(hand)
        assert all(
            hand >> c & 1 and card_code(c) in {"KH", "QC", "QD", "QH", "QS"} for c in chosen
        )


def test_prefers_trix_with_high_cards_and_complex_with_low_cards() -> None:
    assert prefers_trix(mask("AS KS QS AH KH AD KD QD AC KC QC JC JS"))
    assert not prefers_trix(mask("2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C"))


# ---------------------------------------------------------------- Trix layout (TX.9)


def rows_of(**started: str) -> list[list[int] | None]:
    """``rows_of(H="9H JH")``: the row of each started suit, from its low to its high end."""
    rows: list[list[int] | None] = [None, None, None, None]
    for letter, ends in started.items():
        low, high = (card(code) % 13 for code in ends.split())
        rows["CDHS".index(letter)] = [low, high]
    return rows


def lay(hand: str, rows: list[list[int] | None], friendly: str = "") -> str | None:
    chosen = layout_play(mask(hand), rows, mask(friendly))
    return None if chosen < 0 else card_code(chosen)


def test_layout_prefers_a_card_that_opens_the_way_to_its_own_cards() -> None:
    # TH leads on to 9H and 8H in the same hand; QC only opens KC for someone else.
    assert lay("TH 9H 8H QC 2S", rows_of(H="JH JH", C="JC JC")) == "TH"


def test_layout_opens_the_way_to_a_card_the_opponents_lack() -> None:
    # QC and QD are alike; KD is known to be out of the opponents' hands, so QD gifts
    # them nothing.
    rows = rows_of(C="JC JC", D="JD JD")
    assert lay("QC QD", rows) == "QC"
    assert lay("QC QD", rows, friendly="KD") == "QD"
    assert lay("QC QD", rows, friendly="KC") == "QC"


def test_layout_passes_only_when_nothing_fits() -> None:
    """TX.9: PASS only without a legal card; one legal card is played even if it opens
    the way for the others."""
    assert lay("2C 3D KS", rows_of(H="JH JH")) is None
    assert lay("2C 3D KS QH", rows_of(H="JH JH")) == "QH"
    assert lay("2C 3D KS", [None, None, None, None]) is None  # no jack to start a row
    assert lay("2C JD", [None, None, None, None]) == "JD"


def test_layout_jack_that_unlocks_a_long_suit_goes_first() -> None:
    # JH opens TH and QH, both ours; JD and JS open nothing of ours.
    chosen = lay("JD JH JS 9H TH QH KH 7C", rows_of(C="TC JC"))
    assert chosen == "JH"


# ---------------------------------------------------------------- bidding (T41, T41D, TS)


def tarneeb_view(variant: str, hand: list[str], dealer: int = 3) -> dict[str, Any]:
    """The first bidder's view, holding ``hand``; the dealer's shown card is a club, so
    spades are trump (T41.4)."""
    seat = (dealer + 1) % 4
    rest = [code for code in ALL_CODES if code not in hand]
    shown = next(code for code in rest if code[1] == "C")
    rest.remove(shown)
    by_seat: list[list[str]] = [[], [], [], []]
    by_seat[seat] = list(hand)
    others = [s for s in range(4) if s not in (seat, dealer)]
    by_seat[others[0]], by_seat[others[1]] = rest[0:13], rest[13:26]
    by_seat[dealer] = [*rest[26:38], shown]
    deck = deck_for_hands(by_seat, seat)
    assert deck[51] == shown
    match = engine.new_match(variant, seed=1, options={"first_dealer": dealer}, decks=[deck])
    view = match.view(seat)
    assert view["trump"] == "S" and view["turn"] == [seat]
    assert sorted(view["hand"]) == sorted(hand)
    return view


ALL_CODES = [card_code(c) for c in range(52)]
STRONG = ["AS", "KS", "QS", "JS", "TS", "9S", "AC", "KC", "QC", "AH", "KH", "AD", "KD"]
WEAK = ["2S", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "2H", "3H", "4H", "5H", "6H"]


@pytest.mark.parametrize("variant", ["syrian41", "tarneeb41_double"])
def test_a_very_strong_hand_bids_high_and_a_weak_hand_bids_low(variant: str) -> None:
    strong = new_player("heuristic").decide(tarneeb_view(variant, STRONG))
    weak = new_player("heuristic").decide(tarneeb_view(variant, WEAK))
    assert strong["type"] == weak["type"] == "bid"
    assert strong["value"] >= 10
    assert weak["value"] == 2


def test_estimate_tricks_ranks_hands_sensibly() -> None:
    strong, weak = mask(" ".join(STRONG)), mask(" ".join(WEAK))
    assert estimate_tricks(strong, SPADES) >= 10
    assert estimate_tricks(weak, SPADES) < 1.5
    # Long trumps are worth more as trumps than as a side suit.
    long_spades = mask("AS KS QS JS TS 9S 8S 2H 3H 4H 2D 3D 2C")
    assert estimate_tricks(long_spades, SPADES) > estimate_tricks(long_spades, HEARTS) + 2


def bid_for(estimate: float, legal: list[int], **context: Any) -> int:
    base: dict[str, Any] = {
        "params": SYRIAN41,
        "others": 0,
        "last": False,
        "score": 0,
        "partner_score": 0,
    }
    base.update(context)
    return tarneeb_bid(legal, spread(estimate), **base)


T41_BIDS = list(range(2, 14))
T41D_BIDS = [b for b in T41_BIDS if b != 6]  # T41D.1


def test_bids_grow_with_the_hands_strength() -> None:
    bids = [bid_for(e / 2, T41_BIDS) for e in range(27)]
    assert bids == sorted(bids)
    assert bids[0] == 2 and bids[-1] >= 10


def test_t41d_never_bids_6_where_t41_would() -> None:
    """T41D.1: 6 does not exist; a hand worth a 6 in T41 bids 7 (doubled, T41D.4)."""
    assert bid_for(8, T41_BIDS) == 6
    assert bid_for(8, T41D_BIDS, params=TARNEEB41_DOUBLE) == 7
    for tenth in range(0, 131):
        assert bid_for(tenth / 10, T41D_BIDS, params=TARNEEB41_DOUBLE) != 6


def test_t41d_never_bids_2_from_a_score_of_30() -> None:
    """T41D.2: with 2 not legal, a weak hand takes the smallest legal bid, 3."""
    legal = [b for b in T41D_BIDS if b != 2]
    assert bid_for(0.5, legal, params=TARNEEB41_DOUBLE, score=34) == 3


def test_t41d_weak_hand_at_30_or_more_bids_3_in_a_real_match() -> None:
    """T41D.2 through the engine: every heuristic bid made at a score of 30 or more is
    not 2, and weak hands there bid 3."""
    weak_bids = []
    for seed in range(10):
        match = engine.new_match("tarneeb41_double", seed=seed)
        while match.result is None:
            seat = match.to_act[0]
            view = match.view(seat)
            action = new_player("heuristic").decide(view)
            if match.phase == "bidding" and match.scores[seat] >= 30:
                assert action["value"] != 2
                know = read_view(view)
                if estimate_tricks(know.hand, know.trump) < 1.5 and know.seat != know.dealer:
                    weak_bids.append(action["value"])
            match.apply(seat, action)
    assert weak_bids and set(weak_bids) == {3}


def test_last_bidder_cancels_rather_than_overbid_a_weak_hand() -> None:
    """T41.6: a total under 11 cancels the deal (worth 0); the weak dealer does not bid
    a likely failure just to reach 11."""
    bid = bid_for(1.0, T41_BIDS, others=6, last=True)
    assert 6 + bid < 11


def test_last_bidder_with_a_fair_hand_completes_the_total() -> None:
    bid = bid_for(5.5, T41_BIDS, others=6, last=True)
    assert 6 + bid >= 11


def test_a_seat_whose_partner_has_41_bids_safe() -> None:
    """T41.9: with the partner at 41 or more, a seat at 0 or less only needs a positive
    score; it bids lower than it otherwise would."""
    normal = bid_for(9, T41_BIDS)
    safe = bid_for(9, T41_BIDS, partner_score=43, score=-4)
    assert safe < normal


def test_solo_auction_calls() -> None:
    """TS.3–TS.5 and TS.8: pass with a weak hand, bid 7 (the cheapest) with a strong one,
    13 only when all tricks are certain; the forced dealer always bids."""
    bids = list(range(7, 14))
    assert solo_call(bids, spread(3.0), forced=False) is None
    assert solo_call(bids, spread(3.0), forced=True) == 7
    assert solo_call(bids, spread(10.5), forced=False) == 7
    certain = [0.0] * 13 + [1.0]
    assert solo_call(bids, certain, forced=False) == 13
    assert solo_call([9, 10], spread(3.0), forced=True) == 9
    assert solo_call([], spread(10.0), forced=False) is None


def test_solo_declarer_picks_its_long_strong_suit_as_trump() -> None:
    """TS.6 through the engine: seat 1 declares with seven hearts headed by AKQ."""
    hand = ["AH", "KH", "QH", "JH", "9H", "5H", "3H", "AC", "4C", "7D", "2D", "6S", "3S"]
    rest = [c for c in ALL_CODES if c not in hand]
    hands = [rest[0:13], hand, rest[13:26], rest[26:39]]
    match = engine.new_match(
        "tarneeb_solo", seed=2, options={"first_dealer": 0}, decks=[deck_for_hands(hands, 1)]
    )
    match.apply(1, {"type": "bid", "value": 7})
    for seat in (2, 3, 0):
        match.apply(seat, {"type": "pass"})
    assert match.phase == "trump" and match.to_act == [1]
    assert new_player("heuristic").decide(match.view(1)) == {"type": "trump", "suit": "H"}


# ---------------------------------------------------------------- knowledge


def golden_after_first_trick() -> engine.Match:
    deck, dealer, plays, _ = rotated(0)
    match = engine.new_match("syrian41", seed=1, options={"first_dealer": dealer}, decks=[deck])
    bid_round(match, [7, 6, 2, 2])
    for code in plays[0]:  # "AS 5S 2S 3C": seat 3 has no spade
        match.apply(match.to_act[0], {"type": "play", "card": code})
    return match


def test_knowledge_the_shown_card_sits_in_the_dealers_hand() -> None:
    """T41.4: the dealer's shown 3C stays in its hand until played."""
    deck, dealer, _, _ = rotated(0)
    match = engine.new_match("syrian41", seed=1, options={"first_dealer": dealer}, decks=[deck])
    for seat in (0, 1, 2):
        know = read_view(match.view(seat))
        assert know.known == [0, 0, 0, mask("3C")]
        assert know.forbidden(1) & mask("3C") and not know.forbidden(3) & mask("3C")
        assert know.trump == SPADES
    assert read_view(match.view(3)).known == [0, 0, 0, 0]  # the dealer holds it itself
    # Once played it is no longer "known to be held".
    assert read_view(golden_after_first_trick().view(0)).known == [0, 0, 0, 0]


def test_knowledge_a_seat_that_did_not_follow_suit_is_void() -> None:
    """T41.7: seat 3 played 3C on a spade lead, so it has no spade."""
    match = golden_after_first_trick()
    for seat in range(4):
        know = read_view(match.view(seat))
        assert know.voids == [0, 0, 0, 1 << SPADES]
        assert know.played == mask("AS 5S 2S 3C")
    know = read_view(match.view(0))
    assert know.forbidden(3) & SUIT_MASKS[SPADES] == SUIT_MASKS[SPADES]
    assert know.out == FULL_MASK & ~know.hand & ~know.played


def test_knowledge_voids_in_the_current_trick() -> None:
    match = golden_after_first_trick()
    for code in ("KS", "6S", "3S", "4C"):  # trick 2: seat 3 again shows no spade
        match.apply(match.to_act[0], {"type": "play", "card": code})
    match.apply(0, {"type": "play", "card": "QS"})
    match.apply(1, {"type": "play", "card": "7S"})
    match.apply(2, {"type": "play", "card": "4S"})
    know = read_view(match.view(3))
    assert know.trick == [(0, card("QS")), (1, card("7S")), (2, card("4S"))]
    assert know.voids == [0, 0, 0, 1 << SPADES]


# Seat 0 holds 7H, so it owns the first kingdom (TX.3); seat 1 holds no jack, no TC, no QC.
TRIX_TEXT = (
    "JC 7H 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD",
    "AD AC 2C 3C 4C 5C 6C 2H 3H 4H 5H 6H 8H",
    "JD JH JS 7C 8C 9C TC QC KC 9H TH QH KH",
    "AH 2S 3S 4S 5S 6S 7S 8S 9S TS QS KS AS",
)
TRIX_HANDS = [text.split() for text in TRIX_TEXT]


def trix_after_a_pass() -> engine.Match:
    match = engine.new_match("trix_complex", seed=1, decks=[deck_for_hands(TRIX_HANDS, 0)])
    assert match.to_act == [0]
    match.apply(0, {"type": "contract", "contract": "trix"})
    match.apply(0, {"type": "play", "card": "JC"})
    assert match.legal_actions(1) == [{"type": "pass"}]
    assert new_player("heuristic").decide(match.view(1)) == {"type": "pass"}
    match.apply(1, {"type": "pass"})
    return match


def test_knowledge_a_trix_pass_shows_what_the_seat_lacks() -> None:
    """TX.9: seat 1 passed after JC, so it holds no J of an unstarted suit, no TC, no QC."""
    match = trix_after_a_pass()
    for seat in (0, 2, 3):
        know = read_view(match.view(seat))
        assert codes(know.lacks[1]) == {"JD", "JH", "JS", "TC", "QC"}
        assert know.lacks[0] == know.lacks[2] == know.lacks[3] == 0
        assert know.played == mask("JC")
        assert know.rows[CLUBS] == [card("JC") % 13] * 2


def test_layout_heuristic_opens_its_own_long_suit_first() -> None:
    """Seat 2 may lay JD, JH, JS, TC or QC; JH opens TH and QH, both its own."""
    match = trix_after_a_pass()
    assert new_player("heuristic").decide(match.view(2)) == {"type": "play", "card": "JH"}


def test_knowledge_revealed_doubles_are_known_to_sit_with_the_doubler() -> None:
    """TX.7: seat 2 doubles QC; once revealed, every other seat knows where it is."""
    match = engine.new_match("trix_complex", seed=1, decks=[deck_for_hands(TRIX_HANDS, 0)])
    match.apply(0, {"type": "contract", "contract": "complex"})
    for seat in list(match.to_act):
        cards = ["QC"] if seat == 2 else []
        # Before the reveal nobody else knows of the double.
        match.apply(seat, {"type": "double", "cards": cards})
        if match.phase == "doubling":
            assert read_view(match.view(0)).known == [0, 0, 0, 0]
    assert match.phase == "playing"
    for seat in (0, 1, 3):
        know = read_view(match.view(seat))
        assert know.doubled == {card("QC"): 2}
        assert know.known[2] == mask("QC")
    assert read_view(match.view(2)).known == [0, 0, 0, 0]


# ---------------------------------------------------------------- sampling


def positions(variant: str, seed: int, every: int, count: int) -> list[tuple[engine.Match, int]]:
    """``count`` playing positions of a heuristic-played match, every ``every``-th
    decision (copies of the match, and the seat to act)."""
    found: list[tuple[engine.Match, int]] = []
    player = new_player("heuristic")
    match = engine.new_match(variant, seed=seed)
    step = 0
    while match.result is None and len(found) < count:
        for seat in list(match.to_act):
            step += 1
            if step % every == 0 and match.phase == "playing":
                found.append((engine.Match.from_json(match.to_json()), seat))
            match.apply(seat, player.decide(match.view(seat)))
    return found


def true_hands(match: engine.Match) -> list[int]:
    return [mask(" ".join(match.hand(s))) for s in range(4)]


def check_sample(know: Knowledge, hands: list[int]) -> None:
    assert hands[know.seat] == know.hand
    assert sum(h.bit_count() for h in hands) == (know.hand | know.out).bit_count()
    union = 0
    for seat, hand in enumerate(hands):
        assert not union & hand, "a card dealt twice"
        union |= hand
        assert hand.bit_count() == know.hand_sizes[seat]
        if seat != know.seat:
            assert not hand & know.forbidden(seat), (
                f"seat {seat}: {codes(hand & know.forbidden(seat))}"
            )
            assert hand & know.known[seat] == know.known[seat]
            assert not hand & know.lacks[seat]
            for suit in range(4):
                if know.voids[seat] >> suit & 1:
                    assert not hand & SUIT_MASKS[suit]
    assert union == know.hand | know.out


@pytest.mark.parametrize("variant", VARIANTS)
def test_knowledge_never_contradicts_the_real_hands(variant: str) -> None:
    """Whatever a seat deduces (voids, known cards, lacks) holds for the real deal."""
    for seed in range(3):
        for match, seat in positions(variant, seed, every=3, count=60):
            check_sample(read_view(match.view(seat)), true_hands(match))


@pytest.mark.parametrize("variant", VARIANTS)
def test_sampled_deals_respect_everything_the_seat_knows(variant: str) -> None:
    """``sample_hands``: hand sizes, own hand, voids, known cards and Trix lacks, at many
    positions (a few samples each) and at a few positions 200 samples each."""
    rng = random.Random(variant)
    found = positions(variant, 7, every=5, count=40)
    constrained = sorted(
        found,
        key=lambda pos: (
            -sum(
                (lambda k: k.forbidden(s).bit_count())(read_view(pos[0].view(pos[1])))
                for s in range(4)
                if s != pos[1]
            )
        ),
    )
    for index, (match, seat) in enumerate(constrained):
        know = read_view(match.view(seat))
        count = 200 if index < 3 else 5
        samples = set()
        for _ in range(count):
            hands = sample_hands(know, rng)
            check_sample(know, hands)
            samples.add(tuple(hands))
        hidden = sum(know.hand_sizes) - know.hand_sizes[seat]
        if count == 200 and hidden >= 8:
            assert len(samples) > 1, "the sampler must vary the hidden cards"


def test_sampling_spreads_unconstrained_cards_evenly() -> None:
    """At the first bid nothing is known but the shown card (T41.4): each hidden card
    lands in each other hand about a third of the time."""
    deck, dealer, _, _ = rotated(0)
    match = engine.new_match("syrian41", seed=1, options={"first_dealer": dealer}, decks=[deck])
    know = read_view(match.view(0))
    rng = random.Random(5)
    tally = {c: [0, 0, 0, 0] for c in cards_of(know.out)}
    rounds = 300
    for _ in range(rounds):
        hands = sample_hands(know, rng)
        for seat in (1, 2, 3):
            for c in cards_of(hands[seat]):
                tally[c][seat] += 1
    assert tally[card("3C")] == [0, 0, 0, rounds]
    for c, counts in tally.items():
        if c != card("3C"):
            assert all(60 <= counts[seat] <= 140 for seat in (1, 2, 3)), (card_code(c), counts)


def knowledge_for(variant: str, seat: int, **fields: Any) -> Knowledge:
    base: dict[str, Any] = {
        "variant": variant,
        "seat": seat,
        "phase": "playing",
        "hand": 0,
        "trump": SPADES,
        "played": 0,
        "trick": [],
        "hand_sizes": [13, 13, 13, 13],
        "tricks_won": [0, 0, 0, 0],
        "scores": [0, 0, 0, 0],
        "dealer": 0,
        "bids": [None] * 4,
    }
    base.update(fields)
    return Knowledge(**base)


def test_sides_partners_and_the_solo_declarer() -> None:
    """T41.1 / TX.1: partners sit opposite. TS.8: the declarer is alone against three
    defenders, who help each other only while the contract can still be made; once it is
    beaten each defender scores its own tricks, so each plays for itself."""
    assert allies_of(knowledge_for("syrian41", 1)) == TEAM_B
    assert allies_of(knowledge_for("trix_complex", 2, trump=-1)) == TEAM_A
    solo = {"declarer": 3, "contract_bid": 9}
    assert allies_of(knowledge_for("tarneeb_solo", 3, **solo)) == 1 << 3
    live = knowledge_for("tarneeb_solo", 1, tricks_won=[1, 1, 1, 3], **solo)  # 3 + 7 >= 9
    assert allies_of(live) == 0b0111
    beaten = knowledge_for("tarneeb_solo", 1, tricks_won=[2, 1, 2, 3], **solo)  # 3 + 5 < 9
    assert allies_of(beaten) == 1 << 1
    assert allies_of(knowledge_for("tarneeb_solo", 0, declarer=None)) == 1 << 0  # auction
