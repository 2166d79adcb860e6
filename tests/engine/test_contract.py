"""The engine contract (``shared/spec/engine-api.md``), statement by statement.

Drives ``syrian41``, ``tarneeb41_double`` and ``tarneeb_solo`` only through the public
surface the contract names — ``engine.new_match``, ``engine.VARIANTS``,
``engine.Match.from_json``, ``engine.IllegalAction`` and the listed match members — the way
the independent conformance suite will. Seeded random playouts, capped by a number of
actions, reach states of every phase; finishing scenarios are steered with ``auto_action``.
``trix_complex`` is not implemented yet and is left out.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from tests.engine.contract_support import (
    BAD_DECKS,
    CODES,
    RANKS,
    SEATS,
    SUITS,
    VIEWERS,
    Action,
    Event,
    card_order,
    hands_of,
    json_ready,
    restore,
    shuffled_deck,
    spellings,
)
from tests.engine.contract_support import (
    CONTRACT_VIEW_KEYS as VIEW_KEYS,
)

VARIANT_IDS = ("syrian41", "tarneeb41_double", "tarneeb_solo")
TEAM_VARIANTS = ("syrian41", "tarneeb41_double")
SOLO = "tarneeb_solo"
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=2)}
PHASE_NAMES = {"bidding", "trump", "contract", "doubling", "playing", "finished"}
VARIANT_PHASES = {
    "syrian41": {"bidding", "playing", "finished"},
    "tarneeb41_double": {"bidding", "playing", "finished"},
    "tarneeb_solo": {"bidding", "trump", "playing", "finished"},
}
SOLO_VIEW_KEYS = {"declarer", "contract_bid"}
BAD_SEATS: tuple[object, ...] = (4, -1, 5, "0", "1", None, True, False, 1.0, [0])
GARBAGE_ACTIONS: tuple[object, ...] = (
    None,
    "play",
    "QH",
    ["play", "QH"],
    ("bid", 7),
    7,
    {},
    {"type": None},
    {"type": "nonsense"},
    {"type": "PLAY", "card": "QH"},
    {"card": "QH"},
    {"value": 7},
    {"type": "play"},
    {"type": "play", "card": None},
    {"type": "play", "card": 12},
    {"type": "play", "card": "ZZ"},
    {"type": "play", "card": "1H"},
    {"type": "play", "card": ""},
    {"type": "play", "card": ["QH"]},
    {"type": "bid"},
    {"type": "bid", "value": None},
    {"type": "bid", "value": "seven"},
    {"type": "bid", "value": [7]},
    {"type": "trump"},
    {"type": "trump", "suit": "X"},
    {"type": "trump", "suit": None},
    {"type": "contract", "contract": "nonsense"},
    {"type": "double"},
    {"type": "double", "cards": "KH"},
)


# ---------------------------------------------------------------- helpers


def snapshot(match: engine.Match) -> str:
    """Everything observable about a match through the contract, as one text."""
    state = {
        "json": json.loads(match.to_json()),
        "views": [match.view(viewer) for viewer in VIEWERS],
        "to_act": match.to_act,
        "legal": [match.legal_actions(seat) for seat in SEATS],
        "auto": [match.auto_action(seat) for seat in match.to_act],
        "hands": hands_of(match),
        "members": [
            match.variant,
            str(match.phase),
            match.dealer,
            match.deal_number,
            match.scores,
            match.team_scores,
            match.result,
        ],
    }
    return json.dumps(state, sort_keys=True)


def actor(match: engine.Match) -> int:
    (seat,) = match.to_act
    return seat


def random_step(match: engine.Match, rng: random.Random) -> tuple[int, Action, list[Event]]:
    seat = actor(match)
    action = rng.choice(match.legal_actions(seat))
    return seat, action, match.apply(seat, action)


def auto_step(match: engine.Match) -> list[Event]:
    seat = actor(match)
    action = match.auto_action(seat)
    assert action is not None
    return match.apply(seat, action)


def states(variant: str, seed: int, steps: int = 220, every: int = 5) -> Iterator[engine.Match]:
    """The live match of a seeded random playout: at the start, every ``every`` actions and
    whenever it is not in trick play; the consumer must not change it."""
    rng = random.Random(seed)
    match = engine.new_match(variant, seed=seed)
    for step in range(steps):
        if step % every == 0 or match.phase != "playing" or not match.to_act:
            yield match
        if not match.to_act:
            return
        random_step(match, rng)


def all_states(
    seeds: tuple[int, ...] = (11, 12), every: int = 5
) -> Iterator[tuple[str, engine.Match]]:
    for variant in VARIANT_IDS:
        for seed in seeds:
            for match in states(variant, seed, every=every):
                yield variant, match


def shown_card(match: engine.Match) -> str | None:
    shown: str | None = match.view(None)["shown_card"]
    return shown


def leaked_cards(text: str, match: engine.Match, viewer: int | None) -> list[tuple[int, str]]:
    """Cards of hands other than ``viewer``'s found in ``text`` (the public shown card of the
    T41 variants excepted)."""
    shown = shown_card(match)
    return [
        (seat, code)
        for seat in SEATS
        if seat != viewer
        for code in match.hand(seat)
        if code != shown and code in text
    ]


def bid_values(match: engine.Match, seat: int) -> list[int]:
    return [a["value"] for a in match.legal_actions(seat) if a["type"] == "bid"]


def weakest_legal_card(hand: list[str], trick: list[dict[str, Any]], trump: str | None) -> str:
    """rules.md conventions: prefer non-trump, lowest rank, rank ties C < D < H < S."""
    legal = hand
    if trick:
        led = trick[0]["card"][1]
        legal = [code for code in hand if code[1] == led] or hand
    pool = [code for code in legal if code[1] != trump] or legal
    return min(pool, key=lambda code: (RANKS.index(code[0]), SUITS.index(code[1])))


def solo_timeout_trump(hand: list[str]) -> str:
    """TS.10: most cards; ties by sum of rank values (J=11 .. A=14); then S > H > D > C."""

    def strength(suit: str) -> tuple[int, int, int]:
        values = [RANK_VALUE[code[0]] for code in hand if code[1] == suit]
        return len(values), sum(values), SUITS.index(suit)

    return max(SUITS, key=strength)


def refusal_cases(match: engine.Match) -> list[tuple[str, object, object]]:
    """(kind, seat, action) triples that the contract and rules.md must refuse now."""
    cases: list[tuple[str, object, object]] = []
    hands = hands_of(match)
    if not match.to_act:
        for seat in SEATS:
            cases += [
                ("finished", seat, {"type": "bid", "value": 7}),
                ("finished", seat, {"type": "pass"}),
                ("finished", seat, {"type": "trump", "suit": "S"}),
            ]
            cases += [("finished", seat, {"type": "play", "card": c}) for c in CODES[::9]]
        return cases
    seat = actor(match)
    legal = match.legal_actions(seat)
    view = match.view(None)
    phase = match.phase
    cases += [("bad_seat", bad, legal[0]) for bad in BAD_SEATS]
    cases += [("garbage", seat, garbage) for garbage in GARBAGE_ACTIONS]
    for other in SEATS:
        if other == seat:
            continue
        cases += [("out_of_turn", other, action) for action in (legal[0], legal[-1])]
        if phase == "playing":
            cases += [
                ("out_of_turn", other, {"type": "play", "card": c}) for c in hands[other][:2]
            ]
    foreign = [code for other in SEATS if other != seat for code in hands[other]]
    not_for_variant: list[Action] = [
        {"type": "contract", "contract": "trix"},
        {"type": "double", "cards": []},
    ]
    if match.variant != SOLO:
        not_for_variant += [{"type": "pass"}, {"type": "trump", "suit": "S"}]
    cases += [("wrong_phase", seat, action) for action in not_for_variant]
    if phase == "playing":
        cases += [
            ("wrong_phase", seat, {"type": "bid", "value": 7}),
            ("wrong_phase", seat, {"type": "bid", "value": 13}),
        ]
        if match.variant == SOLO:
            cases += [
                ("wrong_phase", seat, {"type": "pass"}),
                ("wrong_phase", seat, {"type": "trump", "suit": "H"}),
            ]
        cases += [("not_held", seat, {"type": "play", "card": c}) for c in foreign[::4]]
        played = [entry["card"] for entry in view["trick"]]
        if view["last_trick"]:
            played += [entry["card"] for entry in view["last_trick"]]
        cases += [("not_held", seat, {"type": "play", "card": c}) for c in played]
        if view["trick"]:
            led = view["trick"][0]["card"][1]
            if any(code[1] == led for code in hands[seat]):
                cases += [
                    ("revoke", seat, {"type": "play", "card": c})
                    for c in hands[seat]
                    if c[1] != led
                ]
    elif phase == "bidding":
        cases += [("wrong_phase", seat, {"type": "play", "card": c}) for c in hands[seat][:3]]
        if match.variant == SOLO:
            cases.append(("wrong_phase", seat, {"type": "trump", "suit": "S"}))
            cases += [("bid_range", seat, {"type": "bid", "value": v}) for v in (0, 2, 6, 14, 99)]
            high = max((b for b in view["bids"] if isinstance(b, int)), default=0)
            cases += [
                ("bid_too_low", seat, {"type": "bid", "value": v}) for v in range(7, high + 1)
            ]
            others = [view["bids"][s] for s in SEATS if s != seat]
            if seat == match.dealer and others == ["pass"] * 3:
                cases.append(("forced_bid", seat, {"type": "pass"}))
        else:
            cases += [("bid_range", seat, {"type": "bid", "value": v}) for v in (-2, 0, 1, 14, 99)]
            if match.variant == "tarneeb41_double":
                cases.append(("bid_six", seat, {"type": "bid", "value": 6}))
                if match.scores[seat] >= 30:
                    cases.append(("bid_two", seat, {"type": "bid", "value": 2}))
    elif phase == "trump":
        cases += [
            ("wrong_phase", seat, {"type": "bid", "value": 13}),
            ("wrong_phase", seat, {"type": "pass"}),
            ("wrong_phase", seat, {"type": "play", "card": hands[seat][0]}),
        ]
    return cases


def assert_refused(
    match: engine.Match, seat: object, action: object, before: str | None = None
) -> engine.IllegalAction:
    """The action raises IllegalAction with a code and a message; nothing changes
    (``before``: the match's snapshot, when the caller already has it)."""
    if before is None:
        before = snapshot(match)
    with pytest.raises(engine.IllegalAction) as caught:
        match.apply(seat, action)  # type: ignore[arg-type]
    error = caught.value
    assert isinstance(error, ValueError)
    assert isinstance(error.code, str) and error.code
    assert str(error).strip()
    assert snapshot(match) == before, (seat, action)
    return error


def refusals_of_kind(
    kinds: set[str], seeds: tuple[int, ...] = (11,), every: int = 10
) -> dict[str, set[str]]:
    """Try every refusal of those kinds on sampled states; returns the codes seen by kind."""
    codes: dict[str, set[str]] = {}
    for _, match in all_states(seeds, every=every):
        before = snapshot(match)
        for kind, seat, action in refusal_cases(match):
            if kind in kinds:
                code = assert_refused(match, seat, action, before).code
                codes.setdefault(kind, set()).add(code)
    return codes


def check_event_secrecy(
    before_hands: list[list[str]],
    shown_before: str | None,
    match: engine.Match,
    events: list[Event],
) -> None:
    """No public event carries a card that is in a hand; private events carry ``to``."""
    hidden = {code for hand in before_hands for code in hand}
    allowed = {shown_before}
    after_hands = hands_of(match)
    for event in events:
        if event["type"] == "deal":
            hidden = {code for hand in after_hands for code in hand}
            allowed = {shown_card(match)}
        if event["type"] == "play":
            hidden.discard(event.get("card"))
        text = json.dumps(event)
        carried = {code for code in hidden if code in text} - allowed
        if "to" in event:
            to = event["to"]
            assert to in SEATS, event
            own = set(before_hands[to]) | set(after_hands[to])
            assert carried <= own, event
        else:
            assert not carried, event


def steer_team_match(
    variant: str, seed: int, max_deals: int = 60
) -> tuple[engine.Match, list[list[Event]]]:
    """Play a T41/T41D match to its end: every seat bids about what the timeout play will
    give it (found on a restored copy), then everyone plays ``auto_action``."""
    match = engine.new_match(variant, seed=seed, options={"first_dealer": seed % 4})
    log: list[list[Event]] = []
    for _ in range(max_deals):
        if match.phase == "finished":
            break
        probe = restore(match)
        deal = probe.deal_number
        while probe.phase == "bidding" and probe.deal_number == deal:
            auto_step(probe)
        tricks = [0, 0, 0, 0]
        while probe.phase == "playing":
            for event in auto_step(probe):
                if event["type"] == "trick_won":
                    tricks[event["seat"]] += 1
        while match.phase == "bidding" and match.deal_number == deal:
            seat = actor(match)
            values = bid_values(match, seat)
            wanted = max(tricks[seat], values[0])
            value = max(v for v in values if v <= wanted)
            log.append(match.apply(seat, {"type": "bid", "value": value}))
        while match.phase == "playing":
            log.append(auto_step(match))
    return match, log


def solo_auction(match: engine.Match, declarer: int, bid: int) -> list[list[Event]]:
    """Everyone but ``declarer`` passes; ``declarer`` bids ``bid``."""
    log = []
    while match.phase == "bidding":
        seat = actor(match)
        action = {"type": "bid", "value": bid} if seat == declarer else {"type": "pass"}
        log.append(match.apply(seat, action))
    return log


def steer_solo_match(seed: int, max_deals: int = 40) -> tuple[engine.Match, list[list[Event]]]:
    """Play a solo match to its end: each deal the best (declarer, trump) under timeout play
    (found on restored copies) bids what it will take, then everyone plays ``auto_action``."""
    match = engine.new_match(SOLO, seed=seed, options={"first_dealer": seed % 4})
    log: list[list[Event]] = []
    for _ in range(max_deals):
        if match.phase == "finished":
            break
        options = []
        for declarer in SEATS:
            for suit in SUITS:
                probe = restore(match)
                solo_auction(probe, declarer, 7)
                probe.apply(declarer, {"type": "trump", "suit": suit})
                taken = 0
                while probe.phase == "playing":
                    taken += sum(
                        1
                        for event in auto_step(probe)
                        if event["type"] == "trick_won" and event["seat"] == declarer
                    )
                options.append((taken, declarer, suit))
        taken, declarer, suit = max(options)
        log += solo_auction(match, declarer, min(13, max(7, taken)))
        log.append(match.apply(declarer, {"type": "trump", "suit": suit}))
        while match.phase == "playing":
            log.append(auto_step(match))
    return match, log


# ---------------------------------------------------------------- VARIANTS


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_variants_registry_describes_each_variant(variant: str) -> None:
    info = engine.VARIANTS[variant]
    assert info.id == variant
    assert isinstance(info.name_ar, str)
    assert any("\u0600" <= ch <= "\u06ff" for ch in info.name_ar)
    assert isinstance(info.name_en, str) and info.name_en.strip()
    assert info.teams is (variant != SOLO)
    assert isinstance(info.options, dict)


def test_solo_variant_options_default_target_is_31() -> None:
    assert engine.VARIANTS[SOLO].options["target"] == 31


@pytest.mark.parametrize("variant", TEAM_VARIANTS)
def test_team_variant_options_have_no_target(variant: str) -> None:
    assert "target" not in engine.VARIANTS[variant].options


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_variant_default_options_are_accepted_by_new_match(variant: str) -> None:
    match = engine.new_match(variant, seed=3, options=dict(engine.VARIANTS[variant].options))
    assert match.variant == variant


# ---------------------------------------------------------------- new_match and options


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_new_match_deals_the_first_hand_and_awaits_the_first_bid(variant: str) -> None:
    match = engine.new_match(variant, seed=1234)
    assert match.variant == variant
    assert match.phase == "bidding"
    assert match.deal_number == 1
    assert match.dealer in SEATS
    assert match.to_act == [(match.dealer + 1) % 4]
    hands = hands_of(match)
    assert [len(hand) for hand in hands] == [13, 13, 13, 13]
    assert sorted(code for hand in hands for code in hand) == sorted(CODES)
    assert match.scores == [0, 0, 0, 0]
    assert match.team_scores == (None if variant == SOLO else [0, 0])
    assert match.result is None


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_options_may_be_omitted_none_or_empty(variant: str) -> None:
    plain = engine.new_match(variant, seed=5)
    for options in (None, {}):
        assert snapshot(engine.new_match(variant, seed=5, options=options)) == snapshot(plain)


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("first_dealer", SEATS)
def test_first_dealer_option_sets_the_dealer(variant: str, first_dealer: int) -> None:
    match = engine.new_match(variant, seed=5, options={"first_dealer": first_dealer})
    assert match.dealer == first_dealer
    assert match.view(None)["dealer"] == first_dealer
    assert match.to_act == [(first_dealer + 1) % 4]


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("bad", [4, -1, 5, "0", "1", True, False, 1.5, [0], {"seat": 0}])
def test_bad_first_dealer_raises_value_error(variant: str, bad: object) -> None:
    with pytest.raises(ValueError):
        engine.new_match(variant, seed=5, options={"first_dealer": bad})


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_float_first_dealer_raises_value_error(variant: str) -> None:
    with pytest.raises(ValueError):
        engine.new_match(variant, seed=5, options={"first_dealer": 1.0})


def test_float_solo_target_raises_value_error() -> None:
    with pytest.raises(ValueError):
        engine.new_match(SOLO, seed=5, options={"target": 31.0})


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize(
    "options",
    [{"no_such_option": 1}, {"First_dealer": 0}, {"trump": "S"}, {"first_dealer": 0, "x": 1}],
)
def test_unknown_option_key_raises_value_error(variant: str, options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        engine.new_match(variant, seed=5, options=options)


@pytest.mark.parametrize("variant", TEAM_VARIANTS)
@pytest.mark.parametrize("target", [31, 51, 61])
def test_target_option_outside_solo_raises_value_error(variant: str, target: int) -> None:
    with pytest.raises(ValueError):
        engine.new_match(variant, seed=5, options={"target": target})


@pytest.mark.parametrize("target", [31, 51, 61])
def test_solo_accepts_target_31_51_61(target: int) -> None:
    match = engine.new_match(SOLO, seed=5, options={"target": target, "first_dealer": 2})
    assert match.phase == "bidding" and match.dealer == 2


@pytest.mark.parametrize("bad", [0, 30, 41, 100, -31, "31", True, 31.5, [31]])
def test_solo_bad_target_raises_value_error(bad: object) -> None:
    with pytest.raises(ValueError):
        engine.new_match(SOLO, seed=5, options={"target": bad})


# ---------------------------------------------------------------- decks


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("kind", sorted(BAD_DECKS))
def test_deck_that_is_not_52_distinct_valid_codes_raises_value_error(
    variant: str, kind: str
) -> None:
    with pytest.raises(ValueError):
        engine.new_match(variant, seed=1, decks=[BAD_DECKS[kind]])
    with pytest.raises(ValueError):
        engine.new_match(variant, seed=1, decks=[shuffled_deck(1), BAD_DECKS[kind]])


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("dealer", SEATS)
def test_stacked_deck_is_dealt_one_card_at_a_time_from_the_dealers_right(
    variant: str, dealer: int
) -> None:
    deck = shuffled_deck(dealer + 10)
    match = engine.new_match(variant, seed=2, options={"first_dealer": dealer}, decks=[deck])
    first = (dealer + 1) % 4
    for seat in SEATS:
        expected = sorted(
            (code for j, code in enumerate(deck) if (first + j) % 4 == seat), key=card_order
        )
        assert match.hand(seat) == expected
    if variant != SOLO:
        view = match.view(None)
        assert view["shown_card"] == deck[51]
        assert view["trump"] == {"C": "S", "S": "C", "D": "H", "H": "D"}[deck[51][1]]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_deck_codes_accept_lower_case_and_ten_spelling_and_output_is_canonical(
    variant: str,
) -> None:
    deck = shuffled_deck(7)
    rng = random.Random(7)
    spelled = [rng.choice(spellings(code)) for code in deck]
    assert any(code.startswith("10") for code in spelled)
    assert any(code != code.upper() for code in spelled)
    plain = engine.new_match(variant, seed=3, options={"first_dealer": 1}, decks=[deck])
    match = engine.new_match(variant, seed=3, options={"first_dealer": 1}, decks=[spelled])
    assert hands_of(match) == hands_of(plain)
    for viewer in VIEWERS:
        assert match.view(viewer) == plain.view(viewer)
    assert "TH" in {code for hand in hands_of(match) for code in hand}
    assert all(code in CODES for hand in hands_of(match) for code in hand)


@pytest.mark.parametrize("variant", TEAM_VARIANTS)
def test_decks_serve_each_deal_dealt_including_cancelled_ones_then_seeded_shuffles(
    variant: str,
) -> None:
    decks = [shuffled_deck(100), shuffled_deck(101)]

    def dealt(deck: list[str], dealer: int) -> list[list[str]]:
        first = (dealer + 1) % 4
        return [
            sorted((c for j, c in enumerate(deck) if (first + j) % 4 == s), key=card_order)
            for s in SEATS
        ]

    def cancel(match: engine.Match) -> None:
        for _ in SEATS:
            match.apply(actor(match), {"type": "bid", "value": 2})

    match = engine.new_match(variant, seed=8, options={"first_dealer": 0}, decks=decks)
    twin = engine.new_match(variant, seed=8, options={"first_dealer": 0}, decks=decks)
    assert hands_of(match) == dealt(decks[0], 0)
    cancel(match)
    cancel(twin)
    assert match.deal_number == 2 and match.dealer == 1
    assert hands_of(match) == dealt(decks[1], 1)
    assert match.view(None)["shown_card"] == decks[1][51]
    cancel(match)
    cancel(twin)
    assert match.deal_number == 3 and match.dealer == 2
    third = hands_of(match)
    assert third not in (dealt(decks[0], 2), dealt(decks[1], 2))
    assert sorted(c for hand in third for c in hand) == sorted(CODES)
    assert third == hands_of(twin)


def test_solo_second_deck_serves_the_second_deal() -> None:
    decks = [shuffled_deck(200), shuffled_deck(201)]
    match = engine.new_match(SOLO, seed=8, options={"first_dealer": 3}, decks=decks)
    while match.deal_number == 1:
        auto_step(match)
    assert match.dealer == 0 and match.phase == "bidding"
    for seat in SEATS:
        expected = [c for j, c in enumerate(decks[1]) if (1 + j) % 4 == seat]
        assert match.hand(seat) == sorted(expected, key=card_order)


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_same_seed_and_actions_reproduce_the_match_exactly(variant: str) -> None:
    first = engine.new_match(variant, seed=77)
    second = engine.new_match(variant, seed=77)
    assert snapshot(first) == snapshot(second)
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(150):
        if not first.to_act:
            break
        seat_a, action_a, events_a = random_step(first, rng_a)
        seat_b, action_b, events_b = random_step(second, rng_b)
        assert (seat_a, action_a, events_a) == (seat_b, action_b, events_b)
        assert first.to_json() == second.to_json()
    assert snapshot(first) == snapshot(second)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_seed_drives_the_deal_and_first_dealer(variant: str) -> None:
    deals = {json.dumps(hands_of(engine.new_match(variant, seed=s))) for s in range(6)}
    assert len(deals) == 6
    dealers = {engine.new_match(variant, seed=s).dealer for s in range(40)}
    assert dealers == set(SEATS)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_global_random_state_does_not_affect_the_match(variant: str) -> None:
    texts = []
    for global_seed in (1, 2):
        random.seed(global_seed)
        match = engine.new_match(variant, seed=19)
        for _ in range(60):
            random.random()
            auto_step(match)
        texts.append(snapshot(match))
    assert texts[0] == texts[1]


# ---------------------------------------------------------------- phase, to_act, members


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_phase_is_a_contract_phase_name_and_one_seat_acts_while_running(variant: str) -> None:
    seen = set()
    for match in states(variant, seed=21, every=1):
        assert match.phase in PHASE_NAMES
        assert match.phase in VARIANT_PHASES[variant]
        assert isinstance(match.to_act, list)
        if match.phase == "finished":
            assert match.to_act == []
        else:
            assert len(match.to_act) == 1 and match.to_act[0] in SEATS
        seen.add(str(match.phase))
    assert seen >= VARIANT_PHASES[variant] - {"finished"}


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_scores_are_four_ints_and_team_scores_are_partner_sums(variant: str) -> None:
    for match in states(variant, seed=31, steps=400, every=13):
        scores = match.scores
        assert isinstance(scores, list) and len(scores) == 4
        assert all(type(score) is int for score in scores)
        if variant == SOLO:
            assert match.team_scores is None
        else:
            assert match.team_scores == [scores[0] + scores[2], scores[1] + scores[3]]
        assert match.result is None or match.phase == "finished"


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_deal_number_counts_deals_and_rises_with_each_deal_event(variant: str) -> None:
    match = engine.new_match(variant, seed=41)
    rng = random.Random(41)
    for _ in range(300):
        if not match.to_act:
            break
        number, dealer = match.deal_number, match.dealer
        _, _, events = random_step(match, rng)
        deals = [event for event in events if event["type"] == "deal"]
        assert match.deal_number == number + len(deals)
        assert len(deals) <= 1
        if deals and match.phase != "finished":
            assert match.dealer == (dealer + 1) % 4
            assert match.phase == "bidding"
    assert match.deal_number >= 3


@pytest.mark.parametrize("variant", TEAM_VARIANTS)
def test_cancelled_deal_counts_as_a_deal_and_passes_the_deal_on(variant: str) -> None:
    match = engine.new_match(variant, seed=6, options={"first_dealer": 3})
    events: list[Event] = []
    for _ in SEATS:
        events += match.apply(actor(match), {"type": "bid", "value": 2})
    types = [event["type"] for event in events]
    assert types.count("bid") == 4
    assert "deal_cancelled" in types and "deal" in types
    assert types.index("deal_cancelled") < types.index("deal")
    assert "hand_scored" not in types
    assert match.deal_number == 2 and match.dealer == 0
    assert match.phase == "bidding" and match.to_act == [1]
    assert match.scores == [0, 0, 0, 0]
    assert match.view(None)["bids"] == [None, None, None, None]
    assert all(len(hand) == 13 for hand in hands_of(match))


# ---------------------------------------------------------------- legal_actions, apply


def test_legal_actions_are_empty_for_seats_not_to_act() -> None:
    for _, match in all_states():
        for seat in SEATS:
            if seat not in match.to_act:
                assert match.legal_actions(seat) == []
            else:
                assert match.legal_actions(seat)


def test_legal_actions_are_json_ready_action_dicts() -> None:
    for variant, match in all_states():
        for seat in match.to_act:
            legal = match.legal_actions(seat)
            assert json_ready(legal)
            assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
            for action in legal:
                assert action["type"] in {"bid", "pass", "trump", "play"}
                if action["type"] == "play":
                    assert action["card"] in match.hand(seat)
                if action["type"] == "trump":
                    assert variant == SOLO and action["suit"] in SUITS


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_legal_actions_are_exactly_the_actions_apply_accepts(variant: str) -> None:
    candidates: list[Action] = [{"type": "play", "card": code} for code in CODES]
    candidates += [{"type": "bid", "value": value} for value in range(-1, 16)]
    candidates += [{"type": "pass"}] + [{"type": "trump", "suit": s} for s in SUITS]
    for match in states(variant, seed=51, steps=150, every=9):
        if not match.to_act:
            continue
        seat = actor(match)
        legal = {json.dumps(a, sort_keys=True) for a in match.legal_actions(seat)}
        accepted = set()
        for action in candidates:
            probe = restore(match)
            try:
                probe.apply(seat, action)
            except engine.IllegalAction:
                continue
            accepted.add(json.dumps(action, sort_keys=True))
        assert accepted == legal, (match.phase, seat)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_apply_returns_a_list_of_json_ready_event_dicts_with_a_type(variant: str) -> None:
    match = engine.new_match(variant, seed=61)
    rng = random.Random(61)
    for _ in range(250):
        if not match.to_act:
            break
        _, _, events = random_step(match, rng)
        assert isinstance(events, list) and events
        for event in events:
            assert isinstance(event, dict)
            assert isinstance(event.get("type"), str) and event["type"]
            assert json_ready(event)


# ---------------------------------------------------------------- refused actions


def test_illegal_action_is_a_value_error_subclass() -> None:
    assert issubclass(engine.IllegalAction, ValueError)


def test_wrong_seat_is_refused_and_changes_nothing() -> None:
    assert refusals_of_kind({"bad_seat"})["bad_seat"]


def test_out_of_turn_action_is_refused_and_changes_nothing() -> None:
    assert refusals_of_kind({"out_of_turn"})["out_of_turn"]


def test_action_of_the_wrong_phase_or_variant_is_refused_and_changes_nothing() -> None:
    assert refusals_of_kind({"wrong_phase"})["wrong_phase"]


def test_card_not_held_is_refused_and_changes_nothing() -> None:
    assert refusals_of_kind({"not_held"})["not_held"]


def test_revoke_is_refused_and_changes_nothing() -> None:
    assert refusals_of_kind({"revoke"})["revoke"]


def test_illegal_bids_are_refused_and_change_nothing() -> None:
    codes = refusals_of_kind({"bid_range", "bid_six", "bid_two", "bid_too_low"})
    assert {"bid_range", "bid_six", "bid_too_low"} <= set(codes)


def test_malformed_actions_are_refused_and_change_nothing() -> None:
    assert refusals_of_kind({"garbage"}, every=20)["garbage"]


def test_each_kind_of_refusal_has_one_stable_code() -> None:
    kinds = {"bad_seat", "out_of_turn", "not_held", "revoke", "bid_range", "bid_too_low"}
    codes = refusals_of_kind(kinds, seeds=(13,), every=16)
    for kind in kinds:
        assert len(codes[kind]) == 1, (kind, codes[kind])
    assert len({code for kind in kinds for code in codes[kind]}) == len(kinds)


def test_refusal_code_does_not_depend_on_the_match_instance() -> None:
    for _, match in all_states(seeds=(15,), every=20):
        twin = restore(match)
        before, twin_before = snapshot(match), snapshot(twin)
        for _, seat, action in refusal_cases(match)[::7]:
            first = assert_refused(match, seat, action, before)
            again = assert_refused(match, seat, action, before)
            other = assert_refused(twin, seat, action, twin_before)
            assert first.code == again.code == other.code


def test_solo_dealer_must_bid_after_three_passes() -> None:
    match = engine.new_match(SOLO, seed=9, options={"first_dealer": 2})
    for _ in range(3):
        match.apply(actor(match), {"type": "pass"})
    assert match.to_act == [2] and match.phase == "bidding"
    assert match.view(None)["bids"] == ["pass", "pass", None, "pass"]
    assert {"type": "pass"} not in match.legal_actions(2)
    assert bid_values(match, 2) == list(range(7, 14))
    assert match.auto_action(2) == {"type": "bid", "value": 7}
    assert_refused(match, 2, {"type": "pass"})
    match.apply(2, {"type": "bid", "value": 7})
    assert match.phase == "trump" and match.to_act == [2]


# ---------------------------------------------------------------- auto_action


def test_auto_action_is_a_legal_action_of_the_seat_to_act() -> None:
    for _, match in all_states():
        for seat in match.to_act:
            action = match.auto_action(seat)
            assert action in match.legal_actions(seat)
            assert json_ready(action)
            probe = restore(match)
            assert isinstance(probe.apply(seat, action), list)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_auto_action_follows_the_timeout_rules(variant: str) -> None:
    for seed in (71, 72):
        for match in states(variant, seed=seed, steps=300, every=3):
            if not match.to_act:
                continue
            seat = actor(match)
            view = match.view(seat)
            action = match.auto_action(seat)
            if match.phase == "playing":
                card = weakest_legal_card(view["hand"], view["trick"], view["trump"])
                assert action == {"type": "play", "card": card}
            elif match.phase == "trump":
                assert action == {"type": "trump", "suit": solo_timeout_trump(view["hand"])}
            elif variant == SOLO:
                others = [view["bids"][s] for s in SEATS if s != seat]
                forced = seat == match.dealer and others == ["pass"] * 3
                expected = {"type": "bid", "value": 7} if forced else {"type": "pass"}
                assert action == expected
            else:
                smallest = 3 if variant == "tarneeb41_double" and match.scores[seat] >= 30 else 2
                value = smallest
                if seat == match.dealer:
                    others = sum(b for b in view["bids"] if b is not None)
                    if variant == "syrian41":
                        value = max(2, 11 - others)
                    else:
                        value = max(smallest, 12 - others)
                        value = 7 if value == 6 else value
                assert action == {"type": "bid", "value": value}


# ---------------------------------------------------------------- hand and views


def test_hand_codes_are_canonical_and_sorted_by_suit_then_rank() -> None:
    for _, match in all_states():
        for seat in SEATS:
            hand = match.hand(seat)
            assert all(code in CODES for code in hand)
            assert hand == sorted(set(hand), key=card_order)
            assert match.view(seat)["hand"] == hand


def test_view_has_every_contract_key_for_seats_and_spectator() -> None:
    for variant, match in all_states():
        for viewer in VIEWERS:
            view = match.view(viewer)
            assert isinstance(view, dict)
            missing = VIEW_KEYS - set(view)
            if variant == SOLO:
                missing |= SOLO_VIEW_KEYS - set(view)
            assert not missing, (variant, viewer, missing)


def test_views_are_json_serialisable() -> None:
    for _, match in all_states():
        for viewer in VIEWERS:
            assert json_ready(match.view(viewer))


def test_view_values_agree_with_the_match() -> None:
    for variant, match in all_states():
        hands = hands_of(match)
        for viewer in VIEWERS:
            view = match.view(viewer)
            assert view["variant"] == match.variant == variant
            assert view["phase"] == match.phase
            assert view["deal_number"] == match.deal_number
            assert view["dealer"] == match.dealer
            assert view["turn"] == match.to_act
            assert view["hand"] == (None if viewer is None else hands[viewer])
            assert view["hand_sizes"] == [len(hand) for hand in hands]
            assert view["scores"] == match.scores
            assert view["team_scores"] == match.team_scores
            assert view["result"] == match.result
            assert len(view["bids"]) == 4 and len(view["tricks_won"]) == 4
            assert all(type(n) is int for n in view["tricks_won"])
            assert sum(view["tricks_won"]) + len(hands[0]) <= 13
            assert view["trump"] is None or view["trump"] in SUITS
            assert isinstance(view["trick"], list) and len(view["trick"]) < 4
            for entry in view["trick"] + (view["last_trick"] or []):
                assert set(entry) == {"seat", "card"}
                assert entry["seat"] in SEATS and entry["card"] in CODES
            assert view["last_trick"] is None or len(view["last_trick"]) == 4
            if variant == SOLO:
                assert view["shown_card"] is None
                assert all(b is None or b == "pass" or 7 <= b <= 13 for b in view["bids"])
                if match.phase in ("bidding", "trump"):
                    assert view["trump"] is None
                if match.phase == "trump":
                    assert [view["declarer"]] == match.to_act
                if match.phase == "playing":
                    assert view["declarer"] in SEATS and 7 <= view["contract_bid"] <= 13
                    assert view["trump"] in SUITS
            else:
                assert view["shown_card"] in CODES
                partner = {"C": "S", "S": "C", "D": "H", "H": "D"}
                assert view["trump"] == partner[view["shown_card"][1]]
                assert all(b is None or 2 <= b <= 13 for b in view["bids"])


def test_spectator_view_has_no_hand_and_turn_is_to_act() -> None:
    for _, match in all_states():
        view = match.view(None)
        assert view["hand"] is None
        assert view["turn"] == match.to_act


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_spectator_view_shows_no_card_of_any_hand_during_the_first_deal(variant: str) -> None:
    checked = 0
    for match in states(variant, seed=81, steps=60, every=1):
        if match.deal_number != 1:
            break
        assert leaked_cards(json.dumps(match.view(None)), match, None) == []
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("variant", TEAM_VARIANTS)
def test_spectator_view_shows_no_card_of_any_hand_in_later_deals(variant: str) -> None:
    for match in states(variant, seed=82, steps=300, every=1):
        assert leaked_cards(json.dumps(match.view(None)), match, None) == []


def test_solo_spectator_view_shows_no_card_of_any_hand_in_any_deal() -> None:
    for match in states(SOLO, seed=83, steps=300, every=1):
        assert leaked_cards(json.dumps(match.view(None)), match, None) == []


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_seat_view_shows_no_card_of_another_hand_during_the_first_deal(variant: str) -> None:
    for match in states(variant, seed=84, steps=60, every=2):
        if match.deal_number != 1:
            break
        for seat in SEATS:
            assert leaked_cards(json.dumps(match.view(seat)), match, seat) == []


@pytest.mark.parametrize("variant", TEAM_VARIANTS)
def test_seat_view_shows_no_card_of_another_hand_in_later_deals(variant: str) -> None:
    for match in states(variant, seed=85, steps=300, every=2):
        for seat in SEATS:
            assert leaked_cards(json.dumps(match.view(seat)), match, seat) == []


def test_solo_seat_view_shows_no_card_of_another_hand_in_any_deal() -> None:
    for match in states(SOLO, seed=86, steps=300, every=2):
        for seat in SEATS:
            assert leaked_cards(json.dumps(match.view(seat)), match, seat) == []


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_bids_view_shows_each_seats_bid_or_pass(variant: str) -> None:
    match = engine.new_match(variant, seed=87)
    rng = random.Random(87)
    calls: list[object] = [None, None, None, None]
    for _ in range(250):
        if not match.to_act:
            break
        deal = match.deal_number
        seat, action, _ = random_step(match, rng)
        if match.deal_number != deal:
            calls = [None, None, None, None]
        elif action["type"] == "bid":
            calls[seat] = action["value"]
        elif action["type"] == "pass":
            calls[seat] = "pass"
        if match.deal_number == deal:
            for viewer in VIEWERS:
                assert match.view(viewer)["bids"] == calls


def test_solo_view_reports_declarer_and_contract_bid() -> None:
    match = engine.new_match(SOLO, seed=88, options={"first_dealer": 0})
    solo_auction(match, 3, 9)
    assert match.phase == "trump" and match.to_act == [3]
    match.apply(3, {"type": "trump", "suit": "H"})
    for viewer in VIEWERS:
        view = match.view(viewer)
        assert view["declarer"] == 3 and view["contract_bid"] == 9
        assert view["trump"] == "H" and view["bids"] == ["pass", "pass", "pass", 9]
    assert match.phase == "playing" and match.to_act == [3]


# ---------------------------------------------------------------- tricks


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_trick_lists_plays_in_order_and_fourth_card_moves_it_to_last_trick(
    variant: str,
) -> None:
    match = engine.new_match(variant, seed=91)
    rng = random.Random(91)
    played: list[dict[str, Any]] = []
    completed = 0
    for _ in range(200):
        if not match.to_act:
            break
        deal = match.deal_number
        seat, action, events = random_step(match, rng)
        if action["type"] != "play":
            continue
        played.append({"seat": seat, "card": action["card"]})
        if len(played) < 4:
            for viewer in VIEWERS:
                assert match.view(viewer)["trick"] == played
            continue
        won = [event for event in events if event["type"] == "trick_won"]
        assert len(won) == 1
        assert won[0]["cards"] == [entry["card"] for entry in played]
        assert won[0]["seat"] in SEATS
        if match.deal_number == deal:
            completed += 1
            for viewer in VIEWERS:
                view = match.view(viewer)
                assert view["trick"] == []
                assert view["last_trick"] == played
                assert match.to_act == [won[0]["seat"]]
        played = []
    assert completed >= 12


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_thirteenth_trick_is_reported_in_its_event_and_the_next_deal_starts_clean(
    variant: str,
) -> None:
    # The contract's "the finished trick is in last_trick" meets "view(None) contains no
    # card of any hand" at the deal boundary: the next deal is dealt in the same apply and
    # the 13th trick's cards are in the new hands. The engine keeps the views clean and
    # reports the 13th trick in its trick_won event.
    match = engine.new_match(variant, seed=92)
    while match.phase != "playing":
        auto_step(match)
    played: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    while match.deal_number == 1:
        seat = actor(match)
        action = match.auto_action(seat)
        assert action is not None
        played = [*played[-3:], {"seat": seat, "card": action["card"]}]
        events = match.apply(seat, action)
    won = [event for event in events if event["type"] == "trick_won"]
    assert won and won[-1]["cards"] == [entry["card"] for entry in played]
    view = match.view(None)
    assert view["trick"] == [] and view["last_trick"] is None


# ---------------------------------------------------------------- round trip


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_round_trip_restores_identical_views_and_behaviour(variant: str) -> None:
    match = engine.new_match(variant, seed=101)
    rng = random.Random(101)
    copies: list[engine.Match] = []
    for step in range(240):
        if not match.to_act:
            break
        if step % 37 == 0:
            text = match.to_json()
            assert isinstance(text, str)
            copy = engine.Match.from_json(text)
            assert json.loads(copy.to_json()) == json.loads(text)
            copies.append(copy)
        if step % 4 == 0:
            expected = snapshot(match)
            for copy in copies:
                assert snapshot(copy) == expected
        if step % 11 == 0:
            for _, seat, action in refusal_cases(match)[::13]:
                code = assert_refused(match, seat, action).code
                for copy in copies:
                    assert assert_refused(copy, seat, action).code == code
        seat, action, events = random_step(match, rng)
        for copy in copies:
            assert copy.apply(seat, action) == events
    assert len(copies) >= 6
    for copy in copies:
        assert snapshot(copy) == snapshot(match)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_round_trip_of_a_fresh_match_with_decks_and_options(variant: str) -> None:
    decks = [shuffled_deck(1), shuffled_deck(2), shuffled_deck(3)]
    options: dict[str, Any] = {"first_dealer": 2}
    if variant == SOLO:
        options["target"] = 51
    match = engine.new_match(variant, seed=4, options=options, decks=decks)
    copy = restore(match)
    assert snapshot(copy) == snapshot(match)
    for _ in range(120):
        if not match.to_act:
            break
        events = auto_step(match)
        assert auto_step(copy) == events
    assert snapshot(copy) == snapshot(match)


# ---------------------------------------------------------------- events


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_events_never_show_the_public_a_card_held_in_a_hand(variant: str) -> None:
    for seed in (111, 112):
        match = engine.new_match(variant, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if not match.to_act:
                break
            before, shown = hands_of(match), shown_card(match)
            _, _, events = random_step(match, rng)
            check_event_secrecy(before, shown, match, events)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_events_report_bids_trump_plays_and_deal_changes(variant: str) -> None:
    match = engine.new_match(variant, seed=121)
    rng = random.Random(121)
    scored = 0
    for _ in range(400):
        if not match.to_act:
            break
        deal, old_scores = match.deal_number, match.scores
        seat, action, events = random_step(match, rng)
        types = [event["type"] for event in events]
        if action["type"] == "bid":
            assert "bid" in types
        if action["type"] == "trump":
            assert "trump" in types
        if action["type"] == "play":
            (play,) = [event for event in events if event["type"] == "play"]
            assert play["card"] == action["card"] and play.get("seat") == seat
        if match.deal_number != deal:
            assert "deal" in types
        if "hand_scored" in types:
            scored += 1
            (event,) = [event for event in events if event["type"] == "hand_scored"]
            deltas = [new - old for new, old in zip(match.scores, old_scores, strict=True)]
            assert match.scores in event.values()
            assert deltas in event.values()
    assert scored >= 2


# ---------------------------------------------------------------- card spellings in actions


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_actions_accept_lower_case_and_ten_spelling_and_output_canonical_codes(
    variant: str,
) -> None:
    match = engine.new_match(variant, seed=131)
    rng = random.Random(131)
    tens = 0
    for _ in range(140):
        if not match.to_act:
            break
        seat = actor(match)
        action = rng.choice(match.legal_actions(seat))
        if action["type"] == "play":
            code = action["card"]
            spelled = rng.choice([form for form in spellings(code) if form != code])
            tens += code[0] == "T"
            deal = match.deal_number
            events = match.apply(seat, {"type": "play", "card": spelled})
            (play,) = [event for event in events if event["type"] == "play"]
            assert play["card"] == code
            view = match.view(None)
            if view["trick"]:
                assert view["trick"][-1] == {"seat": seat, "card": code}
            elif match.deal_number == deal:
                assert view["last_trick"][-1] == {"seat": seat, "card": code}
            if match.deal_number == deal:
                assert code not in match.hand(seat)
        else:
            match.apply(seat, action)
    assert tens > 0


# ---------------------------------------------------------------- finished matches


def check_finished(match: engine.Match, last_events: list[Event]) -> None:
    result = match.result
    assert isinstance(result, dict) and set(result) == {"winners", "draw"}
    assert result["draw"] is False and result["winners"]
    assert match.phase == "finished" and match.to_act == []
    (over,) = [event for event in last_events if event["type"] == "match_over"]
    assert result in over.values()
    assert "hand_scored" in [event["type"] for event in last_events]
    for viewer in VIEWERS:
        view = match.view(viewer)
        assert view["result"] == result and view["phase"] == "finished" and view["turn"] == []
        assert json_ready(view)
    for seat in SEATS:
        assert match.legal_actions(seat) == []
    for _, seat, action in refusal_cases(match):
        assert_refused(match, seat, action)
    assert snapshot(restore(match)) == snapshot(match)


@pytest.mark.parametrize("variant", TEAM_VARIANTS)
def test_finished_team_match_has_the_winning_team_as_result(variant: str) -> None:
    match, log = steer_team_match(variant, seed=3)
    check_finished(match, log[-1])
    winners = sorted(match.result["winners"])  # type: ignore[index]
    assert winners in ([0, 2], [1, 3])
    scores = match.scores

    def qualifies(a: int, b: int) -> bool:
        return (scores[a] >= 41 and scores[b] > 0) or (scores[b] >= 41 and scores[a] > 0)

    mine, theirs = (winners[0], winners[1]), (winners[0] ^ 1, winners[1] ^ 1)
    assert qualifies(*mine)
    if qualifies(*theirs):
        assert sum(scores[s] for s in mine) > sum(scores[s] for s in theirs)


def test_finished_solo_match_has_the_top_scorer_as_result() -> None:
    match, log = steer_solo_match(seed=5)
    check_finished(match, log[-1])
    scores = match.scores
    assert match.result == {"winners": [scores.index(max(scores))], "draw": False}
    assert max(scores) >= 31 and scores.count(max(scores)) == 1
    assert match.team_scores is None
