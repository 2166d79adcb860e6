"""The baseline: a uniformly random legal action, from a seeded RNG of its own."""

from __future__ import annotations

import random
from typing import Any

from engine.match import Action
from engine.players.knowledge import legal_of


class RandomPlayer:
    """Picks any legal action; the arena's yardstick for the other players."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(f"sahra:random-player:{seed}")

    def decide(self, view: dict[str, Any]) -> Action:
        legal = legal_of(view)
        return legal[int(self._rng.random() * len(legal))]
