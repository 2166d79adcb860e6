"""The search computer player ("hard"): determinized Monte Carlo (PIMC).

For a decision it deals the unseen cards several times consistently with what its seat has
seen (``sampling``: exactly uniform), then scores each candidate card in those deals, the
same deals for every candidate, so their comparison is not drowned in the luck of the deal:

- the last ``EXACT_CARDS`` tricks of every variant: each deal is searched exactly for the
  deal's own score (``endgame``, ``objective.exact_search``: personal bids, the solo
  contract, Complex points);
- partnership Tarneeb card play before that: each deal is solved exactly by DDS
  (``doubledummy``), the side's tricks valued by the bids they make or break
  (``objective.trick_values``), the deals drawn in proportion to how well they fit the
  bids (``inference``);
- what stays tied, and Solo and Complex play before the last tricks: play-outs to the end
  of the deal by the heuristic policies (``rollouts``).

Bids, trump and the Trix contract use the same play-outs to measure what the hand takes.
The budget is a count of deals and play-outs, not a time: the engine reads no clock, and
the same view always gets the same answer (the RNG is seeded from the player's seed and
the view).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.cards import CARD_BY_CODE, CARD_CODES
from engine.match import Action
from engine.params import PARTNERSHIP_PARAMS, TARNEEB_SOLO
from engine.players import doubledummy
from engine.players.bidding import (
    estimate_tricks,
    solo_call,
    solo_value,
    spread,
    tarneeb_bid,
)
from engine.players.complex import COST, choose_doubles
from engine.players.endgame import distinct
from engine.players.heuristic import bid_context, play_action
from engine.players.inference import bid_weight, resample
from engine.players.knowledge import Knowledge, legal_of, read_view
from engine.players.objective import exact_search, side_trick_values
from engine.players.rollouts import complex_rollout, layout_rollout, trick_rollout
from engine.players.sampling import Sampler
from engine.solo import solo_deltas
from engine.tricks import trick_winner
from engine.trix import extend_row, placing_points, trick_points

Simulation = Callable[[list[int], int], list[int]]  # (world hands, my card) -> seat values

# Double-dummy deals per card decision: as many as DD_BUDGET_MS allows at DDS's mean cost of
# one solve (ms, one core; measured by cards in the hand to move, for a lead and for a
# card to a trick already led), at most DD_WORLDS_MAX. Fewer than DD_WORLDS_MIN (a lead
# from 12 or 13 cards) would be noise: those decisions go to the play-outs alone. The
# budget is counted in solves, not read off a clock: the same view gets the same answer.
DD_COST_MS = {13: (110.0, 27.0), 12: (38.0, 12.0), 11: (14.0, 5.0), 10: (7.0, 1.8), 9: (3.0, 1.2)}
DD_COST_LATE_MS = (1.5, 0.8)
DD_BUDGET_MS = 110.0
DD_WORLDS_MIN = 4
DD_WORLDS_MAX = 40
DD_POOL = 4  # deals drawn per deal solved, for the bids to choose among
# From this many cards in hand on, every variant's last tricks are searched exactly for
# the deal's own score (``endgame``), in EXACT_WORLDS sampled deals.
EXACT_CARDS = 4
EXACT_WORLDS = 32
# Ties left after an exact solve go to the play-outs with this share of their budget: they
# only break ties (and a decision must stay within its time).
TIE_SHARE = 3


class SearchPlayer:
    """Determinized Monte Carlo with heuristic rollouts."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        rollouts: int = 360,
        min_worlds: int = 12,
        exact_cards: int = EXACT_CARDS,
        exact_worlds: int = EXACT_WORLDS,
    ) -> None:
        self.seed = seed
        self.rollouts = rollouts  # per card decision, shared among the candidates
        self.min_worlds = min_worlds
        self.exact_cards = exact_cards  # hand sizes from which the rest is searched exactly
        self.exact_worlds = exact_worlds

    def decide(self, view: dict[str, Any]) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        know = read_view(view)
        rng = random.Random(
            f"sahra:search:{self.seed}:{know.variant}:{view['deal_number']}:{know.seat}:"
            f"{know.phase}:{know.hand}:{know.played}:{len(know.trick)}:{know.scores}"
        )
        phase = know.phase
        if know.variant == "trix_complex":
            if phase == "contract":
                return self._contract(know, rng)
            if phase == "doubling":
                return {
                    "type": "double",
                    "cards": [CARD_CODES[c] for c in choose_doubles(know.hand)],
                }
            if know.contract == "trix":
                return self._layout(know, legal, rng)
            return self._play(know, legal, rng)
        if phase == "bidding":
            if know.variant == "tarneeb_solo":
                return self._solo_auction(know, legal, rng)
            return self._tarneeb_bid(know, legal, rng)
        if phase == "trump":
            odds = self._solo_odds(know, rng)
            bid = know.contract_bid or TARNEEB_SOLO.min_bid
            suit = max(range(4), key=lambda s: (solo_value(bid, odds[s]), s))
            return {"type": "trump", "suit": "CDHS"[suit]}
        return self._play(know, legal, rng)

    # ---------------------------------------------------------------- bidding

    def _worlds(self, know: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
        sampler = Sampler(know)
        return [sampler.deal(rng) for _ in range(count)]

    def _bid_worlds(self) -> int:
        return max(self.min_worlds, self.rollouts // 6)

    def _tarneeb_bid(self, know: Knowledge, legal: list[Action], rng: random.Random) -> Action:
        """T41.5: measure this hand's tricks over sampled deals played out, then bid for the
        best expected score (``bidding.tarneeb_bid``)."""
        seat = know.seat
        assert know.dealer is not None
        allies = [1 << s | 1 << (s ^ 2) for s in range(4)]
        counts = [0] * 14
        worlds = self._worlds(know, rng, self._bid_worlds())
        for hands in worlds:
            tricks = trick_rollout(hands, [], [], (know.dealer + 1) & 3, know.trump, 0, allies)
            counts[tricks[seat]] += 1
        odds = _blend(counts, spread(estimate_tricks(know.hand, know.trump)))
        bids = [action["value"] for action in legal]
        return {"type": "bid", "value": tarneeb_bid(bids, odds, **bid_context(know))}

    def _solo_odds(self, know: Knowledge, rng: random.Random) -> list[list[float]]:
        """TS.6: this seat's trick distribution as declarer with each suit as trump."""
        seat = know.seat
        allies = [1 << seat if s == seat else 0b1111 & ~(1 << seat) for s in range(4)]
        worlds = self._worlds(know, rng, max(self.min_worlds, self.rollouts // 12))
        odds = []
        for suit in range(4):
            counts = [0] * 14
            for hands in worlds:
                tricks = trick_rollout(list(hands), [], [], seat, suit, 0, allies)
                counts[tricks[seat]] += 1
            odds.append(_blend(counts, spread(estimate_tricks(know.hand, suit) + 0.5)))
        return odds

    def _solo_auction(self, know: Knowledge, legal: list[Action], rng: random.Random) -> Action:
        bids = [action["value"] for action in legal if action["type"] == "bid"]
        forced = all(action["type"] == "bid" for action in legal)
        odds = self._solo_odds(know, rng)
        best = max(odds, key=lambda o: solo_value(bids[0], o) if bids else 0.0)
        call = solo_call(bids, best, forced)
        return {"type": "pass"} if call is None else {"type": "bid", "value": call}

    def _contract(self, know: Knowledge, rng: random.Random) -> Action:
        """TX.4: play out both contracts with this hand; choose the one where our side does
        better than the other (the kingdom's second deal is a fresh hand either way)."""
        seat = know.seat
        allies = [1 << s | 1 << (s ^ 2) for s in range(4)]
        worlds = self._worlds(know, rng, max(self.min_worlds, self.rollouts // 8))
        margin = {"complex": 0, "trix": 0}
        for hands in worlds:
            points = complex_rollout(list(hands), [], [], seat, 0, allies, {})
            margin["complex"] += _team_margin(points, seat)
            points = layout_rollout(list(hands), [None, None, None, None], seat, [])
            margin["trix"] += _team_margin(points, seat)
        choice = max(margin, key=lambda name: (margin[name], name == "complex"))
        return {"type": "contract", "contract": choice}

    # ---------------------------------------------------------------- card play

    def _play(self, know: Knowledge, legal: list[Action], rng: random.Random) -> Action:
        legal_cards = [_card(action) for action in legal]
        candidates = _distinct(legal_cards, know)
        if len(candidates) == 1:
            return play_action(candidates[0])
        budget = self.rollouts
        held = know.hand.bit_count()
        if held <= self.exact_cards:
            candidates = self._exact(know, candidates, rng)
            budget //= TIE_SHARE
        elif know.variant in PARTNERSHIP_PARAMS and doubledummy.available():
            cost = DD_COST_MS.get(held, DD_COST_LATE_MS)[1 if know.trick else 0]
            worlds = min(DD_WORLDS_MAX, int(DD_BUDGET_MS / cost))
            if worlds >= DD_WORLDS_MIN:
                candidates = self._double_dummy(know, candidates, rng, worlds)
                budget //= TIE_SHARE
        if len(candidates) == 1:
            return play_action(candidates[0])
        return play_action(self._best(know, candidates, self._simulation(know), rng, budget))

    def _deals(self, know: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
        """``count`` sampled deals to solve; in partnership Tarneeb drawn from DD_POOL
        times as many in proportion to how well they fit the bids (T41.5, ``inference``)."""
        if know.variant not in PARTNERSHIP_PARAMS:
            return self._worlds(know, rng, count)
        pool = self._worlds(know, rng, count * DD_POOL)
        return resample(pool, [bid_weight(know, hands) for hands in pool], count, rng)

    def _exact(self, know: Knowledge, candidates: list[int], rng: random.Random) -> list[int]:
        """The last tricks, solved exactly in sampled deals for the deal's own score
        (``objective.exact_search``: personal bids, the solo contract, Complex points):
        the candidates with the best sum over the deals."""
        search, sign = exact_search(know)
        trick = [card for _, card in know.trick]
        seats = [who for who, _ in know.trick]
        leader = seats[0] if seats else know.seat
        totals = dict.fromkeys(candidates, 0.0)
        for hands in self._deals(know, rng, self.exact_worlds):
            values = search.solve(hands, trick, seats, leader, (0, 0, 0, 0), candidates)
            for card in candidates:
                totals[card] += sign * values[card]
        best = max(totals.values())
        return [card for card in candidates if totals[card] == best]

    def _double_dummy(
        self, know: Knowledge, candidates: list[int], rng: random.Random, worlds: int
    ) -> list[int]:
        """T41.7 card play solved exactly in sampled deals (DDS): the candidates whose
        score for our side (T41.8: bids made and broken, ``objective``), summed over the
        deals, is the best; among those, the most tricks."""
        trick = [card for _, card in know.trick]
        leader = know.trick[0][0] if know.trick else know.seat
        values = side_trick_values(know)
        totals = dict.fromkeys(candidates, (0, 0))
        for hands in self._deals(know, rng, worlds):
            tricks = doubledummy.solve(hands, know.trump, leader, trick)
            for card in candidates:
                score, count = totals[card]
                totals[card] = (score + values[tricks[card]], count + tricks[card])
        best = max(totals.values())
        # Ties (the same score and tricks in every deal, often) are left to the play-outs,
        # which score each seat's own tricks against its own bid (T41.8: who of two partners
        # takes a trick changes the score, which a side-trick solver does not see).
        return [card for card in candidates if totals[card] == best]

    def _best(
        self,
        know: Knowledge,
        candidates: list[int],
        simulate: Simulation,
        rng: random.Random,
        rollouts: int | None = None,
    ) -> int:
        budget = self.rollouts if rollouts is None else rollouts
        worlds = self._worlds(know, rng, max(self.min_worlds, budget // max(1, len(candidates))))
        seat = know.seat
        best_card, best_total = candidates[0], None
        for card in candidates:
            total = 0.0
            for hands in worlds:
                total += simulate(list(hands), card)[seat]
            if best_total is None or total > best_total:
                best_card, best_total = card, total
        return best_card

    def _simulation(self, know: Knowledge) -> Simulation:
        """A function that plays one world on from this seat's card and returns each seat's
        value (its side's gain over the other side's)."""
        seat = know.seat
        trick = [card for _, card in know.trick]
        seats = [who for who, _ in know.trick]
        leader = seats[0] if seats else seat
        variant = know.variant
        if variant == "trix_complex":
            allies = [1 << s | 1 << (s ^ 2) for s in range(4)]
            doubled = know.doubled

            def complex_world(hands: list[int], card: int) -> list[int]:
                hands[seat] &= ~(1 << card)
                now, who = [*trick, card], [*seats, seat]
                played = know.played | 1 << card
                points = [0, 0, 0, 0]
                first = leader
                if len(now) == 4:
                    first = who[trick_winner(now, -1)]
                    points = trick_points(now, who[0], first, doubled)
                    now, who = [], []
                more = complex_rollout(hands, now, who, first, played, allies, doubled)
                return _margins([points[s] + more[s] for s in range(4)], teams=True)

            return complex_world
        trump = know.trump
        if variant == "tarneeb_solo":
            declarer = know.declarer if know.declarer is not None else seat
            allies = [
                1 << declarer if s == declarer else 0b1111 & ~(1 << declarer) for s in range(4)
            ]
            bid = know.contract_bid or TARNEEB_SOLO.min_bid
            contract: tuple[int, int] | None = (declarer, bid)
        else:
            contract = None
            allies = [1 << s | 1 << (s ^ 2) for s in range(4)]
            bids = know.bid_values
            params = PARTNERSHIP_PARAMS[variant]  # T41.8, T41D.4 scoring

        def trick_world(hands: list[int], card: int) -> list[int]:
            hands[seat] &= ~(1 << card)
            now, who = [*trick, card], [*seats, seat]
            played = know.played | 1 << card
            tricks = list(know.tricks_won)
            first = leader
            if len(now) == 4:
                first = who[trick_winner(now, trump)]
                tricks[first] += 1
                now, who = [], []
            # Solo: the tricks the declarer still needs, from here on.
            needs = None if contract is None else (declarer, bid - tricks[declarer])
            more = trick_rollout(hands, now, who, first, trump, played, allies, needs)
            total = [tricks[s] + more[s] for s in range(4)]
            if variant == "tarneeb_solo":
                return _margins(solo_deltas(bid, declarer, total), teams=False)
            return _margins(params.deltas(bids, total), teams=True)

        return trick_world

    def _layout(self, know: Knowledge, legal: list[Action], rng: random.Random) -> Action:
        """TX.9: try each card that can be laid in sampled deals played to the end."""
        seat = know.seat
        candidates = [_card(action) for action in legal if action["type"] == "play"]

        def layout_world(hands: list[int], card: int) -> list[int]:
            hands[seat] &= ~(1 << card)
            rows = [None if row is None else list(row) for row in know.rows]
            extend_row(rows, card)
            finished = list(know.finished)
            if not hands[seat]:
                finished.append(seat)
            if len(finished) == 3:
                points = placing_points(finished)
            else:
                points = layout_rollout(hands, rows, (seat + 1) & 3, finished)
            return _margins(points, teams=True)

        return play_action(self._best(know, candidates, layout_world, rng))


def _card(action: Action) -> int:
    return CARD_BY_CODE[action["card"]]


def _distinct(cards: list[int], know: Knowledge) -> list[int]:
    """One card per group of cards equal in play (``endgame.distinct``): cards of finished
    tricks join their neighbours, cards on the table in this trick do not (the card above
    one wins the trick, the card below does not); in Complex only at the same penalty."""
    on_table = 0
    for _, card in know.trick:
        on_table |= 1 << card
    legal = 0
    for card in cards:
        legal |= 1 << card
    cost = COST if know.variant == "trix_complex" else None
    return distinct(legal, know.hand | (know.played & ~on_table), cost)


def _margins(values: list[int], *, teams: bool) -> list[int]:
    """Each seat's value: its side's total minus the other side's (teams), or its own
    minus the others' average, times three to stay in ints (solo)."""
    if teams:
        a, b = values[0] + values[2], values[1] + values[3]
        return [a - b, b - a, a - b, b - a]
    total = sum(values)
    return [4 * value - total for value in values]


def _team_margin(points: list[int], seat: int) -> int:
    return _margins(points, teams=True)[seat]


def _blend(counts: list[int], prior: list[float], weight: float = 0.15) -> list[float]:
    """Measured trick counts, smoothed by a little of the point-count prior so that a
    count never seen in a few dozen samples is not treated as impossible."""
    total = sum(counts) or 1
    return [(1 - weight) * c / total + weight * p for c, p in zip(counts, prior, strict=True)]


__all__ = ["SearchPlayer"]
