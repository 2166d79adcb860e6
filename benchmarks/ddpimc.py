"""The yardstick for the "hard" player: a double-dummy PIMC player, the way the bridge
program GIB plays (Ginsberg 2001), built on Bo Haglund's DDS.

For each card decision it deals the unseen cards ``worlds`` times, uniformly among the
deals consistent with what its seat has seen (the known cards placed, no card of a suit a
seat has shown void in: the engine's rejection sampler, so no deal is favoured; no
inference from the bids, as GIB's plain PIMC), solves every world
exactly with DDS (``engine/players/doubledummy.py``), and plays the card whose tricks for
its side, summed over the worlds, are the most; ties go to the lowest card code (clubs
first, low first), as the reference the issue describes did. Everything that is not card
play (bids, trump) is the heuristic player's, so that an arena pairing compares card play
alone.

It is honest: it decides from ``Match.view(seat)`` only. It is a yardstick, not a table
player: a first-trick decision solves 20 full deals (hundreds of milliseconds). DDS solves
partnership trick play, so it applies to Syrian 41 and Tarneeb 41 doubled; Solo Tarneeb
(one declarer against three who may each go their own way, TS.8) and Trix/Complex (points
per card, not tricks) have no exact double-dummy equivalent (see the arena's notes).
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import CARD_BY_CODE, CARD_CODES
from engine.match import Action
from engine.players.doubledummy import solve
from engine.players.heuristic import HeuristicPlayer
from engine.players.knowledge import legal_of, read_view
from engine.players.sampling import Sampler

WORLDS = 20


class DoubleDummyPimc:
    """GIB-style card play (``WORLDS`` uniform deals, each solved exactly)."""

    name = "ddpimc"

    def __init__(self, seed: int = 0, worlds: int = WORLDS) -> None:
        self.seed = seed
        self.worlds = worlds
        self.bidder = HeuristicPlayer()

    def decide(self, view: dict[str, Any]) -> Action:
        legal = legal_of(view)
        if len(legal) == 1 or view.get("phase") != "playing":
            return legal[0] if len(legal) == 1 else self.bidder.decide(view)
        know = read_view(view)
        rng = random.Random(
            f"ddpimc:{self.seed}:{view['deal_number']}:{know.seat}:{know.played}:{know.hand}"
        )
        cards = sorted(CARD_BY_CODE[action["card"]] for action in legal)
        trick = [card for _, card in know.trick]
        leader = know.trick[0][0] if know.trick else know.seat
        totals = dict.fromkeys(cards, 0)
        sampler = Sampler(know)
        for _ in range(self.worlds):
            hands = sampler.deal(rng)  # uniform among the consistent deals
            tricks = solve(hands, know.trump, leader, trick)
            for card in cards:
                totals[card] += tricks[card]
        best = max(cards, key=lambda card: (totals[card], -card))
        return {"type": "play", "card": CARD_CODES[best]}


__all__ = ["DoubleDummyPimc"]
