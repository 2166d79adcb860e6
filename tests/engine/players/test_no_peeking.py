"""A computer player decides from its own view only: never from cards it cannot see.

The main check deals twin matches: the deciding seat gets the same hand in both (and in
T41 the dealer keeps the same shown card, T41.4), while every card that seat cannot see is
moved among the other hands, consistently with what has happened so far so that the same
actions replay on both (see ``support.twin_hands``). At bids, leads, mid-deal positions,
the Trix contract choice, the doubling window and the Trix layout, the seat's view must
be the same in both matches and so must the heuristic and the search players' decisions.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

import engine
from engine.players import SearchPlayer, new_player
from engine.players.knowledge import read_view
from tests.engine.players.support import (
    TARNEEB,
    VARIANTS,
    Action,
    deck_from_hands,
    drive_until,
    first_seat,
    hands_of_deck,
    new_match,
    phase_key,
    replay,
    shuffled_deck,
    twin_hands,
)

SEARCH_BUDGET = {"rollouts": 48, "min_worlds": 6}
# Decision points, as the number of actions taken before them in deal 1: the first bid,
# the dealer's bid (T41: it holds the shown card) and the first lead, then mid-deal.
STOPS: dict[str, tuple[int | str, ...]] = {
    "syrian41": (0, 3, 4, 9, 17, 26, 33, 40, 47),
    "tarneeb41_double": (0, 3, 4, 9, 17, 26, 33, 40, 47),
    # Solo: the first bid, the declarer's trump choice (TS.6), then stops counted from the
    # first card (the auction's length varies): 1 is the first lead.
    "tarneeb_solo": (0, "trump", 1, 6, 13, 22, 30, 38, 45),
    # Trix: 0 is the owner's contract choice; the doubling window follows in Complex.
    "trix_complex": (0, 1, 3, 6, 12, 20, 29, 37, 44),
}


def heuristic_choice(contract: str) -> Any:
    player = new_player("heuristic")

    def choose(match: engine.Match, seat: int) -> Action:
        if match.phase == "contract":
            return {"type": "contract", "contract": contract}
        return player.decide(match.view(seat))

    return choose


def stop_at(variant: str, stop: int | str) -> Any:
    def reached(match: engine.Match, seat: int, steps: int) -> bool:
        if stop == "trump":
            return match.phase == "trump"
        if variant == "tarneeb_solo" and stop != 0:
            played = sum(len(t["cards"]) for t in match.view(None)["deal_tricks"])
            played += len(match.view(None)["trick"])
            return match.phase == "playing" and played == stop - 1
        return steps == stop

    return reached


def twin_positions(variant: str, deck_seeds: range, contract: str = "complex") -> Any:
    """Yield (match, twin match, seat) pairs at the decision points of ``STOPS``."""
    for deck_seed in deck_seeds:
        dealer = deck_seed % 4
        deck = shuffled_deck(deck_seed)
        hands = hands_of_deck(deck, first_seat(variant, dealer))
        for stop in STOPS[variant]:
            match = new_match(variant, deck, dealer)
            log, seat = drive_until(match, heuristic_choice(contract), stop_at(variant, stop))
            if seat is None or match.deal_number != 1:
                continue  # the deal was cancelled (T41.6) or ended first: no twin to build
            rng = random.Random(f"{variant}:{deck_seed}:{stop}")
            twin = twin_hands(match, log, hands, seat, rng)
            if twin is None:
                continue
            last = deck[51] if variant in TARNEEB else None
            other = new_match(variant, deck_from_hands(variant, twin, dealer, last), dealer)
            replay(other, log, window_open=match.phase == "doubling")
            yield match, other, seat


@pytest.mark.parametrize("variant", VARIANTS)
def test_decisions_do_not_depend_on_the_hidden_cards(variant: str) -> None:
    seen: Counter[str] = Counter()
    contracts = ("complex", "trix") if variant == "trix_complex" else ("complex",)
    for contract in contracts:
        for match, twin, seat in twin_positions(variant, range(4), contract):
            assert twin.hand(seat) == match.hand(seat)
            moved = [s for s in range(4) if s != seat and twin.hand(s) != match.hand(s)]
            assert moved, "the twin must differ in the cards the seat cannot see"
            view = match.view(seat)
            assert twin.view(seat) == view
            assert twin.legal_actions(seat) == match.legal_actions(seat)
            assert read_view(twin.view(seat)) == read_view(view)
            heuristic = new_player("heuristic").decide(view)
            assert new_player("heuristic").decide(twin.view(seat)) == heuristic
            search = SearchPlayer(seed=11, **SEARCH_BUDGET).decide(view)
            assert SearchPlayer(seed=11, **SEARCH_BUDGET).decide(twin.view(seat)) == search
            assert heuristic in match.legal_actions(seat) and search in twin.legal_actions(seat)
            seen[phase_key(match.phase, view, match.legal_actions(seat))] += 1
    assert sum(seen.values()) >= 20
    expected = {
        "syrian41": {"bidding", "playing"},
        "tarneeb41_double": {"bidding", "playing"},
        "tarneeb_solo": {"bidding", "trump", "playing"},
        "trix_complex": {"contract", "doubling", "playing:complex", "playing:trix:choice"},
    }[variant]
    assert expected <= set(seen), seen


def test_the_twins_really_differ_where_the_seat_cannot_see() -> None:
    """The twin construction itself: the same 52 cards, the same hand for the deciding
    seat, the T41.4 shown card still in the dealer's hand until played, and most of the
    time all three other hands changed."""
    moved = []
    for match, twin, seat in twin_positions("syrian41", range(4)):
        assert twin.hand(seat) == match.hand(seat)
        shown = match.view(None)["shown_card"]
        assert twin.view(None)["shown_card"] == shown
        assert (shown in twin.hand(match.dealer)) == (shown in match.hand(match.dealer))
        every = sorted(c for s in range(4) for c in match.hand(s))
        assert sorted(c for s in range(4) for c in twin.hand(s)) == every
        moved.append(sum(twin.hand(s) != match.hand(s) for s in range(4) if s != seat))
    assert len(moved) >= 20 and moved.count(3) >= 0.8 * len(moved)


def sample_views(variant: str, count: int, seed: int = 0) -> list[tuple[engine.Match, int]]:
    """Positions from heuristic play: (match copy, seat to act), ``count`` of them."""
    positions: list[tuple[engine.Match, int]] = []
    rng = random.Random(seed)
    player = new_player("heuristic")
    match = engine.new_match(variant, seed=seed)
    while len(positions) < count and match.result is None:
        for seat in list(match.to_act):
            if len(match.legal_actions(seat)) > 1 and rng.random() < 0.08:
                positions.append((engine.Match.from_json(match.to_json()), seat))
            match.apply(seat, player.decide(match.view(seat)))
    return positions


@pytest.mark.parametrize("variant", VARIANTS)
def test_extra_view_keys_are_ignored_and_the_view_is_read_only(variant: str) -> None:
    """Smuggling every hidden hand into the view under an unknown key changes nothing:
    ``read_view`` and the players read only the view's documented keys."""
    for match, seat in sample_views(variant, 12, seed=3):
        view = match.view(seat)
        smuggled = copy.deepcopy(view)
        smuggled["hands"] = [match.hand(s) for s in range(4)]
        smuggled["deck"] = [code for s in range(4) for code in match.hand(s)]
        before = copy.deepcopy(smuggled)
        plain = read_view(view)
        peeked = read_view(smuggled)
        plain.view = peeked.view = {}
        assert peeked == plain
        for kind in ("heuristic", "search"):
            budget = SEARCH_BUDGET if kind == "search" else {}
            expected = new_player(kind, seed=4, **budget).decide(view)
            assert new_player(kind, seed=4, **budget).decide(smuggled) == expected
            # a view that went through JSON (as the tables store them) decides the same
            assert new_player(kind, seed=4, **budget).decide(json.loads(json.dumps(view))) == (
                expected
            )
        assert smuggled == before, "deciding must not modify the view"


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_player_is_reproducible(variant: str) -> None:
    """Same seed and same view → same action: twice from one instance, and from a fresh
    one (the budget is a number of rollouts, never a clock)."""
    for match, seat in sample_views(variant, 10, seed=8):
        view = match.view(seat)
        player = SearchPlayer(seed=21, **SEARCH_BUDGET)
        first = player.decide(view)
        assert player.decide(view) == first
        assert SearchPlayer(seed=21, **SEARCH_BUDGET).decide(copy.deepcopy(view)) == first
        assert new_player("search", 21, **SEARCH_BUDGET).decide(view) == first
        assert first in match.legal_actions(seat)


def test_the_spectator_view_is_refused() -> None:
    """A computer player decides for a seat; the spectator view has no hand to play."""
    match = engine.new_match("syrian41", seed=1)
    view = match.view(None)
    view["legal_actions"] = match.legal_actions(match.to_act[0])
    with pytest.raises(ValueError):
        read_view(view)
