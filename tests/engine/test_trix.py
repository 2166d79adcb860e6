"""Trix Complex Partnership (TX, ``trix_complex``), rule by rule.

Every deal is dealt from seat 0 (TX.2), so a stacked deck is ``deck_for_hands(hands, 0)``.
Outcomes are worked out by hand from stacked deals:

* Complex scenarios (``scripted_deal``): the cards of the first trick are placed in the hands
  (seat 0 holds 7♥, so it owns the kingdom and leads); the other cards are handed out
  deterministically by ``fill``. The first trick is scripted and its points worked out
  by hand; the rest of the deal is played with the timeout moves and must keep the
  deal's total at −500;
* the Trix deal (``TRIX_HANDS``/``TRIX_ROUNDS``): played move by move; seat 0 empties
  its hand first, seat 2 second, seat 1 third, and seat 3 is fourth with four clubs left;
* seeded random legal play over hundreds of deals, checked against the rules trick by
  trick (``random_matches``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import Any

import pytest

import engine
from engine.dealing import deck_for_hands
from tests.engine.scripts import events_of, play_out

Events = list[dict[str, Any]]
RANKS = "23456789TJQKA"
SUITS = "CDHS"
ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]
VALUES = {"KH": 75, "QC": 25, "QD": 25, "QH": 25, "QS": 25}  # TX.6 / TX.8: v
COMPLEX = {"type": "contract", "contract": "complex"}
TRIX = {"type": "contract", "contract": "trix"}
PASS = {"type": "pass"}
NO_DOUBLE = {"type": "double", "cards": []}


# ---------------------------------------------------------------- helpers


def play(card: str) -> dict[str, Any]:
    return {"type": "play", "card": card}


def double(*cards: str) -> dict[str, Any]:
    return {"type": "double", "cards": list(cards)}


def new(*decks: Sequence[str], seed: int = 11, **options: Any) -> engine.Match:
    return engine.new_match(
        "trix_complex", seed=seed, options=options or None, decks=[list(d) for d in decks]
    )


def stack(hands: Sequence[Sequence[str]]) -> list[str]:
    return deck_for_hands(hands, 0)  # TX.2: dealt from seat 0


def hands_of(deck: Sequence[str]) -> list[list[str]]:
    return [list(deck[seat::4]) for seat in range(4)]


def turned(deck: Sequence[str], k: int) -> list[str]:
    """The same deal moved ``k`` seats round: seat ``s`` gets the hand of seat ``s - k``."""
    hands = hands_of(deck)
    return stack([hands[(seat - k) % 4] for seat in range(4)])


def fill(fixed: Sequence[str], void: dict[int, str] | None = None) -> list[list[str]]:
    """Four hands: seat ``s`` holds the cards in ``fixed[s]`` (space separated) and the
    remaining cards are handed out deterministically; seat ``s`` gets no card of the suits
    in ``void[s]``."""
    voids = void or {}
    hands = [cards.split() for cards in fixed]
    used = [card for hand in hands for card in hand]
    assert len(used) == len(set(used))
    for seat, suits in voids.items():
        assert not any(card[1] in suits for card in hands[seat])

    def allowed(card: str) -> list[int]:
        return [seat for seat in range(4) if card[1] not in voids.get(seat, "")]

    rest = sorted((card for card in ALL_CARDS if card not in used), key=lambda c: len(allowed(c)))
    for card in rest:
        seat = max((s for s in allowed(card) if len(hands[s]) < 13), key=lambda s: -len(hands[s]))
        hands[seat].append(card)
    assert all(len(hand) == 13 for hand in hands)
    return hands


def refused(match: engine.Match, seat: int, action: object, code: str | None = None) -> None:
    """The action is refused and the match is exactly as before."""
    before = match.to_json()
    with pytest.raises(engine.IllegalAction) as caught:
        match.apply(seat, action)  # type: ignore[arg-type]
    if code is not None:
        assert caught.value.code == code
    assert match.to_json() == before


def answer_all(match: engine.Match, doubles: dict[int, list[str]] | None = None) -> Events:
    """Every seat asked in the doubling window answers (``doubles[seat]``, else nothing)."""
    assert match.phase == "doubling"
    events: Events = []
    for seat in list(match.to_act):
        events += match.apply(seat, double(*(doubles or {}).get(seat, [])))
    assert match.phase == "playing"
    return events


def start_complex(match: engine.Match, doubles: dict[int, list[str]] | None = None) -> Events:
    events = match.apply(match.to_act[0], COMPLEX)
    return events + answer_all(match, doubles)


def play_cards(match: engine.Match, cards: str) -> Events:
    """Each card by the seat whose turn it is."""
    events: Events = []
    for card in cards.split():
        events += match.apply(match.to_act[0], play(card))
    return events


def deltas(events: Events) -> list[int]:
    scored = events_of(events, "hand_scored")
    assert len(scored) == 1
    result: list[int] = scored[0]["deltas"]
    return result


def trick_points(events: Events) -> list[list[int]]:
    return [event["points"] for event in events_of(events, "trick_won")]


def summed(points: list[list[int]]) -> list[int]:
    return [sum(p[seat] for p in points) for seat in range(4)]


def assert_complex_deal(events: Events) -> list[int]:
    """A whole Complex deal: 13 tricks; each seat's deal score is the sum of its trick
    points; the four seats total −500 (TX.6, TX.8). Returns the deltas."""
    points = trick_points(events)
    assert len(points) == 13
    scored = deltas(events)
    assert scored == summed(points)
    assert sum(scored) == -500
    return scored


def public(events: Events) -> Events:
    return [event for event in events if "to" not in event]


def views(match: engine.Match) -> dict[int | None, dict[str, Any]]:
    return {seat: match.view(seat) for seat in (None, 0, 1, 2, 3)}


# ---------------------------------------------------------------- the Trix deal

TRIX_HANDS = [
    hand.split()
    for hand in [
        "JH QH KH AH TH 9H 8H 7H 6H 5H 4H 3H 2H",  # all hearts (7H: owns kingdom 1)
        "QS KS AS TS 9S 8S 7S 6S 5S 4S 3S 2S 2D",  # spades but the JS, and the 2D
        "JC QC KC AC TC 9C 8C JD QD KD AD TD 9D",  # top clubs and top diamonds
        "JS 7C 6C 5C 4C 3C 2C 8D 7D 6D 5D 4D 3D",  # the JS, low clubs, low diamonds
    ]
]
TRIX_DECK = stack(TRIX_HANDS)
# One round per line; column c is the seat (owner + c). "-" passes, "." is an empty hand
# (skipped: that seat is never asked). Worked out by hand:
TRIX_ROUNDS = [
    "JH - JC JS",  # 0: JH is its only legal card; 1: no J and no row: forced pass;
    #                3: JS is its only legal card
    "QH QS JD -",  # 3 holds low clubs/diamonds: it needs TC or TD on the table
    "KH KS QC -",
    "AH AS KC -",
    "TH TS AC -",
    "9H 9S QD -",
    "8H 8S KD -",
    "7H 7S AD -",
    "6H 6S TC -",  # clubs reach T: 3 still needs the 9C
    "5H 5S 9C -",  # and now the 8C
    "4H 4S 8C 7C",
    "3H 3S TD 6C",
    "2H 2S 9D 8D",  # 0 empties first (+200); 1 keeps the 2D; 2 empties second (+150)
    ".  -  .  7D",  # 0 and 2 are skipped; 1 waits for the 3D
    ".  -  .  6D",
    ".  -  .  5D",
    ".  -  .  4D",
    ".  -  .  3D",
    ".  2D",  # 1 empties third (+100): 3 is fourth (+50) at once, keeping 5C 4C 3C 2C
]
TRIX_DELTAS = [200, 100, 150, 50]  # seat 0 first, seat 2 second, seat 1 third, seat 3 fourth
TRIX_ORDER = [0, 2, 1, 3]


def trix_script(
    match: engine.Match, owner: int = 0, start: int = 0, stop: int | None = None
) -> Events:
    """Play ``TRIX_ROUNDS[start:stop]`` with the deal turned so that ``owner`` holds the
    hearts; checks that exactly the expected seat is to act before every move."""
    events: Events = []
    for line in TRIX_ROUNDS[start:stop]:
        for column, move in enumerate(line.split()):
            if move == ".":
                continue
            seat = (owner + column) % 4
            assert match.to_act == [seat], (line, move)
            events += match.apply(seat, PASS if move == "-" else play(move))
    return events


# ---------------------------------------------------------------- random play


@cache
def random_matches(with_doubles: bool, count: int = 40) -> tuple[tuple[engine.Match, Events], ...]:
    """Whole matches of seeded random legal play (random doubles or none at all)."""
    matches = []
    for seed in range(count):
        match = engine.new_match("trix_complex", seed=1000 * with_doubles + seed)
        rng = random.Random(seed)
        events: Events = []
        while match.result is None:
            doubling = match.phase == "doubling"
            for seat in list(match.to_act):  # several seats only in the doubling window
                options = match.legal_actions(seat)
                action = rng.choice(options) if with_doubles or not doubling else NO_DOUBLE
                got = match.apply(seat, action)
                if doubling:  # TX.7: an answer is told to its author alone, until the reveal
                    for event in got:
                        assert event.get("to") == seat or event["type"] == "doubles_revealed"
                    if match.phase == "doubling":
                        assert all(event.get("to") == seat for event in got)
                events += got
        matches.append((match, events))
    return tuple(matches)


def oracle(
    cards: list[str], seats: list[int], doubled: dict[str, int], cases: list[int] | None = None
) -> tuple[int, list[int]]:
    """TX.5, TX.6 and TX.8 from scratch: the taker of a trick and what it costs each seat
    (``cases`` collects the TX.8 case of every doubled card met)."""
    cases = [] if cases is None else cases
    led = cards[0][1]
    taker = seats[
        max((i for i in range(4) if cards[i][1] == led), key=lambda i: RANKS.index(cards[i][0]))
    ]
    leader = seats[0]
    points = [0, 0, 0, 0]
    points[taker] -= 15
    for seat, card in zip(seats, cards, strict=True):
        if card[1] == "D":
            points[taker] -= 10
        value = VALUES.get(card)
        if value is None:
            continue
        doubler = doubled.get(card)
        if doubler is None:
            points[taker] -= value
            continue
        assert doubler == seat  # a doubled card is played by its doubler
        if taker != doubler:  # case 1
            points[taker] -= 2 * value
            points[doubler] += value
            cases.append(1)
        elif leader != doubler:  # case 2
            points[doubler] -= 2 * value
            points[leader] += value
            cases.append(2)
        else:  # case 3
            points[doubler] -= value
            cases.append(3)
    return taker, points


def deals_of(events: Events) -> list[Events]:
    """The events of a whole match cut into deals (each ends with its ``hand_scored``)."""
    deals: list[Events] = [[]]
    for event in events:
        deals[-1].append(event)
        if event["type"] == "hand_scored":
            deals.append([])
    assert deals[-1] == [] or not events_of(deals[-1], "hand_scored")
    return deals[:-1]


def check_random_deal(deal: Events, cases: list[int] | None = None) -> dict[str, Any]:
    """Checks a deal of random play against the oracle; returns its ``hand_scored`` with
    the deal's contract (from its public ``contract`` event) and its doubles."""
    scored = dict(events_of(deal, "hand_scored")[0])
    (chosen,) = [event for event in public(deal) if event["type"] == "contract"]
    scored["contract"] = chosen["contract"]
    doubled: dict[str, int] = {}
    plays: list[tuple[int, str]] = []
    total = [0, 0, 0, 0]
    tricks = 0
    for event in deal:
        if event["type"] == "doubles_revealed":
            doubled = {entry["card"]: entry["seat"] for entry in event["doubled"]}
        elif event["type"] == "play":
            plays.append((event["seat"], event["card"]))
        elif event["type"] == "trick_won":
            seats = [seat for seat, _ in plays]
            assert [card for _, card in plays] == event["cards"]
            taker, points = oracle(event["cards"], seats, doubled, cases)
            assert event["seat"] == taker
            assert event["points"] == points
            # TX.8: whatever the doubles, the trick costs the four seats their usual total
            diamonds = sum(card[1] == "D" for card in event["cards"])
            usual = sum(VALUES.get(card, 0) for card in event["cards"])
            assert sum(points) == -15 - 10 * diamonds - usual
            total = [a + b for a, b in zip(total, points, strict=True)]
            plays = []
            tricks += 1
    if scored["contract"] == "complex":
        assert tricks == 13
        assert scored["deltas"] == total
    else:
        assert tricks == 0 and not events_of(deal, "doubles_revealed")
    scored["doubled"] = doubled
    return scored


# ---------------------------------------------------------------- TX.1


def test_tx_1_scores_are_personal_and_the_team_total_is_the_partners_sum() -> None:
    assert engine.VARIANTS["trix_complex"].teams is True
    match = new(TRIX_DECK)
    match.apply(0, TRIX)
    events = trix_script(match)
    # Worked out with TRIX_ROUNDS: 0 first +200, 2 second +150, 1 third +100, 3 fourth +50.
    assert deltas(events) == TRIX_DELTAS
    assert match.scores == [200, 100, 150, 50]
    assert match.team_scores == [200 + 150, 100 + 50]
    assert events_of(events, "hand_scored")[0]["scores"] == [200, 100, 150, 50]
    assert match.view(None)["team_scores"] == [350, 150]
    # The Complex that follows adds each seat's own penalties to its own score.
    complex_events = answer_all(match) + play_out(match)  # the Complex follows by itself
    complex_deltas = assert_complex_deal(complex_events)
    assert match.scores == [a + b for a, b in zip(TRIX_DELTAS, complex_deltas, strict=True)]
    scores = match.scores
    assert match.team_scores == [scores[0] + scores[2], scores[1] + scores[3]]


def test_tx_1_there_is_no_trump_an_off_suit_ace_never_wins() -> None:
    # Seats 1 and 3 hold no club: 2C is led, 1 and 3 throw aces, the 3C of seat 2 wins.
    match = new(stack(fill(["7H 2C", "AS", "3C", "AD"], void={1: "C", 3: "C"})))
    start_complex(match)
    assert match.view(None)["trump"] is None
    events = play_cards(match, "2C AS 3C AD")
    won = events_of(events, "trick_won")[0]
    assert won["seat"] == 2
    assert won["points"] == [0, 0, -15 - 10, 0]  # the trick and the AD's diamond penalty
    assert match.to_act == [2]


# ---------------------------------------------------------------- TX.2


def test_tx_2_every_deal_is_dealt_from_seat_0_and_there_is_no_dealer() -> None:
    first = random.Random(1).sample(ALL_CARDS, 52)
    second = random.Random(2).sample(ALL_CARDS, 52)
    match = new(first, second, first_dealer=2)  # accepted, and ignored: there is no dealer
    assert match.dealer is None and match.view(None)["dealer"] is None
    assert match.deal_number == 1
    for seat in range(4):
        assert match.hand(seat) == sorted(first[seat::4], key=ALL_CARDS.index)
    events = play_out(match)
    assert match.deal_number == 2 and match.dealer is None
    assert [event["dealer"] for event in events_of(events, "deal")] == [None]
    for seat in range(4):
        assert match.hand(seat) == sorted(second[seat::4], key=ALL_CARDS.index)


def test_tx_2_four_twos_in_one_hand_are_played_as_dealt() -> None:
    match = new(stack(fill(["7H", "2C 2D 2H 2S", "", ""])))
    assert match.deal_number == 1 and match.phase == "contract"
    assert {"2C", "2D", "2H", "2S"} <= set(match.hand(1))
    events = start_complex(match) + play_out(match)
    assert not events_of(events, "deal_cancelled")
    assert_complex_deal(events)
    assert match.deal_number == 2


def test_tx_2_nothing_is_redealt_when_a_match_is_restored() -> None:
    match = new(stack(fill(["7H", "", "", ""])))
    start_complex(match)
    play_cards(match, match.legal_actions(0)[0]["card"])
    restored = engine.Match.from_json(match.to_json())
    assert restored.deal_number == 1
    assert [restored.hand(seat) for seat in range(4)] == [match.hand(s) for s in range(4)]
    assert views(restored) == views(match)


# ---------------------------------------------------------------- TX.3


@pytest.mark.parametrize("holder", range(4))
def test_tx_3_the_7h_holder_of_deal_1_owns_kingdom_1_and_ownership_passes_right(
    holder: int,
) -> None:
    fixed = ["", "", "", ""]
    fixed[holder] = "7H"
    match = new(stack(fill(fixed)), seed=holder)
    assert match.to_act == [holder] and match.phase == "contract"
    seen: list[tuple[int, str]] = []
    contracts: list[str] = []
    while match.result is None:
        view = match.view(None)
        seen.append((view["owner"], view["phase"]))
        if view["phase"] == "contract":
            assert match.to_act == [view["owner"]]
        contracts += [e["contract"] for e in public(play_out(match)) if e["type"] == "contract"]
    owners = [(holder + kingdom) % 4 for kingdom in range(4) for _ in range(2)]
    assert [owner for owner, _ in seen] == owners
    # The owner picks at a kingdom's first deal (timeout: Complex); Trix follows by itself
    # (its contract event comes with the end of the deal before).
    assert [phase for _, phase in seen] == ["contract", "playing"] * 4
    assert contracts == ["complex", "trix"] * 4
    assert match.deal_number == 8


def full_match_decks() -> list[list[str]]:
    """Deal 1 is the Trix deal (seat 0 owns kingdom 1, so seat 3 owns kingdom 4); deals 2-7
    are shuffles of our own; deal 8 is the Trix deal turned so that seat 3 holds the hearts."""
    middle = [random.Random(100 + i).sample(ALL_CARDS, 52) for i in range(6)]
    return [TRIX_DECK, *middle, turned(TRIX_DECK, 3)]


def test_tx_3_the_match_is_four_kingdoms_and_ends_after_exactly_8_deals() -> None:
    match = new(*full_match_decks())
    match.apply(0, TRIX)
    trix_script(match)
    for deal in range(2, 8):
        assert match.deal_number == deal and match.result is None
        play_out(match)
    assert match.deal_number == 8
    assert match.view(None)["owner"] == 3 and match.view(None)["contract"] == "trix"
    events = trix_script(match, owner=3)
    assert match.phase == "finished" and match.deal_number == 8
    assert match.result is not None
    assert events_of(events, "match_over")[0]["result"] == match.result
    assert match.to_act == []
    for seat in range(4):
        assert match.legal_actions(seat) == []
        assert match.auto_action(seat) is None
        assert match.forced_action(seat) is None
        refused(match, seat, PASS, "match_over")
    assert len(match.view(None)["history"]) == 8


# ---------------------------------------------------------------- TX.4


def test_tx_4_the_owner_chooses_seeing_their_new_hand_and_the_partner_waits() -> None:
    match = new(stack(fill(["", "7H", "", ""])))
    assert match.phase == "contract" and match.to_act == [1]
    assert match.view(1)["turn"] == [1] and len(match.view(1)["hand"]) == 13
    assert match.view(None)["hand"] is None
    assert sorted(a["contract"] for a in match.legal_actions(1)) == ["complex", "trix"]
    for seat in (0, 2, 3):
        assert match.legal_actions(seat) == []
        refused(match, seat, COMPLEX, "not_your_turn")
    refused(match, 3, TRIX, "not_your_turn")  # the partner waits
    refused(match, 1, {"type": "contract", "contract": "kingdom"})
    refused(match, 1, play(match.hand(1)[0]))
    events = match.apply(1, TRIX)
    assert [e["contract"] for e in public(events) if e["type"] == "contract"] == ["trix"]
    assert match.view(None)["contract"] == "trix" and match.to_act == [1]


def test_tx_4_after_trix_the_complex_follows_automatically() -> None:
    match = new(TRIX_DECK, stack(fill(["", "", "7H", ""])))
    match.apply(0, TRIX)
    events = trix_script(match)
    assert match.deal_number == 2
    chosen = [e for e in public(events) if e["type"] == "contract"]
    assert [e["contract"] for e in chosen] == ["complex"]
    assert match.phase == "doubling" and match.view(None)["contract"] == "complex"
    assert match.view(None)["owner"] == 0  # the same kingdom
    for seat in range(4):
        refused(match, seat, COMPLEX)
        refused(match, seat, TRIX)
    answer_all(match)
    assert match.to_act == [0]  # the owner leads, not the 7H holder of this deal


def test_tx_4_after_complex_the_trix_follows_automatically() -> None:
    match = new(stack(fill(["", "", "", "7H"])))
    events = start_complex(match) + play_out(match)
    assert [e["contract"] for e in public(events) if e["type"] == "contract"] == [
        "complex",
        "trix",
    ]
    assert match.deal_number == 2 and match.phase == "playing"
    assert match.view(None)["contract"] == "trix" and match.to_act == [3]


def test_tx_4_the_contract_choice_times_out_to_complex() -> None:
    match = new(stack(fill(["", "", "7H", ""])))
    assert match.auto_action(2) == COMPLEX
    assert [match.auto_action(seat) for seat in (0, 1, 3)] == [None, None, None]
    match.apply(2, match.auto_action(2) or {})
    assert match.view(None)["contract"] == "complex" and match.phase == "doubling"


# ---------------------------------------------------------------- TX.5


def test_tx_5_the_owner_leads_the_first_complex_trick() -> None:
    match = new(stack(fill(["", "", "7H", ""])))
    start_complex(match)
    assert match.to_act == [2] and match.view(None)["turn"] == [2]
    refused(match, 0, play(match.hand(0)[0]), "not_your_turn")
    refused(match, 3, play(match.hand(3)[0]), "not_your_turn")


def test_tx_5_follow_suit_highest_of_the_led_suit_wins_and_leads_next() -> None:
    # Seat 3 holds no club; seat 1 holds the 9H besides clubs.
    match = new(stack(fill(["7H 2C", "5C 9H", "KC", ""], void={3: "C"})))
    start_complex(match)
    play_cards(match, "2C")
    refused(match, 1, play("9H"), "must_follow_suit")
    assert {a["card"][1] for a in match.legal_actions(1)} == {"C"}
    play_cards(match, "5C KC")
    # A void seat may play any card.
    assert sorted(a["card"] for a in match.legal_actions(3)) == sorted(match.hand(3))
    events = play_cards(match, match.hand(3)[-1])
    won = events_of(events, "trick_won")[0]
    assert won["seat"] == 2  # KC: AC is not in the trick (seat 3 has no club)
    assert match.to_act == [2]
    assert match.view(None)["last_trick"][0] == {"seat": 0, "card": "2C"}


def test_tx_5_a_complex_deal_is_always_13_tricks() -> None:
    # No early end, even with K♥ and three queens in one hand (the random-play tests
    # below check 13 tricks in hundreds of deals).
    match = new(stack(fill(["7H KH QC QH QS", "", "", ""])))
    events = start_complex(match) + play_out(match)
    assert len(events_of(events, "trick_won")) == 13
    assert_complex_deal(events)


# ---------------------------------------------------------------- TX.6


def test_tx_6_a_trick_with_kh_qd_and_two_hearts_costs_125() -> None:
    # Hearts led: 2H, KH, QD (seat 2 has no heart), 5H. The KH wins:
    # −15 (trick) −75 (KH) −10 (diamond) −25 (queen) = −125, all on seat 1.
    match = new(stack(fill(["7H 2H", "KH", "QD", "5H"], void={2: "H"})))
    events = start_complex(match)
    events += play_cards(match, "2H KH QD 5H")
    assert trick_points(events) == [[0, -125, 0, 0]]
    assert match.view(None)["deal_points"] == [0, -125, 0, 0]
    events += play_out(match)
    scored = assert_complex_deal(events)
    assert scored == match.scores


@pytest.mark.parametrize(
    ("trick", "points"),
    [
        ("2C 3C 4C 5C", [0, 0, 0, -15]),  # a bare trick: 5C wins
        ("2D 3D AD 4D", [0, 0, -15 - 40, 0]),  # four diamonds
        ("2S QS 3S 4S", [0, -15 - 25, 0, 0]),  # a queen
        ("2D QD 3D 4D", [0, -15 - 40 - 25, 0, 0]),  # Q♦: its diamond and its queen
        ("KH QH 2H 3H", [-15 - 75 - 25, 0, 0, 0]),  # K♥ and a queen
    ],
)
def test_tx_6_every_penalty_goes_to_the_taker(trick: str, points: list[int]) -> None:
    cards = trick.split()
    fixed = [cards[0] + ("" if cards[0] == "7H" else " 7H"), *cards[1:]]
    match = new(stack(fill(fixed)))
    events = start_complex(match) + play_cards(match, trick)
    assert trick_points(events) == [points]
    assert_complex_deal(events + play_out(match))


def test_tx_6_every_undoubled_complex_deal_totals_minus_500() -> None:
    deals = [deal for _, events in random_matches(False) for deal in deals_of(events)]
    complex_deals = 0
    for deal in deals:
        scored = check_random_deal(deal)
        if scored["contract"] == "complex":
            complex_deals += 1
            assert scored["doubled"] == {}
            assert sum(scored["deltas"]) == -500
    assert complex_deals == len(deals) // 2 >= 150


# ---------------------------------------------------------------- TX.7

# Seat 0 holds KH and QS, seat 1 QH, seat 2 none, seat 3 QC and QD.
SECRET = stack(fill(["7H KH QS", "QH", "", "QC QD"]))
# The same but seats 1 and 2 swap roles: seat 2 holds QH and seat 1 none.
SECRET_SWAPPED = stack(fill(["7H KH QS", "", "QH", "QC QD"]))


def test_tx_7_only_holders_are_asked_and_may_double_any_subset() -> None:
    match = new(SECRET)
    events = match.apply(0, COMPLEX)
    assert match.phase == "doubling"
    assert sorted(match.to_act) == [0, 1, 3]
    held = {0: ["KH", "QS"], 1: ["QH"], 2: [], 3: ["QC", "QD"]}
    for seat, cards in held.items():
        options = match.legal_actions(seat)
        subsets = {frozenset(c) for n in range(len(cards) + 1) for c in combinations(cards, n)}
        if seat == 2:
            assert options == [] and match.auto_action(seat) is None
            continue
        assert all(option["type"] == "double" for option in options)
        assert len(options) == len(subsets) == 2 ** len(cards)
        assert {frozenset(option["cards"]) for option in options} == subsets
        assert NO_DOUBLE in options
        assert match.view(seat)["turn"] == [seat]
    assert match.view(2)["turn"] == []
    assert public(events) == events  # opening the window tells nobody anything private


def test_tx_7_the_public_table_shows_neither_who_is_asked_nor_who_answered() -> None:
    match, swapped = new(SECRET), new(SECRET_SWAPPED)
    opened, opened_swapped = match.apply(0, COMPLEX), swapped.apply(0, COMPLEX)
    # Who is asked: seats 1 and 2 swap roles and the public table cannot tell.
    assert public(opened) == public(opened_swapped)
    assert match.view(None) == swapped.view(None)
    spectator = match.view(None)
    assert spectator["turn"] == [] and spectator["doubled"] == []
    assert spectator["phase"] == "doubling"
    # Who answered: nothing any other seat (or a spectator) sees changes with an answer
    # (seat 0 answers last, which reveals every double: see below).
    for seat, cards in [(3, ["QD"]), (1, [])]:
        before = views(match)
        events = match.apply(seat, double(*cards))
        after = views(match)
        assert all(event.get("to") == seat for event in events)  # told to its author only
        for other in (None, 0, 1, 2, 3):
            if other != seat:
                assert after[other] == before[other]
        assert after[None]["turn"] == [] and after[None]["doubled"] == []
    assert match.phase == "doubling" and match.to_act == [0]


def test_tx_7_a_seat_sees_its_own_answer_and_nobody_elses() -> None:
    match = new(SECRET)
    match.apply(0, COMPLEX)
    assert match.view(3)["turn"] == [3] and match.view(3)["doubled"] == []
    events = match.apply(3, double("QD"))
    assert events == [{**events[0], "to": 3}] and "QD" in str(events)
    own = match.view(3)
    assert own["turn"] == [] and own["doubled"] == [{"card": "QD", "seat": 3}]
    assert match.legal_actions(3) == [] and match.auto_action(3) is None
    match.apply(1, NO_DOUBLE)
    assert match.view(1)["turn"] == [] and match.view(1)["doubled"] == []
    for seat in (None, 0, 1, 2):
        assert "QD" not in str(match.view(seat)["doubled"])
    assert match.to_act == [0]  # the engine (not the table) knows who is still to answer


def test_tx_7_doubles_are_revealed_together_when_the_last_holder_answers() -> None:
    match = new(SECRET)
    match.apply(0, COMPLEX)
    match.apply(3, double("QC", "QD"))
    match.apply(0, double("KH"))
    assert match.phase == "doubling"
    events = match.apply(1, NO_DOUBLE)
    revealed = public(events)
    assert [event["type"] for event in revealed] == ["doubles_revealed"]
    expected = [{"card": "KH", "seat": 0}, {"card": "QC", "seat": 3}, {"card": "QD", "seat": 3}]
    key = lambda entry: entry["card"]  # noqa: E731
    assert sorted(revealed[0]["doubled"], key=key) == expected
    assert all(event.get("to") == 1 for event in events if event is not revealed[0])
    assert match.phase == "playing" and match.to_act == [0]
    for seat in (None, 0, 1, 2, 3):
        view = match.view(seat)
        assert sorted(view["doubled"], key=key) == expected
        assert view["turn"] == [0]


def test_tx_7_refused_answers_change_nothing() -> None:
    match = new(SECRET)
    refused(match, 0, double("KH"))  # no window before the contract is chosen
    match.apply(0, COMPLEX)
    refused(match, 2, NO_DOUBLE)  # not asked
    refused(match, 3, double("QH"))  # not its card
    refused(match, 3, double("AS"))  # not a doublable card
    refused(match, 3, double("QC", "QC"))
    refused(match, 0, play("KH"))  # no play before the window closes
    refused(match, 0, PASS)
    match.apply(3, double("QC"))
    refused(match, 3, NO_DOUBLE)  # one answer each
    refused(match, 3, double("QD"))
    match.apply(1, NO_DOUBLE)
    match.apply(0, NO_DOUBLE)
    refused(match, 1, double("QH"))  # the window is closed
    assert match.view(None)["doubled"] == [{"card": "QC", "seat": 3}]


def test_tx_7_the_window_survives_a_json_round_trip() -> None:
    match = new(SECRET)
    match.apply(0, COMPLEX)
    match.apply(3, double("QD"))
    restored = engine.Match.from_json(match.to_json())
    assert views(restored) == views(match)
    assert sorted(restored.to_act) == sorted(match.to_act) == [0, 1]
    for seat, cards in [(1, ["QH"]), (0, [])]:
        assert restored.apply(seat, double(*cards)) == match.apply(seat, double(*cards))
    assert views(restored) == views(match)
    assert restored.view(None)["doubled"] == match.view(None)["doubled"] != []


def test_tx_7_there_is_no_doubling_in_trix() -> None:
    match = new(SECRET)
    events = match.apply(0, TRIX)
    assert match.phase == "playing" and match.to_act == [0]
    assert not [e for e in events if e["type"].startswith("doubl")]
    refused(match, 0, double("KH"))
    refused(match, 1, double("QH"))


# ---------------------------------------------------------------- TX.8

# The first trick in seat order (seat 0 owns the kingdom and leads it): X is the doubled
# card, A the ace of its suit, 2 3 4 small cards of its suit. Then the doubler D and the
# trick's points worked out by hand as a function of v (75 for K♥, 25 for Q♠); −15 is the
# taker's trick penalty and no other penalty card is in the trick.
DOUBLED_CASES = [
    pytest.param(
        "X A 2 3", 0, lambda v: [v, -15 - 2 * v, 0, 0], id="case1-D-leads-it-and-is-beaten"
    ),
    pytest.param(
        "2 X A 3", 1, lambda v: [0, v, -15 - 2 * v, 0], id="case1-D-follows-and-is-beaten"
    ),
    pytest.param("2 X 3 A", 1, lambda v: [0, v, 0, -15 - 2 * v], id="case1-Ds-partner-beats-it"),
    pytest.param(
        "A 2 X 3", 2, lambda v: [-15 - 2 * v, 0, v, 0], id="case1-Ds-partner-led-and-takes-it"
    ),
    pytest.param(
        "2C AC 3C X", 3, lambda v: [0, -15 - 2 * v, 0, v], id="case1-D-discards-it-while-void"
    ),
    pytest.param("2 X 3 4", 1, lambda v: [v, -15 - 2 * v, 0, 0], id="case2-D-follows-and-wins"),
    pytest.param(
        "2 3 X 4", 2, lambda v: [v, 0, -15 - 2 * v, 0], id="case2-the-leader-is-Ds-partner"
    ),
    pytest.param("X 2 3 4", 0, lambda v: [-15 - v, 0, 0, 0], id="case3-D-leads-it-unbeaten"),
]


def scripted_deal(
    trick: list[str],
    doubles: dict[int, list[str]],
    extra: Sequence[str] = ("", "", "", ""),
    seed: int = 3,
) -> tuple[engine.Match, Events, Events]:
    """A Complex deal whose first trick is ``trick`` (seat order; seat 0 leads): seats
    that do not follow the led suit hold none of it; seat ``s`` also holds ``extra[s]``.
    Returns the match, the opening events (contract and doubling window) and the first
    trick's events."""
    led = trick[0][1]
    fixed = [f"{card} {more}" for card, more in zip(trick, extra, strict=True)]
    if "7H" not in trick:
        fixed[0] += " 7H"
    void = {seat: led for seat, card in enumerate(trick) if card[1] != led}
    match = new(stack(fill(fixed, void)), seed=seed)
    opening = start_complex(match, doubles)
    return match, opening, play_cards(match, " ".join(trick))


@pytest.mark.parametrize("card", ["KH", "QS"])
@pytest.mark.parametrize(("template", "doubler", "expected"), DOUBLED_CASES)
def test_tx_8_a_doubled_card_scores_by_its_case(
    card: str, template: str, doubler: int, expected: Callable[[int], list[int]]
) -> None:
    suit, value = card[1], VALUES[card]
    names = {"X": card, "A": "A" + suit, "2": "2" + suit, "3": "3" + suit, "4": "4" + suit}
    trick = [names.get(token, token) for token in template.split()]
    match, opening, first = scripted_deal(trick, {doubler: [card]})
    revealed = events_of(opening, "doubles_revealed")
    assert [entry for event in revealed for entry in event["doubled"]] == [
        {"card": card, "seat": doubler}
    ]
    points = trick_points(first)
    assert points == [expected(value)]
    assert sum(points[0]) == -15 - value  # the four seats lose exactly the undoubled −v
    events = first + play_out(match)
    assert assert_complex_deal(events) == match.scores  # still −500 for the deal
    assert events_of(events, "hand_scored")[0]["doubled"] == [{"card": card, "seat": doubler}]


def test_tx_8_the_rules_examples_for_a_doubled_kh() -> None:
    # case 1 → T −150, D +75; case 2 → D −150, L +75; case 3 → D −75 (each plus −15 trick).
    _, _, first = scripted_deal(["KH", "AH", "2H", "3H"], {0: ["KH"]})
    assert trick_points(first) == [[75, -15 - 150, 0, 0]]
    _, _, first = scripted_deal(["2H", "KH", "3H", "4H"], {1: ["KH"]})
    assert trick_points(first) == [[75, -15 - 150, 0, 0]]
    _, _, first = scripted_deal(["KH", "2H", "3H", "4H"], {0: ["KH"]})
    assert trick_points(first) == [[-15 - 75, 0, 0, 0]]


def test_tx_8_a_doubled_qd_taken_in_an_otherwise_clean_trick() -> None:
    # Clubs led, seat 3 (void in clubs) throws its doubled QD, the AC of seat 1 wins:
    # seat 1 −15 (trick) −10 (diamond) −50 (doubled queen) = −75; seat 3 +25.
    match, _, first = scripted_deal(["2C", "AC", "3C", "QD"], {3: ["QD"]})
    assert trick_points(first) == [[0, -15 - 10 - 50, 0, 25]]
    assert_complex_deal(first + play_out(match))


def test_tx_8_two_doubled_cards_in_one_trick() -> None:
    # 2H, KH (doubled by 1), QH (doubled by 2), AH: seat 3 takes −15 −150 −50 = −215,
    # seat 1 +75, seat 2 +25; the four still lose −15 −75 −25 = −115.
    match, _, first = scripted_deal(["2H", "KH", "QH", "AH"], {1: ["KH"], 2: ["QH"]})
    assert trick_points(first) == [[0, 75, 25, -215]]
    assert_complex_deal(first + play_out(match))


def test_tx_8_an_undoubled_card_keeps_its_usual_penalty_beside_a_doubled_one() -> None:
    # Seat 0 doubles K♥ and seat 2 Q♠, seat 1 doubles nothing: 2H, QH (seat 1), 3H, AH:
    # seat 3 takes −15 −25 as usual.
    match, _, first = scripted_deal(
        ["2H", "QH", "3H", "AH"], {2: ["QS"], 0: ["KH"]}, extra=["KH", "", "QS", ""]
    )
    assert trick_points(first) == [[0, 0, 0, -40]]
    assert_complex_deal(first + play_out(match))


def test_tx_8_with_random_doubles_every_complex_deal_still_totals_minus_500() -> None:
    cases: list[int] = []
    complex_deals = doubled_deals = 0
    for _, events in random_matches(True):
        for deal in deals_of(events):
            scored = check_random_deal(deal, cases)
            if scored["contract"] == "complex":
                complex_deals += 1
                doubled_deals += bool(scored["doubled"])
                assert sum(scored["deltas"]) == -500
    assert complex_deals >= 150 and doubled_deals >= 100
    assert {1, 2, 3} <= set(cases)  # every case of TX.8 came up


# ---------------------------------------------------------------- TX.9


def test_tx_9_a_legal_card_is_an_unstarted_jack_or_next_to_an_end_of_its_row() -> None:
    match = new(TRIX_DECK)
    match.apply(0, TRIX)
    assert match.view(None)["rows"] == {"C": None, "D": None, "H": None, "S": None}
    assert match.legal_actions(0) == [play("JH")]  # only the J of a suit not started
    refused(match, 0, play("7H"))  # not a jack, and no row yet
    refused(match, 0, play("JS"), "card_not_held")
    trix_script(match, stop=1)  # JH - JC JS
    assert sorted(a["card"] for a in match.legal_actions(0)) == ["QH", "TH"]  # both ends
    refused(match, 0, play("9H"))  # not next to an end
    refused(match, 0, play("KH"))
    play_cards(match, "QH QS")
    assert sorted(a["card"] for a in match.legal_actions(2)) == ["JD", "QC", "TC"]
    refused(match, 2, play("9C"))
    refused(match, 2, play("KC"))
    play_cards(match, "JD")
    assert match.legal_actions(3) == [PASS]  # 3 needs TC or TD on the table
    match.apply(3, PASS)
    assert match.view(None)["rows"] == {
        "C": {"low": "JC", "high": "JC"},
        "D": {"low": "JD", "high": "JD"},
        "H": {"low": "JH", "high": "QH"},
        "S": {"low": "JS", "high": "QS"},
    }
    trix_script(match, start=2, stop=4)  # KH KS QC - / AH AS KC -
    # Hearts J..A: the high end is closed, only the low end grows.
    assert match.legal_actions(0) == [play("TH")]
    assert match.view(None)["rows"]["H"] == {"low": "JH", "high": "AH"}


def test_tx_9_pass_is_refused_while_holding_a_legal_card() -> None:
    match = new(TRIX_DECK)
    match.apply(0, TRIX)
    refused(match, 0, PASS, "pass_not_allowed")
    play_cards(match, "JH")
    assert match.legal_actions(1) == [PASS]  # no J and no card next to a row
    refused(match, 1, play("QS"))
    match.apply(1, PASS)
    refused(match, 2, PASS, "pass_not_allowed")
    play_cards(match, "JC")
    refused(match, 3, PASS, "pass_not_allowed")  # the JS is legal
    match.apply(3, play("JS"))
    assert match.to_act == [0]


def test_tx_9_the_owner_plays_first_then_to_the_right_and_empty_hands_are_skipped() -> None:
    for owner in range(4):
        match = new(turned(TRIX_DECK, owner))  # the owner holds the hearts and the 7H
        assert match.to_act == [owner]
        match.apply(owner, TRIX)
        assert match.to_act == [owner]
        trix_script(match, owner, stop=13)  # checks every seat in turn
        view = match.view(None)
        assert view["finished_order"] == [owner, (owner + 2) % 4]
        assert view["hand_sizes"][owner] == view["hand_sizes"][(owner + 2) % 4] == 0
        assert match.to_act == [(owner + 1) % 4]  # the owner's empty hand is skipped
        match.apply((owner + 1) % 4, PASS)
        assert match.to_act == [(owner + 3) % 4]  # and so is seat owner+2's
        for seat in (owner, (owner + 2) % 4):
            refused(match, seat, PASS, "not_your_turn")
            assert match.legal_actions(seat) == []


# ---------------------------------------------------------------- TX.10


def test_tx_10_emptying_the_hand_scores_200_150_100_50() -> None:
    match = new(TRIX_DECK)
    match.apply(0, TRIX)
    events = trix_script(match, stop=13)
    assert match.view(None)["finished_order"] == [0, 2]
    assert match.view(None)["deal_points"] == [200, 0, 150, 0]
    restored = engine.Match.from_json(match.to_json())
    assert views(restored) == views(match)
    tail = trix_script(match, start=13)
    assert trix_script(restored, start=13) == tail  # the restored match plays on alike
    events += tail
    assert deltas(events) == TRIX_DELTAS and sum(TRIX_DELTAS) == 500
    scored = events_of(events, "hand_scored")[0]
    # finished_order: the seats that emptied their hands; the fourth kept its cards.
    assert [*scored["finished_order"], scored["fourth"]] == TRIX_ORDER
    assert match.deal_number == 2  # the deal ended with the third empty hand


def test_tx_10_the_fourth_place_is_automatic_and_keeps_its_cards() -> None:
    match = new(TRIX_DECK)
    match.apply(0, TRIX)
    trix_script(match, stop=18)
    assert match.view(None)["finished_order"] == [0, 2]
    assert match.hand(3) == ["2C", "3C", "4C", "5C"]
    events = match.apply(1, play("2D"))  # seat 1 empties third: seat 3 never plays again
    assert deltas(events) == TRIX_DELTAS
    assert [event["seat"] for event in events_of(events, "play")] == [1]
    assert match.deal_number == 2 and match.phase == "doubling"  # the Complex follows
    # In the last deal of the match nothing is dealt afterwards: the cards stay in hand.
    match = new(*full_match_decks())
    match.apply(0, TRIX)
    trix_script(match)
    while match.deal_number < 8:
        play_out(match)
    events = trix_script(match, owner=3)  # seat 2 now plays the part of seat 3 above
    assert deltas(events) == [100, 150, 50, 200]
    assert match.result is not None
    assert match.hand(2) == ["2C", "3C", "4C", "5C"]
    assert match.view(2)["hand"] == ["2C", "3C", "4C", "5C"]
    assert match.view(None)["hand_sizes"] == [0, 0, 4, 0]
    assert match.view(None)["hand"] is None


def test_tx_10_every_trix_deal_totals_plus_500_and_every_kingdom_zero() -> None:
    trix_deals = 0
    for with_doubles in (False, True):
        for match, events in random_matches(with_doubles):
            scored = [check_random_deal(deal) for deal in deals_of(events)]
            assert len(scored) == 8
            for first, second in zip(scored[::2], scored[1::2], strict=True):
                assert {first["contract"], second["contract"]} == {"complex", "trix"}
                assert sum(first["deltas"]) + sum(second["deltas"]) == 0
            for deal in scored:
                if deal["contract"] == "trix":
                    trix_deals += 1
                    assert sorted(deal["deltas"]) == [50, 100, 150, 200]
                    placed = [*deal["finished_order"], deal["fourth"]]
                    assert [deal["deltas"][s] for s in placed] == [200, 150, 100, 50]
            assert sum(match.scores) == 0 and sum(match.team_scores or []) == 0
    assert trix_deals >= 300


def test_tx_10_a_whole_stacked_kingdom_with_doubles_sums_to_zero() -> None:
    # Deal 1: the Trix deal (+500). Deal 2: Complex with K♥ doubled by seat 1 and Q♦ by
    # seat 2; the −125-style first trick: 2H, KH (1), QD (2, void in hearts), 5H: seat 1
    # takes it: −15 −150 (doubled K♥, case 2: L = seat 0 gets +75) −10 −50 (doubled Q♦,
    # case 1: seat 2 gets +25) = −225.
    complex_deck = stack(fill(["2H", "KH", "QD", "5H"], void={2: "H"}))
    match = new(TRIX_DECK, complex_deck)
    match.apply(0, TRIX)
    events = trix_script(match)
    events += answer_all(match, {1: ["KH"], 2: ["QD"]})
    first = play_cards(match, "2H KH QD 5H")
    assert trick_points(first) == [[75, -225, 25, 0]]
    events += first + play_out(match)
    assert match.deal_number == 3
    scored = events_of(events, "hand_scored")
    assert [sum(s["deltas"]) for s in scored] == [500, -500]
    assert sum(match.scores) == 0
    team_a, team_b = match.team_scores or [0, 0]
    assert team_a + team_b == 0


# ---------------------------------------------------------------- TX.11


def rotation_decks(seed: int) -> list[list[str]]:
    """Kingdom 1's two decks, kingdom 2's the same turned one seat; kingdom 3's two fresh
    decks, kingdom 4's the same turned one seat. The owner moves one seat right each
    kingdom, so with the timeout moves (which look only at the cards) kingdom 2 is kingdom
    1 played again one seat further round, and kingdom 4 is kingdom 3."""
    rng = random.Random(seed)
    first = [rng.sample(ALL_CARDS, 52), rng.sample(ALL_CARDS, 52)]
    third = [rng.sample(ALL_CARDS, 52), rng.sample(ALL_CARDS, 52)]
    return [*first, *(turned(d, 1) for d in first), *third, *(turned(d, 1) for d in third)]


def play_match_by_timeouts(match: engine.Match) -> Events:
    events: Events = []
    while match.result is None:
        events += play_out(match)
    return events


def test_tx_11_an_exact_tie_is_a_draw_for_all_four_seats() -> None:
    # Kingdom 1 gives team A some a and team B −a (a kingdom sums to zero). Kingdom 2 is
    # the same play turned one seat: each seat scores what its right-hand opponent scored,
    # so team A gets −a and team B a. Kingdoms 3 and 4 do the same with other cards: the
    # team totals are exactly 0 and 0 while the personal scores are not.
    match = new(*rotation_decks(7))
    events = play_out(match) + play_out(match)
    team_a, team_b = match.team_scores or [0, 0]
    assert team_a == -team_b != 0
    events += play_match_by_timeouts(match)
    assert match.team_scores == [0, 0]
    assert match.scores != [0, 0, 0, 0]
    assert match.deal_number == 8 and match.phase == "finished"
    assert match.result == {"winners": [], "draw": True}
    assert events_of(events, "match_over")[0]["result"] == {"winners": [], "draw": True}
    assert match.view(None)["result"] == {"winners": [], "draw": True}


@pytest.mark.parametrize(("seed", "winners"), [(1, [0, 2]), (2, [1, 3])])
def test_tx_11_the_higher_team_total_wins(seed: int, winners: list[int]) -> None:
    rng = random.Random(seed)
    match = new(*[rng.sample(ALL_CARDS, 52) for _ in range(8)])
    play_match_by_timeouts(match)
    team_a, team_b = match.team_scores or [0, 0]
    assert (team_a > team_b) == (winners == [0, 2]) and team_a != team_b
    assert match.result == {"winners": winners, "draw": False}
    assert match.deal_number == 8


def test_tx_11_results_follow_the_team_totals_in_random_matches() -> None:
    outcomes = set()
    for match, _ in random_matches(False) + random_matches(True):
        team_a, team_b = match.team_scores or [0, 0]
        expected = [] if team_a == team_b else [0, 2] if team_a > team_b else [1, 3]
        assert match.result == {"winners": expected, "draw": not expected}
        assert match.deal_number == 8 and match.phase == "finished"
        outcomes.add(tuple(expected))
    assert {(0, 2), (1, 3)} <= outcomes


# ---------------------------------------------------------------- TX.12


def test_tx_12_forced_action_in_trix_is_the_lone_card_or_the_forced_pass() -> None:
    match = new(TRIX_DECK)
    assert match.forced_action(0) is None  # the contract choice has two options
    match.apply(0, TRIX)
    before = match.to_json()
    assert match.forced_action(0) == play("JH")
    assert [match.forced_action(seat) for seat in (1, 2, 3)] == [None, None, None]
    assert match.to_json() == before  # asking changes nothing; the player may still act
    match.apply(0, play("JH"))
    assert match.forced_action(1) == PASS
    match.apply(1, PASS)
    assert match.forced_action(2) is None  # JC or JD
    match.apply(2, play("JC"))
    assert match.forced_action(3) == play("JS")
    match.apply(3, play("JS"))
    assert match.forced_action(0) is None  # QH or TH


def test_tx_12_forced_action_in_complex_and_in_the_doubling_window() -> None:
    # Seat 1 holds a single club.
    clubs = ["7H 2C 3C 4C 5C", "9C", "6C 7C 8C TC", "JC QC KC AC"]
    match = new(stack(fill(clubs)))
    match.apply(0, COMPLEX)
    for seat in match.to_act:  # every holder may double or not: never forced
        assert match.forced_action(seat) is None
    answer_all(match)
    assert match.forced_action(0) is None
    play_cards(match, "2C")
    assert match.forced_action(1) == play("9C")
    assert match.forced_action(2) is None
    play_cards(match, "9C")
    assert match.forced_action(2) is None  # four clubs


# ---------------------------------------------------------------- TX.13


def test_tx_13_timeouts_choose_complex_and_double_nothing() -> None:
    match = new(SECRET)
    assert match.auto_action(0) == COMPLEX
    match.apply(0, COMPLEX)
    for seat in (0, 1, 3):
        assert match.auto_action(seat) == NO_DOUBLE
    assert match.auto_action(2) is None
    events: Events = []
    for seat in list(match.to_act):
        events += match.apply(seat, match.auto_action(seat) or {})
    assert events_of(events, "doubles_revealed")[0]["doubled"] == []
    assert match.phase == "playing"


def test_tx_13_complex_timeout_plays_the_weakest_legal_card() -> None:
    # Seat 0: no club, 2D 2H 2S → 2D (rank ties C < D < H < S). Seat 1 must follow
    # diamonds: its lowest is the 5D (2D is seat 0's, 3D 4D seat 2's), not its 2C.
    match = new(stack(fill(["7H 2D 2H 2S AD", "2C 5D 9D", "3D 4D", ""], void={0: "C"})))
    start_complex(match)
    assert match.auto_action(0) == play("2D")
    assert match.auto_action(1) is None
    play_cards(match, "AD")
    assert match.auto_action(1) == play("5D")
    play_cards(match, "9D")
    assert match.auto_action(2) == play("3D")


def test_tx_13_trix_timeout_plays_the_lowest_ranked_legal_card_or_passes() -> None:
    match = new(TRIX_DECK)
    match.apply(0, TRIX)
    assert match.auto_action(0) == play("JH")
    match.apply(0, play("JH"))
    assert match.auto_action(1) == PASS
    match.apply(1, PASS)
    assert match.auto_action(2) == play("JC")  # JC or JD: clubs before diamonds
    play_cards(match, "JC JS QH QS")
    assert match.auto_action(2) == play("TC")  # QC, TC, JD: the T is the lowest rank
    # Hearts before spades: an owner holding JH and JS (and no other jack).
    other = new(stack(fill(["7H JH JS", "JC", "JD", ""])))
    other.apply(0, TRIX)
    assert other.auto_action(0) == play("JH")


def test_tx_13_timeouts_follow_the_rules_in_random_positions() -> None:
    def weakest(options: list[dict[str, Any]]) -> dict[str, Any]:
        cards = [option["card"] for option in options]
        return play(min(cards, key=lambda c: (RANKS.index(c[0]), SUITS.index(c[1]))))

    for seed in range(6):
        match = engine.new_match("trix_complex", seed=seed)
        rng = random.Random(seed)
        while match.result is None:
            for seat in list(match.to_act):
                options = match.legal_actions(seat)
                auto = match.auto_action(seat)
                if match.phase == "contract":
                    assert auto == COMPLEX
                elif match.phase == "doubling":
                    assert auto == NO_DOUBLE
                elif options == [PASS]:
                    assert auto == PASS
                else:  # Complex weakest legal card; Trix lowest-ranked legal card
                    assert auto == weakest(options)
                match.apply(seat, rng.choice(options))
