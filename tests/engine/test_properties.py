"""Random-playout invariants over hundreds of seeded matches per variant.

Each match is driven by seeded random legal play for a few deals; every action is
checked against the invariants the rules promise (cards conserved, a legal move for whoever
is to act, scores moving only as the scoring rules say, no hidden card in the spectator
view), and at random moments refused actions and JSON round trips are checked too.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import engine
from engine.cards import CARD_CODES

VARIANTS = ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")
MATCHES = 200
DEALS_PER_MATCH = 2
CODE = re.compile(r"\b[2-9TJQKA][CDHS]\b")
RANKS = "23456789TJQKA"


def expected_deltas(variant: str, scored: dict[str, Any], deal: list[dict[str, Any]]) -> list[int]:
    """Scoring re-derived from rules.md, independently of the engine's code; ``deal`` holds
    the deal's events up to its ``hand_scored``."""
    if variant == "trix_complex":
        deltas = [0, 0, 0, 0]
        if scored["contract"] == "complex":  # TX.6–TX.8: the tricks' points add up
            for event in deal:
                if event["type"] == "trick_won":
                    deltas = [d + p for d, p in zip(deltas, event["points"], strict=True)]
            assert sum(deltas) == -500
        else:  # TX.10: +200/+150/+100/+50 in the order the hands emptied
            for event in deal:
                if event["type"] in ("hand_emptied", "placed_fourth"):
                    deltas[event["seat"]] = (200, 150, 100, 50)[event["place"] - 1]
            assert sorted(deltas) == [50, 100, 150, 200]
        return deltas
    tricks = scored["tricks"]
    if variant == "tarneeb_solo":
        bid, declarer = scored["bid"], scored["declarer"]
        taken = tricks[declarer]
        if bid == 13:  # TS.8
            if taken == 13:
                return [26 if s == declarer else 0 for s in range(4)]
            return [-16 if s == declarer else 2 * tricks[s] for s in range(4)]
        if taken == 13:
            return [16 if s == declarer else 0 for s in range(4)]
        if taken >= bid:
            return [taken if s == declarer else 0 for s in range(4)]
        return [-bid if s == declarer else tricks[s] for s in range(4)]
    deltas = []
    for seat, bid in enumerate(scored["bids"]):
        value = bid * (2 if variant == "tarneeb41_double" and bid >= 7 else 1)  # T41D.4
        deltas.append(value if tricks[seat] >= bid else -value)  # T41.8
    return deltas


def garbage_actions(match: engine.Match, seat: int, rng: random.Random) -> list[Any]:
    """Actions that must all be refused for ``seat`` now."""
    legal = match.legal_actions(seat)
    held = set(match.hand(seat))
    not_held = [code for code in CARD_CODES if code not in held]
    illegal_plays = [
        {"type": "play", "card": code}
        for code in CARD_CODES
        if {"type": "play", "card": code} not in legal
    ]
    illegal_bids = [
        {"type": "bid", "value": v}
        for v in range(-1, 16)
        if {"type": "bid", "value": v} not in legal
    ]
    return [
        None,
        "play QH",
        [],
        {},
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "card": "ZZ"},
        {"type": "play", "card": rng.choice(not_held)},
        rng.choice(illegal_plays),
        rng.choice(illegal_bids),
        {"type": "bid", "value": "7"},
        {"type": "bid", "value": True},
        {"type": "trump", "suit": "X"},
    ]


def visible_codes(view: dict[str, Any]) -> set[str]:
    """Every card code a view names."""
    return set(CODE.findall(json.dumps(view)))


def check_invariants(match: engine.Match) -> None:
    hands = [match.hand(seat) for seat in range(4)]
    spectator = match.view(None)
    # 52 cards conserved: hands plus the cards played this deal are the whole deck.
    played = [c for trick in spectator["deal_tricks"] for c in trick["cards"]]
    played += [entry["card"] for entry in spectator["trick"]]
    for suit, row in (spectator["rows"] or {}).items():  # Trix: every card between the ends
        if row is not None:
            low, high = (RANKS.index(row[end][0]) for end in ("low", "high"))
            played += [RANKS[rank] + suit for rank in range(low, high + 1)]
    everything = [c for hand in hands for c in hand] + played
    assert sorted(everything) == sorted(CARD_CODES)
    assert spectator["hand_sizes"] == [len(hand) for hand in hands]
    # The spectator view holds no card of any hand — except T41.4's shown card, which the
    # dealer holds face up until playing it, and TX.7's doubled cards, revealed with ×2.
    public = {spectator["shown_card"]} | {entry["card"] for entry in spectator["doubled"]}
    in_hands = {c for hand in hands for c in hand} - public
    assert spectator["hand"] is None
    assert not in_hands & visible_codes(spectator)
    # A seat's view shows its own hand and no other seat's cards.
    for seat in range(4):
        others = in_hands - set(hands[seat])
        assert not others & visible_codes(match.view(seat))
    # Whoever is to act has a legal move; nobody else has one.
    for seat in range(4):
        legal = match.legal_actions(seat)
        assert bool(legal) == (seat in match.to_act)
    if match.phase not in ("finished", "doubling"):
        assert len(match.to_act) == 1


def play_random_match(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    match = engine.new_match(variant, seed=seed, options={"first_dealer": seed % 4})
    scores = match.scores
    scored_deals = 0
    step = 0
    deal_events: list[dict[str, Any]] = []
    while match.result is None and scored_deals < DEALS_PER_MATCH:
        seat = match.to_act[0]
        if step % 17 == 0:
            check_invariants(match)
        if step % 29 == 0:
            before = match.to_json()
            for action in garbage_actions(match, seat, rng):
                with pytest.raises(engine.IllegalAction):
                    match.apply(seat, action)
            for other in range(4):
                if other not in match.to_act:
                    with pytest.raises(engine.IllegalAction):
                        match.apply(other, rng.choice(match.legal_actions(seat)))
            assert match.to_json() == before
        action = rng.choice(match.legal_actions(seat))
        events = match.apply(seat, action)
        step += 1
        for event in events:
            deal_events.append(event)
            if event["type"] == "hand_scored":
                scored_deals += 1
                assert "tricks" not in event or sum(event["tricks"]) == 13
                assert event["deltas"] == expected_deltas(variant, event, deal_events)
                deal_events = []
                scores = [s + d for s, d in zip(scores, event["deltas"], strict=True)]
                assert event["scores"] == scores
            if event["type"] in ("hand", "double_answered"):
                assert event["to"] in range(4)
            else:
                assert "to" not in event
        assert match.scores == scores  # scores move only when a deal is scored


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_keep_every_invariant(variant: str) -> None:
    for seed in range(MATCHES):
        play_random_match(variant, seed)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_mid_match_json_round_trip_continues_identically(variant: str) -> None:
    for seed in range(40):
        rng = random.Random(seed)
        match = engine.new_match(variant, seed=seed)
        for _ in range(rng.randrange(1, 150)):
            if match.result is not None:
                break
            seat = match.to_act[0]
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        restored = engine.Match.from_json(match.to_json())
        assert restored.to_json() == match.to_json()
        for seat in (None, 0, 1, 2, 3):
            assert restored.view(seat) == match.view(seat)
        for _ in range(120):
            if match.result is not None:
                break
            seat = match.to_act[0]
            assert restored.to_act == match.to_act
            assert restored.legal_actions(seat) == match.legal_actions(seat)
            assert restored.auto_action(seat) == match.auto_action(seat)
            action = rng.choice(match.legal_actions(seat))
            assert restored.apply(seat, action) == match.apply(seat, action)
        assert restored.to_json() == match.to_json()


@pytest.mark.parametrize(("variant", "seeds"), [("syrian41", 4), ("tarneeb_solo", 10)])
def test_timeout_players_finish_matches_with_a_valid_result(variant: str, seeds: int) -> None:
    for seed in range(seeds):
        match = engine.new_match(variant, seed=seed)
        while match.result is None:
            seat = match.to_act[0]
            action = match.auto_action(seat)
            assert action in match.legal_actions(seat)
            match.apply(seat, action)  # type: ignore[arg-type]
        assert match.phase == "finished" and match.to_act == []
        result = match.result
        assert result["draw"] is False and result["winners"]
        scores = match.scores
        if variant == "syrian41":
            team = result["winners"]
            assert max(scores[s] for s in team) >= 41 and min(scores[s] for s in team) > 0
        else:
            assert scores[result["winners"][0]] == max(scores) >= 31
