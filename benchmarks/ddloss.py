"""Card play measured against the truth: in positions from real games, how many tricks
each player's card gives up against the best card on the actual deal, solved exactly
(the double-dummy loss per decision; the floor that hidden cards leave is what a player
who knew every hand would lose: zero).

All players are asked in the same positions (a paired comparison, far less noisy than
match results): the positions come from matches played by the first player listed, with
"easy" bids. Prints the mean loss per decision with a 95% interval, by seat in the trick.

The last ENDGAME_CARDS tricks are also solved exactly for the deal's own score
(``objective.exact_search``: personal bids, the solo contract, Complex points), so every
variant gets a second figure: the score each card gives up there against the best card
(team margin points; solo: the declarer's margin, times four). Solo and Trix/Complex,
which DDS does not model, get only this one. In the partnership variants a third: the
deal's score each card's DD tricks give up (``objective.trick_values``: each side sharing
its tricks between the partners as well as it can).

    python -m benchmarks.ddloss --deals 40 --players search ddpimc heuristic
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Sequence

import engine
from benchmarks.arena import make_player, mean_interval
from engine.cards import CARD_BY_CODE
from engine.params import PARTNERSHIP_PARAMS
from engine.players.doubledummy import solve
from engine.players.knowledge import read_view
from engine.players.objective import exact_search, side_trick_values

ENDGAME_CARDS = 4


def true_hands(match: engine.Match) -> list[int]:
    hands = []
    for seat in range(4):
        mask = 0
        for code in match.view(seat)["hand"]:
            mask |= 1 << CARD_BY_CODE[code]
        hands.append(mask)
    return hands


def run(variant: str, kinds: Sequence[str], deals: int, first_seed: int) -> None:
    budget = {"rollouts": 360, "min_worlds": 12}
    losses: dict[str, list[float]] = defaultdict(list)
    by_place: dict[tuple[str, int], list[float]] = defaultdict(list)
    score_losses: dict[str, list[float]] = defaultdict(list)
    dd_score_losses: dict[str, list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    played = 0
    seed = first_seed
    counted = variant in PARTNERSHIP_PARAMS  # DDS models two partnerships counting tricks
    while played < deals:
        match = engine.new_match(variant, seed=seed)
        players = {
            kind: [make_player(kind, seed * 4 + s, budget) for s in range(4)] for kind in kinds
        }
        bidder = make_player("heuristic", 0, budget)
        start_deal = match.deal_number
        while match.result is None and match.deal_number < start_deal + 3:
            seat = match.to_act[0]
            view = match.view(seat)
            if view["phase"] != "playing":
                match.apply(seat, bidder.decide(view))
                continue
            legal = view["legal_actions"]
            tricks_played = view.get("contract") != "trix"  # TX.9's layout has no tricks
            if len(legal) > 1 and tricks_played:
                trick = [CARD_BY_CODE[e["card"]] for e in view["trick"]]
                seats = [e["seat"] for e in view["trick"]]
                leader = seats[0] if seats else seat
                hands = true_hands(match)
                know = read_view(view)
                exact = solve(hands, _trump(view), leader, trick) if counted else {}
                # What each card's DD tricks are worth in this deal's score.
                worth = side_trick_values(know) if counted else []
                endgame = {}
                if len(view["hand"]) <= ENDGAME_CARDS:
                    search, sign = exact_search(know)
                    cards = [CARD_BY_CODE[action["card"]] for action in legal]
                    endgame = search.solve(hands, trick, seats, leader, (0, 0, 0, 0), cards)
                    endgame = {card: sign * value for card, value in endgame.items()}
                for kind in kinds:
                    began = time.perf_counter()
                    action = players[kind][seat].decide(view)
                    times[kind].append(time.perf_counter() - began)
                    card = CARD_BY_CODE[action["card"]]
                    if exact:
                        loss = max(exact.values()) - exact[card]
                        losses[kind].append(loss)
                        by_place[(kind, len(trick))].append(loss)
                        best = max(worth[tricks] for tricks in exact.values())
                        dd_score_losses[kind].append(best - worth[exact[card]])
                    if endgame:
                        score_losses[kind].append(max(endgame.values()) - endgame[card])
            action = players[kinds[0]][seat].decide(view)
            events = match.apply(seat, action)
            if any(e["type"] == "hand_scored" for e in events):
                played += 1
        seed += 1
    for kind in kinds:
        ordered = sorted(times[kind])
        p95 = ordered[int(0.95 * len(ordered))] * 1000 if ordered else 0.0
        mean, low, high = mean_interval(score_losses[kind])
        line = (
            f"{variant} {kind:<18} last {ENDGAME_CARDS} tricks: score lost per decision"
            f" {mean:.2f} [{low:.2f}, {high:.2f}] n={len(score_losses[kind])}"
        )
        if counted:
            mean, low, high = mean_interval(losses[kind])
            places = " ".join(
                f"{place + 1}:{mean_interval(by_place[(kind, place)])[0]:.3f}"
                for place in range(4)
            )
            line += (
                f"; DD tricks lost per decision {mean:.3f} [{low:.3f}, {high:.3f}]"
                f" by seat in trick {places} n={len(losses[kind])}"
            )
            mean, low, high = mean_interval(dd_score_losses[kind])
            line += f"; DD score lost {mean:.3f} [{low:.3f}, {high:.3f}]"
        print(f"{line}; p95 {p95:.0f} ms")


def _trump(view: dict[str, object]) -> int:
    trump = view.get("trump")
    return "CDHS".index(str(trump)) if trump else -1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="syrian41")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--players", nargs="+", default=["search", "ddpimc", "heuristic"])
    args = parser.parse_args(argv)
    run(args.variant, args.players, args.deals, args.first_seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
