"""Replaying a table's log into a match record: every deal's hands as dealt, its calls,
its tricks or Trix turns, and scores that agree with the engine's own history."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from engine.dealing import deck_for_hands
from engine.records import MatchRecord, replay
from tests.bot.render.support import HEURISTIC, VARIANTS

DECK = frozenset(rank + suit for suit in "CDHS" for rank in "23456789TJQKA")
SEEDS = (3, 11)


@dataclass
class Played:
    """A match driven move by move, with its log and every event it gave."""

    variant: str
    seed: int
    options: dict[str, Any]
    decks: list[list[str]] | None
    match: engine.Match
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    # (the deal the move was applied in, the event)
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        deal = self.match.deal_number
        events = self.match.apply(seat, action)
        self.moves.append((seat, action))
        self.events += [(deal, event) for event in events]
        return events

    def step(self) -> list[dict[str, Any]]:
        """One move of the heuristic player for the first seat to act."""
        seat = self.match.to_act[0]
        return self.apply(seat, HEURISTIC.decide(self.match.view(seat)))

    def finish(self) -> Played:
        while self.match.result is None:
            self.step()
        return self

    def record(self) -> MatchRecord:
        return replay(self.variant, self.options, self.seed, self.decks, self.moves)


def start(
    variant: str,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    decks: list[list[str]] | None = None,
) -> Played:
    options = options or {}
    match = engine.new_match(variant, seed=seed, options=options, decks=decks)
    return Played(variant, seed, options, decks, match)


@functools.cache
def finished(variant: str, seed: int) -> tuple[Played, MatchRecord]:
    """A whole match of heuristic players and its replayed record (shared, read only)."""
    played = start(variant, seed).finish()
    return played, played.record()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_deal_has_four_disjoint_hands_making_the_deck(variant: str, seed: int) -> None:
    _, record = finished(variant, seed)
    assert record.deals
    for deal in record.deals:
        assert [len(hand) for hand in deal.hands] == [13, 13, 13, 13]
        cards = [code for hand in deal.hands for code in hand]
        assert len(set(cards)) == 52
        assert set(cards) == DECK


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_tricks_and_layouts_hold_exactly_the_cards_played(variant: str, seed: int) -> None:
    played, record = finished(variant, seed)
    plays: dict[int, list[tuple[int, str]]] = {}
    for deal_number, event in played.events:
        if event["type"] == "play":
            plays.setdefault(deal_number, []).append((event["seat"], event["card"]))
    for deal in record.deals:
        expected = plays.get(deal.number, [])
        in_order = [p for trick in deal.tricks for p in trick.plays]
        in_order += [(seat, code) for seat, code in deal.layout if code != "pass"]
        assert in_order == expected
        assert list(deal.played) == [code for _, code in expected]
        for seat, code in expected:  # each card came from its player's hand as dealt
            assert code in deal.hands[seat]
        if deal.tricks:
            assert len(deal.tricks) == 13
            assert {code for trick in deal.tricks for code in trick.cards} == DECK
            assert sum(deal.tricks_won) == 13
            for trick in deal.tricks:
                assert trick.winner in range(4)
                assert deal.tricks_won[trick.winner] == sum(
                    1 for other in deal.tricks if other.winner == trick.winner
                )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_scores_match_the_engine_history(variant: str, seed: int) -> None:
    played, record = finished(variant, seed)
    view = played.match.view(None)
    history = view["history"]
    assert [deal.number for deal in record.deals] == [entry["deal_number"] for entry in history]
    for deal, entry in zip(record.deals, history, strict=True):
        assert deal.finished
        assert deal.cancelled == entry.get("cancelled", False)
        if deal.cancelled:
            assert list(deal.bids) == entry["bids"]
            continue
        assert list(deal.deltas) == entry["deltas"]
        assert list(deal.scores) == entry["scores"]
        if "tricks" in entry:
            assert list(deal.tricks_won) == entry["tricks"]
        if "bids" in entry:
            assert list(deal.bids) == entry["bids"]
        if variant == "tarneeb_solo":
            assert (deal.declarer, deal.bid, deal.trump) == (
                entry["declarer"],
                entry["bid"],
                entry["trump"],
            )
            bids = [call for call in deal.auction if call[1] != "pass"]
            assert bids[-1] == (entry["declarer"], entry["bid"])  # TS.4: the last bid wins
        if variant == "trix_complex":
            assert (deal.kingdom, deal.owner, deal.contract) == (
                entry["kingdom"],
                entry["owner"],
                entry["contract"],
            )
            if entry["contract"] == "trix":
                assert list(deal.finished_order) == entry["finished_order"]
                assert deal.fourth == entry["fourth"]
        if deal.team_scores is not None:
            assert deal.team_scores == (
                deal.scores[0] + deal.scores[2],
                deal.scores[1] + deal.scores[3],
            )
    assert list(record.scores) == view["scores"]
    assert record.team_scores == (
        None if view["team_scores"] is None else tuple(view["team_scores"])
    )
    assert record.result == view["result"]
    assert record.result is not None


def test_first_deal_hands_are_those_dealt_before_any_card_is_played() -> None:
    """The stacked deck's hands, whoever plays first and whatever they play."""
    hands = [sorted(DECK, key=lambda c: ("CDHS".index(c[1]), c[0]))[i::4] for i in range(4)]
    deck = deck_for_hands(hands, 1)  # T41.3: dealer 0 deals first to seat 1
    played = start("syrian41", options={"first_dealer": 0}, decks=[deck])
    while played.match.deal_number == 1:
        played.step()
    deal = played.record().deals[0]
    assert [set(hand) for hand in deal.hands] == [set(hand) for hand in hands]
    assert deal.shown_card == deck[51]  # T41.4: the dealer's last card
    assert deal.dealer == 0


def test_t41_redeal_is_recorded_as_cancelled_and_the_next_deal_follows() -> None:
    played = start("syrian41", seed=5, options={"first_dealer": 0})
    for seat in (1, 2, 3, 0):  # T41.5: dealer + 1 first, the dealer last
        played.apply(seat, {"type": "bid", "value": 2})
    record = played.record()
    # The redealt deal has no move yet, so only the cancelled one is recorded.
    assert len(record.deals) == 1
    cancelled = record.deals[0]
    assert cancelled.cancelled and not cancelled.scored
    assert cancelled.bids == (2, 2, 2, 2)
    assert cancelled.needed == 11  # T41.6
    assert cancelled.tricks == () and cancelled.deltas == (0, 0, 0, 0)
    played.step()  # the first bid of the redeal (T41.2: dealer 1, so seat 2 bids)
    deals = played.record().deals
    assert [deal.number for deal in deals] == [1, 2]
    assert deals[1].dealer == 1 and not deals[1].finished
    assert record.result is None


def test_t41d_total_of_eleven_is_cancelled() -> None:
    played = start("tarneeb41_double", seed=5, options={"first_dealer": 2})
    for seat, bid in ((3, 2), (0, 2), (1, 3), (2, 4)):
        played.apply(seat, {"type": "bid", "value": bid})
    deal = played.record().deals[0]
    assert deal.cancelled and deal.needed == 12  # T41D.3: 11 is not enough
    assert sum(b for b in deal.bids if b is not None) == 11


def test_a_log_stopped_mid_trick_keeps_the_cards_on_the_table() -> None:
    played = start("tarneeb_solo", seed=4, options={"target": 31})
    while played.match.phase != "playing" or len(played.match.view(None)["trick"]) != 2:
        played.step()
    record = played.record()
    deal = record.deals[-1]
    assert not deal.finished and not deal.scored
    assert len(deal.open_trick) == 2
    trick = played.match.view(None)["trick"]
    assert deal.open_trick == tuple((p["seat"], p["card"]) for p in trick)
    assert record.result is None


def test_solo_auction_is_recorded_in_order_with_passes() -> None:
    played = start("tarneeb_solo", seed=9, options={"first_dealer": 3})
    calls: list[tuple[int, int | str]] = [(0, 7), (1, "pass"), (2, 8), (3, "pass"), (0, "pass")]
    for seat, value in calls:
        action: dict[str, Any] = (
            {"type": "pass"} if value == "pass" else {"type": "bid", "value": value}
        )
        played.apply(seat, action)
    played.apply(2, {"type": "trump", "suit": "H"})
    played.step()
    deal = played.record().deals[0]
    assert deal.auction == tuple(calls)
    assert (deal.declarer, deal.bid, deal.trump) == (2, 8, "H")  # TS.4, TS.6


def doublable(hand: tuple[str, ...]) -> list[str]:
    """TX.7: K♥ and the queens."""
    return [code for code in hand if code == "KH" or code[0] == "Q"]


def test_trix_doubled_cards_are_recorded_with_their_doublers() -> None:
    played = start("trix_complex", seed=21)
    match = played.match
    owner = match.view(None)["owner"]
    played.apply(owner, {"type": "contract", "contract": "complex"})
    hands = {seat: tuple(match.hand(seat)) for seat in range(4)}
    for seat in list(match.to_act):  # every holder doubles all it may (TX.7)
        played.apply(seat, {"type": "double", "cards": doublable(hands[seat])})
    while match.deal_number == 1:
        played.step()
    deal = played.record().deals[0]
    expected = {(code, seat) for seat in range(4) for code in doublable(hands[seat])}
    assert set(deal.doubled) == expected
    assert len(deal.doubled) == 5  # K♥ and four queens
    revealed = [e for _, e in played.events if e["type"] == "doubles_revealed"]
    assert deal.doubled == tuple((d["card"], d["seat"]) for d in revealed[0]["doubled"])


def test_trix_second_contract_follows_the_first_in_the_same_kingdom() -> None:
    _, record = finished("trix_complex", SEEDS[0])
    assert len(record.deals) == 8  # TX.3
    for first, second in zip(record.deals[::2], record.deals[1::2], strict=True):
        assert first.kingdom == second.kingdom and first.owner == second.owner
        assert {first.contract, second.contract} == {"complex", "trix"}  # TX.4
        assert first.dealer is None  # TX.2


def test_replay_rebuilds_the_match_like_recovery() -> None:
    """The same seed, options and moves give the same match as the one played."""
    played, record = finished("tarneeb_solo", SEEDS[1])
    again = engine.new_match("tarneeb_solo", seed=played.seed, options=played.options)
    for seat, action in played.moves:
        again.apply(seat, action)
    assert list(record.scores) == again.scores
    assert record.result == again.result


def test_an_illegal_move_in_the_log_is_refused() -> None:
    with pytest.raises(engine.IllegalAction):
        replay("syrian41", {}, 1, None, [(0, {"type": "bid", "value": 1})])
