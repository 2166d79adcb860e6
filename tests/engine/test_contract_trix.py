"""The engine contract (``shared/spec/engine-api.md``) for ``trix_complex``, statement by
statement.

Drives Trix Complex Partnership only through the public surface the contract names —
``engine.new_match``, ``engine.VARIANTS``, ``engine.Match.from_json``,
``engine.IllegalAction``, the listed match members and ``forced_action`` — the way the
independent conformance suite will. Seeded random playouts (every seat among ``to_act``
may be picked, so doubling windows are answered in random orders with random subsets)
reach states of every phase; whole matches are cheap (~470 actions), so most tests play
them to the end. The rules themselves (TX.1–TX.13) are tested in ``test_trix.py``; here
they appear only where the contract leans on them (``to_act`` in the doubling window,
timeouts, the fourth Trix player's cards, the result).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

import engine
from tests.engine.contract_support import (
    BAD_DECKS,
    CODES,
    CONTRACT_VIEW_KEYS,
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

VARIANT = "trix_complex"
DOUBLABLE = ("QC", "QD", "QH", "KH", "QS")  # TX.7: K♥ and the queens, canonical order
TRIX_PHASES = {"contract", "doubling", "playing", "finished"}
VIEW_KEYS = CONTRACT_VIEW_KEYS | {"contract", "owner", "doubled", "rows", "finished_order"}
# Found once with ``find_drawn_seed`` below (kept out of the test): under auto_action play
# this seed's match ends with equal team totals.
DRAWN_SEED = 55
BAD_SEATS: tuple[object, ...] = (4, -1, 5, -2, "0", "1", None, True, False, 1.0, [0])
NON_SEATS: tuple[object, ...] = (4, 5, "0", "1", None, True, False, 1.0, 0.0)
GARBAGE_ACTIONS: tuple[object, ...] = (
    None,
    "play",
    "QH",
    "pass",
    ["play", "QH"],
    ("double", []),
    7,
    {},
    {"type": None},
    {"type": "nonsense"},
    {"type": "PLAY", "card": "QH"},
    {"type": "Double", "cards": []},
    {"card": "QH"},
    {"cards": []},
    {"type": "play"},
    {"type": "play", "card": None},
    {"type": "play", "card": 12},
    {"type": "play", "card": "ZZ"},
    {"type": "play", "card": "1H"},
    {"type": "play", "card": ""},
    {"type": "play", "card": ["QH"]},
    {"type": "contract"},
    {"type": "contract", "contract": None},
    {"type": "contract", "contract": "nonsense"},
    {"type": "contract", "contract": ["trix"]},
    {"type": "double"},
    {"type": "double", "cards": None},
    {"type": "double", "cards": "KH"},
    {"type": "double", "cards": "[]"},
    {"type": "double", "cards": ["KH", None]},
    {"type": "double", "cards": ["QH", "QH"]},
    {"type": "double", "cards": ["ZZ"]},
    {"type": "double", "cards": [12]},
    {"type": "bid"},
    {"type": "trump", "suit": "X"},
)


# ---------------------------------------------------------------- helpers


def dealt_from_seat_0(deck: list[str]) -> list[list[str]]:
    """TX.2: ``deck[j]`` goes to seat ``j % 4``; hands in canonical order."""
    return [sorted(deck[seat::4], key=card_order) for seat in SEATS]


def doublable(hand: list[str]) -> list[str]:
    return [code for code in hand if code in DOUBLABLE]


def key(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def members(match: engine.Match) -> list[Any]:
    return [
        match.variant,
        str(match.phase),
        match.dealer,
        match.deal_number,
        match.scores,
        match.team_scores,
        match.result,
    ]


def snapshot(match: engine.Match) -> dict[str, Any]:
    """Everything observable about a match through the contract (compare with ``==``)."""
    return {
        "json": match.to_json(),
        "views": [match.view(viewer) for viewer in VIEWERS],
        "to_act": match.to_act,
        "legal": [match.legal_actions(seat) for seat in SEATS],
        "forced": [match.forced_action(seat) for seat in SEATS],
        "auto": [match.auto_action(seat) for seat in match.to_act],
        "hands": hands_of(match),
        "members": members(match),
    }


def observable(match: engine.Match) -> tuple[Any, ...]:
    """The state and every view (seat views list the seat's legal actions): what must not
    change when an action is refused; cheaper than ``snapshot`` for the bulk survey."""
    views = [match.view(viewer) for viewer in VIEWERS]
    return match.to_json(), views, match.to_act, members(match)


def random_step(match: engine.Match, rng: random.Random) -> tuple[int, Action, list[Event]]:
    """Any seat among ``to_act`` (several in the doubling window) takes a random legal
    action."""
    seat = rng.choice(match.to_act)
    action = rng.choice(match.legal_actions(seat))
    return seat, action, match.apply(seat, action)


def auto_step(match: engine.Match) -> tuple[int, Action, list[Event]]:
    seat = match.to_act[0]
    action = match.auto_action(seat)
    assert action is not None
    return seat, action, match.apply(seat, action)


def play_auto_to_end(match: engine.Match) -> list[list[Event]]:
    log = []
    while match.to_act:
        log.append(auto_step(match)[2])
    return log


def states(seed: int, steps: int = 700, every: int = 5) -> Iterator[engine.Match]:
    """The live match of a seeded random playout: at the start, every ``every`` actions,
    whenever it is not in trick play (contract choice, each answer of a doubling window)
    and at the end; the consumer must not change it."""
    rng = random.Random(seed)
    match = engine.new_match(VARIANT, seed=seed)
    for step in range(steps):
        if step % every == 0 or match.phase != "playing" or not match.to_act:
            yield match
        if not match.to_act:
            return
        random_step(match, rng)
    raise AssertionError(f"seed {seed}: no end after {steps} actions")


def all_states(seeds: tuple[int, ...] = (11, 12), every: int = 5) -> Iterator[engine.Match]:
    for seed in seeds:
        yield from states(seed, every=every)


def revealed(match: engine.Match) -> set[str]:
    """Cards shown as doubled to everyone (public by TX.7 once revealed)."""
    if match.phase == "doubling":
        return set()
    return {entry["card"] for entry in match.view(None)["doubled"] or []}


def leaked_cards(text: str, match: engine.Match, viewer: int | None) -> list[tuple[int, str]]:
    """Cards of hands other than ``viewer``'s found in ``text``, revealed doubles excepted."""
    public = revealed(match)
    return [
        (seat, code)
        for seat in SEATS
        if seat != viewer
        for code in match.hand(seat)
        if code not in public and code in text
    ]


def trix_legal_cards(hand: list[str], rows: dict[str, Any]) -> list[str]:
    """TX.9 from the view: the J of a suit not started, or a card next to a row's end."""
    legal = []
    for code in hand:
        row = rows[code[1]]
        rank = RANKS.index(code[0])
        if row is None:
            if code[0] == "J":
                legal.append(code)
        elif rank in (RANKS.index(row["low"][0]) - 1, RANKS.index(row["high"][0]) + 1):
            legal.append(code)
    return legal


def lowest(codes: list[str]) -> str:
    """Lowest rank, rank ties by suit C < D < H < S (rules.md, TX.13)."""
    return min(codes, key=lambda code: (RANKS.index(code[0]), SUITS.index(code[1])))


def laid_cards(rows: dict[str, Any] | None) -> list[str]:
    cards = []
    for suit, row in (rows or {}).items():
        if row is not None:
            low, high = RANKS.index(row["low"][0]), RANKS.index(row["high"][0])
            cards += [RANKS[rank] + suit for rank in range(low, high + 1)]
    return cards


def contract_choice(match: engine.Match, contract: str) -> list[Event]:
    assert match.phase == "contract"
    (owner,) = match.to_act
    return match.apply(owner, {"type": "contract", "contract": contract})


def open_window(seed: int) -> engine.Match:
    """A match in the doubling window of its first deal (the owner chose Complex)."""
    match = engine.new_match(VARIANT, seed=seed)
    contract_choice(match, "complex")
    assert match.phase == "doubling"
    return match


def candidate_actions() -> list[Action]:
    """Every action shape that could be legal in trix_complex, and a few that never are."""
    actions: list[Action] = [{"type": "play", "card": code} for code in CODES]
    actions += [{"type": "pass"}]
    actions += [{"type": "contract", "contract": c} for c in ("complex", "trix")]
    actions += [
        {"type": "double", "cards": list(subset)}
        for size in range(len(DOUBLABLE) + 1)
        for subset in combinations(DOUBLABLE, size)
    ]
    actions += [{"type": "double", "cards": cards} for cards in (["KS"], ["JH"], ["QH", "AH"])]
    actions += [{"type": "bid", "value": 7}, {"type": "trump", "suit": "S"}]
    return actions


CANDIDATES = candidate_actions()


def find_drawn_seed(limit: int = 1000) -> int:
    """How ``DRAWN_SEED`` was found (not run by the tests): the first seed whose match,
    played by ``auto_action`` for every seat, ends with equal team totals."""
    for seed in range(limit):
        match = engine.new_match(VARIANT, seed=seed)
        play_auto_to_end(match)
        if match.result and match.result["draw"]:
            return seed
    raise LookupError("no drawn match")


# ---------------------------------------------------------------- refusals


def refusal_cases(match: engine.Match) -> list[tuple[str, object, object]]:
    """(kind, seat, action) triples that the contract and rules.md must refuse now."""
    cases: list[tuple[str, object, object]] = []
    hands = hands_of(match)
    if match.phase == "finished":
        for seat in SEATS:
            finished: list[Action] = [
                {"type": "contract", "contract": "complex"},
                {"type": "double", "cards": []},
                {"type": "pass"},
            ]
            finished += [{"type": "play", "card": code} for code in CODES[::9]]
            finished += [{"type": "play", "card": code} for code in hands[seat]]
            cases += [("finished", seat, action) for action in finished]
        return cases
    to_act = match.to_act
    seat = to_act[0]
    legal = match.legal_actions(seat)
    phase = match.phase
    view = match.view(seat)
    cases += [("bad_seat", bad, legal[n % len(legal)]) for n, bad in enumerate(BAD_SEATS)]
    cases += [("garbage", seat, garbage) for garbage in GARBAGE_ACTIONS]
    answered = set()
    if phase == "doubling":
        answered = {s for s in SEATS if doublable(hands[s]) and s not in to_act}
    for other in SEATS:
        if other in to_act:
            continue
        kind = "already_answered" if other in answered else "out_of_turn"
        cases += [(kind, other, action) for action in (legal[0], legal[-1])]
        if phase == "doubling":
            cases.append((kind, other, {"type": "double", "cards": []}))
            if doublable(hands[other]):
                cases.append((kind, other, {"type": "double", "cards": doublable(hands[other])}))
        if phase == "playing":
            cases += [
                ("out_of_turn", other, {"type": "play", "card": c}) for c in hands[other][:3]
            ]
    foreign = [code for other in SEATS if other != seat for code in hands[other]]
    never: list[Action] = [{"type": "bid", "value": 7}, {"type": "trump", "suit": "S"}]
    if phase == "contract":
        cases += [
            ("wrong_phase", seat, action)
            for action in [
                *never,
                {"type": "double", "cards": []},
                *({"type": "double", "cards": [c]} for c in doublable(hands[seat])),
                {"type": "pass"},
                *({"type": "play", "card": c} for c in hands[seat][::4]),
            ]
        ]
    elif phase == "doubling":
        cases += [
            ("wrong_phase", seat, action)
            for action in [
                *never,
                {"type": "contract", "contract": "complex"},
                {"type": "contract", "contract": "trix"},
                {"type": "pass"},
                *({"type": "play", "card": c} for c in hands[seat][::4]),
            ]
        ]
        own = doublable(hands[seat])
        plain = [code for code in hands[seat] if code not in DOUBLABLE]
        others_doublable = [code for code in DOUBLABLE if code not in hands[seat]]
        cases += [("not_doublable", seat, {"type": "double", "cards": [c]}) for c in plain[:4]]
        cases += [
            ("not_doublable", seat, {"type": "double", "cards": [c]}) for c in others_doublable
        ]
        if others_doublable:
            mixed = sorted([*own, others_doublable[0]], key=card_order)
            cases.append(("not_doublable", seat, {"type": "double", "cards": mixed}))
        if plain:
            cases.append(("not_doublable", seat, {"type": "double", "cards": [*own, plain[0]]}))
    else:
        cases += [
            ("wrong_phase", seat, action)
            for action in [
                *never,
                {"type": "contract", "contract": "complex"},
                {"type": "contract", "contract": "trix"},
                {"type": "double", "cards": []},
                *({"type": "double", "cards": [c]} for c in doublable(hands[seat])),
            ]
        ]
        cases += [("not_held", seat, {"type": "play", "card": c}) for c in foreign[::3]]
        if view["contract"] == "complex":
            cases.append(("wrong_phase", seat, {"type": "pass"}))
            played = [entry["card"] for entry in view["trick"] + (view["last_trick"] or [])]
            cases += [("not_held", seat, {"type": "play", "card": c}) for c in played]
            if view["trick"]:
                led = view["trick"][0]["card"][1]
                if any(code[1] == led for code in hands[seat]):
                    cases += [
                        ("revoke", seat, {"type": "play", "card": c})
                        for c in hands[seat]
                        if c[1] != led
                    ]
        else:
            cases += [
                ("not_held", seat, {"type": "play", "card": c}) for c in laid_cards(view["rows"])
            ]
            playable = {a["card"] for a in legal if a["type"] == "play"}
            cases += [
                ("not_playable", seat, {"type": "play", "card": c})
                for c in hands[seat]
                if c not in playable
            ]
            if playable:
                cases.append(("pass_not_allowed", seat, {"type": "pass"}))
    return cases


def assert_refused(
    match: engine.Match, seat: object, action: object, before: dict[str, Any] | None = None
) -> engine.IllegalAction:
    """The action raises IllegalAction with a code and a message; nothing changes."""
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


@functools.cache
def refusal_survey() -> tuple[dict[str, set[str]], list[str]]:
    """Every refusal case on sampled states of two random matches: the codes seen by kind
    and any problem (accepted, another exception, no code or message, state changed)."""
    codes: dict[str, set[str]] = {}
    problems: list[str] = []
    for match in all_states(seeds=(21, 22), every=9):
        before = observable(match)
        for kind, seat, action in refusal_cases(match):
            try:
                match.apply(seat, action)  # type: ignore[arg-type]
            except engine.IllegalAction as error:
                if not (isinstance(error.code, str) and error.code and str(error).strip()):
                    problems.append(f"{kind}: no code or message for {seat!r} {action!r}")
                codes.setdefault(kind, set()).add(error.code)
            except Exception as error:
                problems.append(f"{kind}: {type(error).__name__} for {seat!r} {action!r}")
            else:
                problems.append(f"{kind}: accepted {seat!r} {action!r} in {match.phase}")
                return codes, problems  # the match has moved on: stop here
            if observable(match) != before:
                problems.append(f"{kind}: state changed by {seat!r} {action!r}")
                return codes, problems
    return codes, problems


def check_kind_refused(kind: str) -> None:
    codes, problems = refusal_survey()
    assert not [p for p in problems if p.startswith(kind + ":")]
    assert codes.get(kind), f"no {kind} case was reached"


# ---------------------------------------------------------------- event secrecy


def check_event_secrecy(
    before_hands: list[list[str]],
    public_before: set[str],
    match: engine.Match,
    events: list[Event],
) -> None:
    """No public event carries a card that is in a hand (revealed doubles excepted);
    an event naming a hidden card is private (``to``) to the seat holding it."""
    hidden = {code for hand in before_hands for code in hand}
    allowed = set(public_before)
    after_hands = hands_of(match)
    for event in events:
        if event["type"] == "deal":
            hidden = {code for hand in after_hands for code in hand}
            allowed = set()
        if event["type"] == "doubles_revealed":
            allowed |= {entry["card"] for entry in event["doubled"]}
        if event["type"] == "play":
            hidden.discard(event.get("card"))
        text = json.dumps(event)
        carried = {code for code in hidden if code in text} - allowed
        if "to" in event:
            to = event["to"]
            assert to in SEATS and type(to) is int, event
            own = set(before_hands[to]) | set(after_hands[to])
            assert carried <= own, event
        else:
            assert not carried, event


def check_finished(match: engine.Match, last_events: list[Event]) -> None:
    result = match.result
    assert isinstance(result, dict) and set(result) == {"winners", "draw"}
    assert isinstance(result["draw"], bool) and isinstance(result["winners"], list)
    assert match.phase == "finished" and match.to_act == []
    assert match.deal_number == 8
    (over,) = [event for event in last_events if event["type"] == "match_over"]
    assert result in over.values()
    assert "hand_scored" in [event["type"] for event in last_events]
    for viewer in VIEWERS:
        view = match.view(viewer)
        assert view["result"] == result and view["phase"] == "finished" and view["turn"] == []
        assert json_ready(view)
    for seat in SEATS:
        assert match.legal_actions(seat) == []
        assert match.forced_action(seat) is None
    before = snapshot(match)
    for _, who, action in refusal_cases(match):
        assert_refused(match, who, action, before)
    assert snapshot(restore(match)) == before


# ---------------------------------------------------------------- VARIANTS


def test_variants_registry_describes_trix_complex() -> None:
    info = engine.VARIANTS[VARIANT]
    assert info.id == VARIANT
    assert info.name_ar == "تركس كومبلكس شراكة"
    assert isinstance(info.name_en, str) and "trix" in info.name_en.lower()
    assert info.teams is True
    assert isinstance(info.options, dict)
    assert "target" not in info.options


def test_variant_default_options_are_accepted_by_new_match() -> None:
    match = engine.new_match(VARIANT, seed=3, options=dict(engine.VARIANTS[VARIANT].options))
    assert match.variant == VARIANT and match.dealer is None


# ---------------------------------------------------------------- new_match and options


def test_new_match_deals_thirteen_cards_each_and_awaits_the_owners_contract() -> None:
    for seed in range(12):
        match = engine.new_match(VARIANT, seed=seed)
        assert match.variant == VARIANT
        assert match.phase == "contract"
        assert match.deal_number == 1
        assert match.dealer is None
        hands = hands_of(match)
        assert [len(hand) for hand in hands] == [13, 13, 13, 13]
        assert sorted(code for hand in hands for code in hand) == sorted(CODES)
        owner = next(seat for seat in SEATS if "7H" in hands[seat])  # TX.3
        assert match.to_act == [owner]
        assert match.view(None)["owner"] == owner
        assert match.scores == [0, 0, 0, 0]
        assert match.team_scores == [0, 0]
        assert match.result is None


def test_options_may_be_omitted_none_or_empty() -> None:
    plain = engine.new_match(VARIANT, seed=5)
    empty: tuple[dict[str, Any] | None, ...] = (None, {})
    for options in empty:
        assert snapshot(engine.new_match(VARIANT, seed=5, options=options)) == snapshot(plain)


@pytest.mark.parametrize("first_dealer", SEATS)
def test_first_dealer_option_is_accepted_and_changes_nothing_in_play(first_dealer: int) -> None:
    plain = engine.new_match(VARIANT, seed=6)
    match = engine.new_match(VARIANT, seed=6, options={"first_dealer": first_dealer})
    assert match.dealer is None

    def comparable(m: engine.Match) -> list[Any]:
        views = [{k: v for k, v in m.view(s).items() if k != "options"} for s in VIEWERS]
        legal = [m.legal_actions(seat) for seat in SEATS]
        return [members(m), m.to_act, hands_of(m), legal, views]

    assert comparable(match) == comparable(plain)
    while plain.to_act:
        assert auto_step(match) == auto_step(plain)
        assert comparable(match) == comparable(plain)
    assert match.result == plain.result


@pytest.mark.parametrize("first_dealer", (0, 2))
def test_first_dealer_option_leaves_every_view_identical(first_dealer: int) -> None:
    plain = engine.new_match(VARIANT, seed=6)
    match = engine.new_match(VARIANT, seed=6, options={"first_dealer": first_dealer})
    for viewer in VIEWERS:
        assert match.view(viewer) == plain.view(viewer)


@pytest.mark.parametrize("bad", [4, -1, 5, "0", "1", True, False, 1.0, 1.5, [0], {"seat": 0}])
def test_bad_first_dealer_raises_value_error(bad: object) -> None:
    with pytest.raises(ValueError):
        engine.new_match(VARIANT, seed=5, options={"first_dealer": bad})


@pytest.mark.parametrize("target", [31, 51, 61, None])
def test_target_option_raises_value_error(target: object) -> None:
    with pytest.raises(ValueError):
        engine.new_match(VARIANT, seed=5, options={"target": target})
    with pytest.raises(ValueError):
        engine.new_match(VARIANT, seed=5, options={"first_dealer": 0, "target": target})


@pytest.mark.parametrize(
    "options",
    [{"no_such_option": 1}, {"First_dealer": 0}, {"trump": "S"}, {"dealer": 0}, {"deals": 8}],
)
def test_unknown_option_key_raises_value_error(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        engine.new_match(VARIANT, seed=5, options=options)


# ---------------------------------------------------------------- decks


@pytest.mark.parametrize("kind", sorted(BAD_DECKS))
def test_deck_that_is_not_52_distinct_valid_codes_raises_value_error(kind: str) -> None:
    with pytest.raises(ValueError):
        engine.new_match(VARIANT, seed=1, decks=[BAD_DECKS[kind]])
    with pytest.raises(ValueError):
        engine.new_match(VARIANT, seed=1, decks=[shuffled_deck(1), BAD_DECKS[kind]])
    decks = [shuffled_deck(d) for d in range(7)]
    with pytest.raises(ValueError):
        engine.new_match(VARIANT, seed=1, decks=[*decks, BAD_DECKS[kind]])


def test_stacked_decks_serve_each_of_the_eight_deals_dealt_from_seat_0() -> None:
    decks = [shuffled_deck(300 + d) for d in range(8)]
    match = engine.new_match(VARIANT, seed=9, decks=decks)
    assert hands_of(match) == dealt_from_seat_0(decks[0])
    assert match.to_act == [next(s for s in SEATS if "7H" in decks[0][s::4])]
    rng = random.Random(9)
    seen = [1]
    while match.to_act:
        number = match.deal_number
        _, _, events = random_step(match, rng)
        if match.deal_number != number:
            assert "deal" in [event["type"] for event in events]
            assert hands_of(match) == dealt_from_seat_0(decks[match.deal_number - 1])
            seen.append(match.deal_number)
    assert seen == list(range(1, 9))


def test_decks_serve_the_first_deals_then_seeded_shuffles() -> None:
    decks = [shuffled_deck(400), shuffled_deck(401)]
    match = engine.new_match(VARIANT, seed=8, decks=decks)
    twin = engine.new_match(VARIANT, seed=8, decks=decks)
    assert hands_of(match) == dealt_from_seat_0(decks[0])
    while match.deal_number == 1:
        assert auto_step(match) == auto_step(twin)
    assert hands_of(match) == dealt_from_seat_0(decks[1])
    while match.deal_number == 2:
        assert auto_step(match) == auto_step(twin)
    third = hands_of(match)
    assert third not in (dealt_from_seat_0(decks[0]), dealt_from_seat_0(decks[1]))
    assert sorted(c for hand in third for c in hand) == sorted(CODES)
    assert all(len(hand) == 13 for hand in third)
    assert third == hands_of(twin)


def test_deck_codes_accept_lower_case_and_ten_spelling_and_output_is_canonical() -> None:
    deck = shuffled_deck(7)
    rng = random.Random(7)
    spelled = [rng.choice(spellings(code)) for code in deck]
    assert any(code.startswith("10") for code in spelled)
    assert any(code != code.upper() for code in spelled)
    plain = engine.new_match(VARIANT, seed=3, decks=[deck])
    match = engine.new_match(VARIANT, seed=3, decks=[spelled])
    assert hands_of(match) == hands_of(plain) == dealt_from_seat_0(deck)
    for viewer in VIEWERS:
        assert match.view(viewer) == plain.view(viewer)
    assert all(code in CODES for hand in hands_of(match) for code in hand)


# ---------------------------------------------------------------- determinism


def test_same_seed_and_actions_reproduce_the_match_exactly() -> None:
    first = engine.new_match(VARIANT, seed=77)
    second = engine.new_match(VARIANT, seed=77)
    assert snapshot(first) == snapshot(second)
    rng_a, rng_b = random.Random(5), random.Random(5)
    while first.to_act:
        assert random_step(first, rng_a) == random_step(second, rng_b)
        assert first.to_json() == second.to_json()
    assert snapshot(first) == snapshot(second)


def test_seed_drives_every_deal() -> None:
    deals = {json.dumps(hands_of(engine.new_match(VARIANT, seed=s))) for s in range(8)}
    assert len(deals) == 8
    match = engine.new_match(VARIANT, seed=1)
    seen = [json.dumps(hands_of(match))]
    while match.to_act:
        number = match.deal_number
        auto_step(match)
        if match.deal_number != number:
            seen.append(json.dumps(hands_of(match)))
    assert len(seen) == len(set(seen)) == 8


def test_global_random_state_does_not_affect_the_match() -> None:
    texts = []
    for global_seed in (1, 2):
        random.seed(global_seed)
        match = engine.new_match(VARIANT, seed=19)
        for _ in range(120):
            random.random()
            auto_step(match)
        texts.append(snapshot(match))
    assert texts[0] == texts[1]


# ---------------------------------------------------------------- phase, to_act, members


def test_phases_are_contract_doubling_playing_and_finished() -> None:
    seen = set()
    for match in all_states(every=1):
        assert isinstance(match.phase, str)
        assert match.phase in TRIX_PHASES
        assert str(match.phase) == match.phase
        seen.add(str(match.phase))
    assert seen == TRIX_PHASES


def test_dealer_is_none_in_every_state_and_view() -> None:
    for match in all_states(every=7):
        assert match.dealer is None
        for viewer in VIEWERS:
            assert match.view(viewer)["dealer"] is None


def test_deal_number_runs_from_1_to_8_and_rises_with_each_deal_event() -> None:
    for seed in (41, 42):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        numbers = [match.deal_number]
        while match.to_act:
            number = match.deal_number
            _, _, events = random_step(match, rng)
            deals = [event for event in events if event["type"] == "deal"]
            assert len(deals) <= 1
            assert match.deal_number == number + len(deals)
            if deals:
                numbers.append(match.deal_number)
                assert match.phase in ("contract", "doubling", "playing")
        assert numbers == list(range(1, 9))


def test_one_seat_acts_outside_the_doubling_window_and_none_when_finished() -> None:
    for match in all_states(every=3):
        to_act = match.to_act
        assert isinstance(to_act, list)
        if match.phase == "finished":
            assert to_act == []
        elif match.phase == "doubling":
            assert 1 <= len(to_act) <= 4 and len(set(to_act)) == len(to_act)
            assert set(to_act) <= set(SEATS)
        else:
            assert len(to_act) == 1 and to_act[0] in SEATS
            assert match.hand(to_act[0])  # TX.9: an empty hand is skipped


def test_doubling_window_awaits_exactly_the_holders_of_kh_and_queens_yet_to_answer() -> None:
    windows = 0
    for seed in range(30):
        match = open_window(seed)
        rng = random.Random(seed)
        holders = {seat for seat in SEATS if doublable(match.hand(seat))}
        answered: set[int] = set()
        while match.phase == "doubling":
            assert set(match.to_act) == holders - answered
            assert len(match.to_act) == len(holders - answered)
            seat = rng.choice(match.to_act)
            match.apply(seat, rng.choice(match.legal_actions(seat)))
            answered.add(seat)
        assert answered == holders
        assert match.phase == "playing" and match.to_act == [match.view(None)["owner"]]
        windows += 1
    assert windows == 30


def test_scores_are_four_ints_and_team_scores_are_partner_sums() -> None:
    for match in all_states(every=11):
        scores = match.scores
        assert isinstance(scores, list) and len(scores) == 4
        assert all(type(score) is int for score in scores)
        assert match.team_scores == [scores[0] + scores[2], scores[1] + scores[3]]
        assert (match.result is None) == (match.phase != "finished")


# ---------------------------------------------------------------- legal_actions, apply


def test_legal_actions_are_empty_for_seats_not_to_act() -> None:
    for match in all_states():
        for seat in SEATS:
            if seat in match.to_act:
                assert match.legal_actions(seat)
            else:
                assert match.legal_actions(seat) == []


def test_legal_actions_of_values_that_are_not_seats_are_empty() -> None:
    for match in all_states(every=9):
        for bad in NON_SEATS:
            assert match.legal_actions(bad) == []  # type: ignore[arg-type]


def test_legal_actions_of_seat_minus_2_are_empty_in_the_doubling_window() -> None:
    match = open_window(1)
    assert match.legal_actions(-2) == []
    assert match.forced_action(-2) is None


def test_legal_actions_of_seat_minus_1_are_empty_when_finished() -> None:
    match = engine.new_match(VARIANT, seed=1)
    play_auto_to_end(match)
    assert match.phase == "finished"
    assert match.legal_actions(-1) == []
    assert match.forced_action(-1) is None


def test_legal_actions_are_json_ready_action_dicts_without_duplicates() -> None:
    for match in all_states():
        for seat in match.to_act:
            legal = match.legal_actions(seat)
            assert json_ready(legal)
            assert len({key(action) for action in legal}) == len(legal)
            for action in legal:
                assert action["type"] in {"contract", "double", "pass", "play"}
                if action["type"] == "play":
                    assert action["card"] in match.hand(seat)
                if action["type"] == "double":
                    assert set(action["cards"]) <= set(doublable(match.hand(seat)))
                if action["type"] == "contract":
                    assert action["contract"] in ("complex", "trix")


def test_legal_actions_are_exactly_the_actions_apply_accepts_for_every_seat() -> None:
    checked = set()
    for match in all_states(seeds=(51, 52), every=13):
        text = match.to_json()
        for seat in SEATS:
            legal = {key(action) for action in match.legal_actions(seat)}
            accepted = set()
            probe = engine.Match.from_json(text)
            for action in CANDIDATES:
                try:
                    probe.apply(seat, action)
                except engine.IllegalAction:
                    continue
                accepted.add(key(action))
                probe = engine.Match.from_json(text)
            assert accepted == legal, (match.phase, seat)
        checked.add(f"{match.phase}/{match.view(None)['contract']}")
    assert {"contract/None", "doubling/complex", "playing/complex", "playing/trix"} <= checked
    assert any(name.startswith("finished/") for name in checked)


def test_doubling_legal_actions_list_every_subset_of_the_seats_kh_and_queens() -> None:
    sizes = set()
    for seed in range(40):
        match = open_window(seed)
        for seat in SEATS:
            own = doublable(match.hand(seat))
            legal = match.legal_actions(seat)
            if not own:
                assert seat not in match.to_act and legal == []
                continue
            assert seat in match.to_act
            assert all(set(action) == {"type", "cards"} for action in legal)
            assert all(action["type"] == "double" for action in legal)
            subsets = [frozenset(action["cards"]) for action in legal]
            assert all(
                len(s) == len(action["cards"]) for s, action in zip(subsets, legal, strict=True)
            )
            expected = {frozenset(c) for n in range(len(own) + 1) for c in combinations(own, n)}
            assert set(subsets) == expected and len(subsets) == 2 ** len(own)
            assert frozenset() in subsets
            sizes.add(len(own))
    assert {1, 2, 3} <= sizes


def test_apply_returns_a_list_of_json_ready_event_dicts_with_a_type() -> None:
    for seed in (61, 62):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        while match.to_act:
            _, _, events = random_step(match, rng)
            assert isinstance(events, list) and events
            for event in events:
                assert isinstance(event, dict)
                assert isinstance(event.get("type"), str) and event["type"]
                assert json_ready(event)


# ---------------------------------------------------------------- refused actions


def test_illegal_action_is_a_value_error_subclass() -> None:
    assert issubclass(engine.IllegalAction, ValueError)


def test_wrong_seat_values_are_refused_and_change_nothing() -> None:
    check_kind_refused("bad_seat")


def test_out_of_turn_actions_are_refused_and_change_nothing() -> None:
    check_kind_refused("out_of_turn")


def test_actions_of_the_wrong_phase_are_refused_and_change_nothing() -> None:
    check_kind_refused("wrong_phase")


def test_card_not_held_is_refused_and_changes_nothing() -> None:
    check_kind_refused("not_held")


def test_revoke_in_complex_is_refused_and_changes_nothing() -> None:
    check_kind_refused("revoke")


def test_unplayable_card_in_trix_is_refused_and_changes_nothing() -> None:
    check_kind_refused("not_playable")


def test_pass_while_holding_a_playable_card_is_refused_and_changes_nothing() -> None:
    check_kind_refused("pass_not_allowed")


def test_doubling_a_card_not_held_or_not_doublable_is_refused_and_changes_nothing() -> None:
    check_kind_refused("not_doublable")


def test_answering_the_doubling_window_twice_is_refused_and_changes_nothing() -> None:
    check_kind_refused("already_answered")


def test_malformed_actions_are_refused_and_change_nothing() -> None:
    check_kind_refused("garbage")


def test_every_action_after_the_end_is_refused_and_changes_nothing() -> None:
    check_kind_refused("finished")


def test_refusal_survey_found_no_problem() -> None:
    _, problems = refusal_survey()
    assert problems == []


def test_each_kind_of_refusal_has_one_stable_code() -> None:
    kinds = {
        "bad_seat",
        "out_of_turn",
        "not_held",
        "revoke",
        "not_playable",
        "pass_not_allowed",
        "not_doublable",
        "already_answered",
        "finished",
    }
    codes, _ = refusal_survey()
    for kind in kinds:
        assert len(codes[kind]) == 1, (kind, codes[kind])
    assert len({code for kind in kinds for code in codes[kind]}) == len(kinds)


def test_refusal_code_does_not_depend_on_the_match_instance() -> None:
    for match in all_states(seeds=(15,), every=23):
        twin = restore(match)
        before, twin_before = snapshot(match), snapshot(twin)
        for _, seat, action in refusal_cases(match)[::7]:
            first = assert_refused(match, seat, action, before)
            again = assert_refused(match, seat, action, before)
            other = assert_refused(twin, seat, action, twin_before)
            assert first.code == again.code == other.code


def test_answering_twice_is_refused_for_a_seat_whose_answer_did_not_close_the_window() -> None:
    tried = 0
    for seed in range(20):
        match = open_window(seed)
        if len(match.to_act) < 2:
            continue
        seat = match.to_act[0]
        options = match.legal_actions(seat)
        match.apply(seat, options[-1])
        assert seat not in match.to_act and match.legal_actions(seat) == []
        before = snapshot(match)
        for action in options:
            error = assert_refused(match, seat, action, before)
            assert error.code != "bad_action"
            tried += 1
    assert tried >= 20


# ---------------------------------------------------------------- auto_action, forced_action


def test_auto_action_is_a_legal_action_of_every_seat_to_act() -> None:
    for match in all_states():
        for seat in match.to_act:
            action = match.auto_action(seat)
            assert action in match.legal_actions(seat)
            assert json_ready(action)
            assert isinstance(restore(match).apply(seat, action), list)


def test_auto_action_follows_the_tx13_timeouts() -> None:
    phases = set()
    for match in all_states(seeds=(71, 72), every=2):
        for seat in match.to_act:
            view = match.view(seat)
            action = match.auto_action(seat)
            if match.phase == "contract":
                expected: Action = {"type": "contract", "contract": "complex"}
            elif match.phase == "doubling":
                expected = {"type": "double", "cards": []}
            elif view["contract"] == "complex":
                hand, trick = view["hand"], view["trick"]
                led = trick[0]["card"][1] if trick else None
                legal = [code for code in hand if code[1] == led] or hand
                expected = {"type": "play", "card": lowest(legal)}
            else:
                legal = trix_legal_cards(view["hand"], view["rows"])
                expected = {"type": "play", "card": lowest(legal)} if legal else {"type": "pass"}
            assert action == expected, (match.phase, view["contract"], seat)
            phases.add(f"{match.phase}/{view['contract']}/{action['type']}")
    assert phases >= {
        "contract/None/contract",
        "doubling/complex/double",
        "playing/complex/play",
        "playing/trix/play",
        "playing/trix/pass",
    }


def test_auto_action_of_every_seat_in_the_window_closes_it_with_no_doubles() -> None:
    for seed in range(10):
        match = open_window(seed)
        events: list[Event] = []
        for seat in list(match.to_act):
            action = match.auto_action(seat)
            assert action == {"type": "double", "cards": []}
            events += match.apply(seat, action)
        (reveal,) = [event for event in events if event["type"] == "doubles_revealed"]
        assert reveal["doubled"] == []
        assert match.phase == "playing"
        assert all(match.view(viewer)["doubled"] == [] for viewer in VIEWERS)


def test_forced_action_is_the_single_legal_action_or_none() -> None:
    forced = set()
    for match in all_states(every=2):
        for seat in SEATS:
            legal = match.legal_actions(seat)
            action = match.forced_action(seat)
            if len(legal) == 1:
                assert action == legal[0]
                forced.add(action["type"])
            else:
                assert action is None
    assert forced == {"play", "pass"}


# ---------------------------------------------------------------- hand and views


def test_hand_codes_are_canonical_and_sorted_by_suit_then_rank() -> None:
    for match in all_states():
        for seat in SEATS:
            hand = match.hand(seat)
            assert all(code in CODES for code in hand)
            assert hand == sorted(set(hand), key=card_order)
            assert match.view(seat)["hand"] == hand


def test_view_has_every_contract_key_for_seats_and_spectator() -> None:
    for match in all_states():
        for viewer in VIEWERS:
            view = match.view(viewer)
            assert isinstance(view, dict)
            assert not VIEW_KEYS - set(view), (viewer, VIEW_KEYS - set(view))


def test_views_are_json_serialisable() -> None:
    for match in all_states():
        for viewer in VIEWERS:
            assert json_ready(match.view(viewer))


def test_view_values_agree_with_the_match() -> None:
    for match in all_states():
        hands = hands_of(match)
        phase = match.phase
        for viewer in VIEWERS:
            view = match.view(viewer)
            assert view["variant"] == match.variant == VARIANT
            assert view["phase"] == phase
            assert view["deal_number"] == match.deal_number
            assert view["dealer"] is None
            if phase == "doubling":
                mine = viewer is not None and viewer in match.to_act
                assert view["turn"] == ([viewer] if mine else [])
            else:
                assert view["turn"] == match.to_act
            assert view["hand"] == (None if viewer is None else hands[viewer])
            assert view["hand_sizes"] == [len(hand) for hand in hands]
            assert view["scores"] == match.scores
            assert view["team_scores"] == match.team_scores
            assert view["result"] == match.result
            assert view["trump"] is None and view["shown_card"] is None
            assert view["bids"] == [None, None, None, None]
            assert view["owner"] in SEATS
            contract = view["contract"]
            if phase == "contract":
                assert contract is None
            elif phase == "doubling":
                assert contract == "complex"
            else:
                assert contract in ("complex", "trix")
            assert isinstance(view["trick"], list) and len(view["trick"]) < 4
            for entry in view["trick"] + (view["last_trick"] or []):
                assert set(entry) == {"seat", "card"}
                assert entry["seat"] in SEATS and entry["card"] in CODES
            assert view["last_trick"] is None or len(view["last_trick"]) == 4
            tricks_won = view["tricks_won"]
            assert len(tricks_won) == 4 and all(type(n) is int for n in tricks_won)
            assert isinstance(view["doubled"], list)
            for entry in view["doubled"]:
                assert set(entry) == {"card", "seat"}
                assert entry["card"] in DOUBLABLE and entry["seat"] in SEATS
            assert isinstance(view["finished_order"], list)
            if contract == "trix":
                assert view["trick"] == [] and view["last_trick"] is None
                assert isinstance(view["rows"], dict) and set(view["rows"]) == set(SUITS)
                for suit, row in view["rows"].items():
                    assert row is None or (
                        set(row) == {"low", "high"}
                        and row["low"][1] == row["high"][1] == suit
                        and card_order(row["low"]) <= card_order(row["high"])
                    )
                assert view["doubled"] == []
            else:
                assert view["rows"] is None or all(r is None for r in view["rows"].values())
                played = 4 * sum(tricks_won) + len(view["trick"])
                if phase != "finished":
                    assert played + sum(len(hand) for hand in hands) == 52


def test_rows_show_the_lowest_and_highest_card_laid_in_each_suit_during_trix() -> None:
    checked = 0
    for seed in (131, 132, 133):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        laid: dict[str, list[str]] = {suit: [] for suit in SUITS}
        while match.to_act:
            number = match.deal_number
            _, action, _ = random_step(match, rng)
            if match.deal_number != number:
                laid = {suit: [] for suit in SUITS}
                continue
            if match.view(None)["contract"] != "trix":
                continue
            if action["type"] == "play":
                laid[action["card"][1]].append(action["card"])
            expected = {
                suit: {"low": min(cards, key=card_order), "high": max(cards, key=card_order)}
                if cards
                else None
                for suit, cards in laid.items()
            }
            for viewer in VIEWERS:
                assert match.view(viewer)["rows"] == expected
            checked += 1
    assert checked > 100


def test_finished_order_lists_the_seats_in_the_order_they_emptied_their_hands_in_trix() -> None:
    deals = 0
    for seed in (141, 142, 143):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        emptied: list[int] = []
        while match.to_act:
            number = match.deal_number
            random_step(match, rng)
            if match.deal_number != number or match.phase == "finished":
                deals += bool(emptied)
                emptied = []
                continue
            if match.view(None)["contract"] != "trix":
                continue
            for seat in SEATS:
                if not match.hand(seat) and seat not in emptied:
                    emptied.append(seat)
            for viewer in VIEWERS:
                assert match.view(viewer)["finished_order"] == emptied
    assert deals >= 6


# ---------------------------------------------------------------- doubling window secrecy


def answer_window(
    match: engine.Match, rng: random.Random
) -> Iterator[tuple[int, list[str], list[Event]]]:
    """Answer the open window seat by seat in a random order with random subsets."""
    while match.phase == "doubling":
        seat = rng.choice(match.to_act)
        action = rng.choice(match.legal_actions(seat))
        events = match.apply(seat, action)
        yield seat, action["cards"], events


def test_in_the_window_spectator_turn_is_empty_and_a_seat_sees_itself_until_it_answers() -> None:
    for seed in range(15):
        match = open_window(seed)
        rng = random.Random(seed)
        pending = {seat for seat in SEATS if doublable(match.hand(seat))}
        while match.phase == "doubling":
            assert match.view(None)["turn"] == []
            for seat in SEATS:
                assert match.view(seat)["turn"] == ([seat] if seat in pending else [])
            seat, _, _ = next(answer_window(match, rng))
            pending.discard(seat)
        assert not pending
        assert all(match.view(viewer)["turn"] == match.to_act for viewer in VIEWERS)


def test_doubled_never_shows_another_seats_answer_before_the_reveal() -> None:
    for seed in range(25):
        match = open_window(seed)
        rng = random.Random(seed + 1000)
        answers: dict[int, list[str]] = {}
        for seat, cards, _ in answer_window(match, rng):
            answers[seat] = cards
            if match.phase != "doubling":
                break
            assert match.view(None)["doubled"] == []
            for viewer in SEATS:
                shown = {(e["card"], e["seat"]) for e in match.view(viewer)["doubled"]}
                assert shown <= {(card, viewer) for card in answers.get(viewer, [])}


def test_spectator_view_is_byte_identical_across_answers_until_the_reveal() -> None:
    windows = 0
    for seed in range(25):
        match = open_window(seed)
        rng = random.Random(seed + 2000)
        public = json.dumps(match.view(None), sort_keys=True)
        for _, _, _ in answer_window(match, rng):
            if match.phase != "doubling":
                break
            assert json.dumps(match.view(None), sort_keys=True) == public
            windows += 1
    assert windows >= 15


def test_an_answer_changes_no_other_seats_view_until_the_reveal() -> None:
    for seed in range(25):
        match = open_window(seed)
        rng = random.Random(seed + 3000)
        while match.phase == "doubling":
            seat = rng.choice(match.to_act)
            before = {v: json.dumps(match.view(v), sort_keys=True) for v in SEATS if v != seat}
            match.apply(seat, rng.choice(match.legal_actions(seat)))
            if match.phase != "doubling":
                break
            for viewer, text in before.items():
                assert json.dumps(match.view(viewer), sort_keys=True) == text


def test_the_reveal_shows_every_answer_to_everyone_at_once() -> None:
    doubles = 0
    for seed in range(25):
        match = open_window(seed)
        rng = random.Random(seed + 4000)
        answers: dict[int, list[str]] = {}
        last: list[Event] = []
        for seat, cards, events in answer_window(match, rng):
            answers[seat] = cards
            last = events
        expected = {(card, seat) for seat, cards in answers.items() for card in cards}
        (reveal,) = [event for event in last if event["type"] == "doubles_revealed"]
        assert "to" not in reveal
        assert {(e["card"], e["seat"]) for e in reveal["doubled"]} == expected
        for viewer in VIEWERS:
            doubled = match.view(viewer)["doubled"]
            assert {(e["card"], e["seat"]) for e in doubled} == expected
            assert len(doubled) == len(expected)
        doubles += len(expected)
    assert doubles > 10


def test_answers_before_the_last_produce_only_events_private_to_the_answering_seat() -> None:
    for seed in range(25):
        match = open_window(seed)
        rng = random.Random(seed + 5000)
        for seat, _, events in answer_window(match, rng):
            if match.phase == "doubling":
                assert events and all(event.get("to") == seat for event in events)
            else:
                public = [event for event in events if "to" not in event]
                assert [event["type"] for event in public] == ["doubles_revealed"]


def test_public_events_opening_the_window_do_not_depend_on_who_is_asked() -> None:
    public_by_owner: dict[int, set[str]] = {}
    asked_by_owner: dict[int, set[str]] = {}
    for seed in range(40):
        match = engine.new_match(VARIANT, seed=seed)
        owner = match.to_act[0]
        events = contract_choice(match, "complex")
        opening = [event for event in events if "to" not in event]
        public_by_owner.setdefault(owner, set()).add(key(opening))
        asked_by_owner.setdefault(owner, set()).add(key(sorted(match.to_act)))
    assert any(len(asked) > 1 for asked in asked_by_owner.values())
    for owner, texts in public_by_owner.items():
        assert len(texts) == 1, owner


def test_spectator_view_names_no_card_in_a_hand_except_revealed_doubles() -> None:
    checked = 0
    for match in all_states(seeds=(81, 82), every=1):
        assert leaked_cards(json.dumps(match.view(None)), match, None) == []
        checked += 1
    assert checked > 800


def test_seat_view_names_no_card_of_another_hand_except_revealed_doubles() -> None:
    for match in all_states(seeds=(83,), every=2):
        for seat in SEATS:
            assert leaked_cards(json.dumps(match.view(seat)), match, seat) == []


def test_revealed_doubles_are_the_only_hand_cards_a_spectator_sees() -> None:
    seen = 0
    for seed in range(10):
        match = open_window(seed)
        for seat in list(match.to_act):
            match.apply(seat, {"type": "double", "cards": doublable(match.hand(seat))})
        text = json.dumps(match.view(None))
        held = {code for seat in SEATS for code in match.hand(seat)}
        for code in DOUBLABLE:
            assert (code in text) == (code in held)
            seen += code in text
    assert seen == 50


# ---------------------------------------------------------------- tricks


def test_fourth_card_of_a_complex_trick_empties_trick_and_fills_last_trick() -> None:
    completed = 0
    for seed in (91, 92):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        played: list[dict[str, Any]] = []
        while match.to_act:
            deal = match.deal_number
            in_complex = match.view(None)["contract"] == "complex"
            seat, action, events = random_step(match, rng)
            if action["type"] != "play" or not in_complex:
                continue
            played.append({"seat": seat, "card": action["card"]})
            if len(played) < 4:
                for viewer in VIEWERS:
                    assert match.view(viewer)["trick"] == played
                continue
            (won,) = [event for event in events if event["type"] == "trick_won"]
            assert won["cards"] == [entry["card"] for entry in played]
            assert won["seat"] in SEATS and "points" in won
            if match.deal_number == deal and match.phase != "finished":
                completed += 1
                for viewer in VIEWERS:
                    view = match.view(viewer)
                    assert view["trick"] == []
                    assert view["last_trick"] == played
                assert match.to_act == [won["seat"]]
            played = []
    assert completed >= 24


def test_trick_won_events_carry_seat_cards_and_points_and_tricks_won_counts_them() -> None:
    tricks = 0
    for seed in (93, 94):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        deal_points = [0, 0, 0, 0]
        won = [0, 0, 0, 0]
        while match.to_act:
            contract, deal = match.view(None)["contract"], match.deal_number
            _, _, events = random_step(match, rng)
            for event in events:
                if event["type"] == "trick_won":
                    assert contract == "complex"
                    assert event["seat"] in SEATS
                    assert len(event["cards"]) == 4 and set(event["cards"]) <= set(CODES)
                    points = event["points"]
                    assert isinstance(points, list) and len(points) == 4
                    assert all(type(p) is int for p in points)
                    deal_points = [a + b for a, b in zip(deal_points, points, strict=True)]
                    won[event["seat"]] += 1
                    tricks += 1
                if event["type"] == "hand_scored":
                    if contract == "complex":
                        assert sum(deal_points) == -500  # TX.6, TX.8
                        assert deal_points in event.values()
                    deal_points, won = [0, 0, 0, 0], [0, 0, 0, 0]
            if match.deal_number == deal and match.phase != "finished":
                for viewer in VIEWERS:
                    assert match.view(viewer)["tricks_won"] == won
    assert tricks == 2 * 4 * 13


# ---------------------------------------------------------------- round trip


def test_round_trip_restores_identical_views_and_behaviour_at_every_phase() -> None:
    for seed in (101, 102):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        copies: list[engine.Match] = []
        phases = set()
        answered_in_window = False
        step = 0
        while True:
            mid_window = match.phase == "doubling" and answered_in_window
            if step % 41 == 0 or mid_window or match.phase == "contract":
                text = match.to_json()
                assert isinstance(text, str)
                copy = engine.Match.from_json(text)
                assert json.loads(copy.to_json()) == json.loads(text)
                copies.append(copy)
                phases.add(f"{match.phase}{'/answered' if mid_window else ''}")
            if step % 9 == 0 or match.phase != "playing":
                expected = snapshot(match)
                for copy in copies:
                    assert snapshot(copy) == expected
            if step % 17 == 0 and match.to_act:
                for _, seat, action in refusal_cases(match)[::15]:
                    code = assert_refused(match, seat, action).code
                    for copy in copies[-3:]:
                        assert assert_refused(copy, seat, action).code == code
            if not match.to_act:
                break
            seat, action, events = random_step(match, rng)
            answered_in_window = match.phase == "doubling"
            for copy in copies:
                assert copy.apply(seat, action) == events
            step += 1
        assert phases >= {"contract", "doubling/answered", "playing"}
        copy = restore(match)
        assert snapshot(copy) == snapshot(match)
        for copy in copies:
            assert snapshot(copy) == snapshot(match)


def test_round_trip_in_the_middle_of_a_doubling_window_keeps_the_secret_answers() -> None:
    tried = 0
    for seed in range(30):
        match = open_window(seed)
        if len(match.to_act) < 2:
            continue
        rng = random.Random(seed)
        first = rng.choice(match.to_act)
        match.apply(first, rng.choice(match.legal_actions(first)))
        copy = engine.Match.from_json(match.to_json())
        assert snapshot(copy) == snapshot(match)
        for viewer in VIEWERS:
            assert copy.view(viewer) == match.view(viewer)
        assert copy.to_act == match.to_act
        while match.phase == "doubling":
            seat = rng.choice(match.to_act)
            action = rng.choice(match.legal_actions(seat))
            assert copy.apply(seat, action) == match.apply(seat, action)
            assert snapshot(copy) == snapshot(match)
        tried += 1
    assert tried >= 10


def test_round_trip_of_a_fresh_match_with_decks_and_options() -> None:
    decks = [shuffled_deck(1), shuffled_deck(2), shuffled_deck(3)]
    match = engine.new_match(VARIANT, seed=4, options={"first_dealer": 2}, decks=decks)
    copy = restore(match)
    assert snapshot(copy) == snapshot(match)
    while match.to_act:
        assert auto_step(copy) == auto_step(match)
    assert snapshot(copy) == snapshot(match)


# ---------------------------------------------------------------- events


def test_events_never_show_the_public_a_card_held_in_a_hand() -> None:
    for seed in (111, 112, 113):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        while match.to_act:
            before, public = hands_of(match), revealed(match)
            _, _, events = random_step(match, rng)
            check_event_secrecy(before, public, match, events)


def test_events_report_contract_doubles_plays_deals_scores_and_the_end() -> None:
    for seed in (121, 122):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        types_seen: set[str] = set()
        while match.to_act:
            deal, old_scores, phase = match.deal_number, match.scores, match.phase
            seat, action, events = random_step(match, rng)
            types = [event["type"] for event in events]
            types_seen.update(types)
            if action["type"] == "contract":
                (contract,) = [event for event in events if event["type"] == "contract"]
                assert contract["contract"] == action["contract"]
            if action["type"] == "play":
                (play,) = [event for event in events if event["type"] == "play"]
                assert play["card"] == action["card"] and play.get("seat") == seat
            if phase == "doubling" and match.phase != "doubling":
                assert "doubles_revealed" in types
            if match.deal_number != deal:
                assert types.count("deal") == 1 and "hand_scored" in types
                assert types.index("hand_scored") < types.index("deal")
            if "hand_scored" in types:
                (event,) = [event for event in events if event["type"] == "hand_scored"]
                deltas = [new - old for new, old in zip(match.scores, old_scores, strict=True)]
                assert match.scores in event.values()
                assert deltas in event.values()
            if match.phase == "finished":
                assert types[-1] == "match_over"
        assert types_seen >= {
            "deal",
            "contract",
            "doubles_revealed",
            "play",
            "trick_won",
            "hand_scored",
            "match_over",
        }


def test_actions_accept_lower_case_and_ten_spelling_and_output_canonical_codes() -> None:
    tens = doubles = 0
    for seed in (131, 132):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        while match.to_act:
            seat = rng.choice(match.to_act)
            action = rng.choice(match.legal_actions(seat))
            deal = match.deal_number
            if action["type"] == "play":
                code = action["card"]
                spelled = rng.choice([form for form in spellings(code) if form != code])
                tens += code[0] == "T"
                events = match.apply(seat, {"type": "play", "card": spelled})
                (play,) = [event for event in events if event["type"] == "play"]
                assert play["card"] == code
                if match.deal_number == deal:
                    assert code not in match.hand(seat)
            elif action["type"] == "double" and action["cards"]:
                cards = [rng.choice(spellings(code)[1:]) for code in action["cards"]]
                events = match.apply(seat, {"type": "double", "cards": cards})
                for event in events:
                    if "cards" in event:
                        assert set(event["cards"]) <= set(CODES)
                    if event["type"] == "doubles_revealed":
                        shown = {e["card"] for e in event["doubled"] if e["seat"] == seat}
                        assert shown == set(action["cards"])
                doubles += 1
                if match.phase == "doubling":
                    own = {e["card"] for e in match.view(seat)["doubled"]}
                    assert own <= set(action["cards"])
                else:
                    public = match.view(None)["doubled"]
                    assert {e["card"] for e in public if e["seat"] == seat} == set(action["cards"])
            else:
                match.apply(seat, action)
    assert tens > 0 and doubles > 0


# ---------------------------------------------------------------- finished matches


def test_match_ends_after_exactly_eight_deals_with_the_higher_team_as_winners() -> None:
    for seed in (151, 152, 153, 154):
        match = engine.new_match(VARIANT, seed=seed)
        rng = random.Random(seed)
        deals, scored = 1, 0
        last: list[Event] = []
        while match.to_act:
            _, _, last = random_step(match, rng)
            deals += sum(event["type"] == "deal" for event in last)
            scored += sum(event["type"] == "hand_scored" for event in last)
            assert match.deal_number <= 8
        assert deals == scored == 8
        check_finished(match, last)
        team_a, team_b = match.team_scores or [0, 0]
        if team_a == team_b:
            assert match.result == {"winners": [], "draw": True}
        else:
            winners = [0, 2] if team_a > team_b else [1, 3]
            assert match.result is not None
            assert sorted(match.result["winners"]) == winners
            assert match.result["draw"] is False


def test_drawn_match_ends_with_no_winners_and_draw_true() -> None:
    match = engine.new_match(VARIANT, seed=DRAWN_SEED)
    log = play_auto_to_end(match)
    assert match.team_scores is not None
    assert match.team_scores[0] == match.team_scores[1]
    assert match.result == {"winners": [], "draw": True}
    check_finished(match, log[-1])


def test_trix_player_placed_fourth_keeps_the_cards_left_in_hand() -> None:
    # auto_action always picks Complex (TX.13), so every kingdom's second deal, the 8th
    # deal included, is Trix and the match ends with the fourth player's cards in hand.
    for seed in (161, 162, 163):
        match = engine.new_match(VARIANT, seed=seed)
        checked = 0
        while match.to_act:
            in_trix = match.view(None)["contract"] == "trix"
            hands = hands_of(match)
            seat, _, events = auto_step(match)
            ends = any(event["type"] == "hand_scored" for event in events)
            if not (in_trix and ends):
                continue
            (fourth,) = [s for s in SEATS if s != seat and hands[s]]
            left = hands[fourth]
            assert left
            plays = [event for event in events if event["type"] == "play"]
            assert [event["seat"] for event in plays] == [seat]
            checked += 1
            if match.phase == "finished":
                assert match.hand(fourth) == left
                assert match.view(fourth)["hand"] == left
                assert match.view(None)["hand_sizes"] == [
                    len(left) if s == fourth else 0 for s in SEATS
                ]
                assert not set(left) & set(laid_cards(match.view(None)["rows"]))
                assert leaked_cards(json.dumps(match.view(None)), match, None) == []
        assert checked == 4 and match.phase == "finished"


def test_finished_order_at_the_end_lists_only_seats_that_emptied_their_hands() -> None:
    match = engine.new_match(VARIANT, seed=161)
    play_auto_to_end(match)
    view = match.view(None)
    assert view["contract"] == "trix"
    assert all(view["hand_sizes"][seat] == 0 for seat in view["finished_order"])
