"""Computer players at the tables: which player a table's difficulty means, and where it
thinks.

"easy" is the heuristic player: instant, so it runs inline. "hard" is the search player:
tens of milliseconds of pure CPU, so it runs off the event loop — in the loop's default
worker threads, or in the executor given to ``Computers`` (``decide`` is a module-level
function of plain data, so a process pool works too) — and a busy table never holds up
the others.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import Any, Literal

from engine.players import DIFFICULTIES, new_player

Difficulty = Literal["easy", "hard"]


def decide(kind: str, seed: int, view: dict[str, Any], rollouts: int) -> dict[str, Any]:
    """One decision of a fresh player (module level, so a process pool can run it). The
    search player's RNG is seeded from ``seed`` and the view, so the answer does not
    depend on which worker gives it."""
    budget = {"rollouts": rollouts} if kind == "search" else {}
    return new_player(kind, seed, **budget).decide(view)


class Computers:
    """Decides computer moves for the table manager."""

    def __init__(self, executor: Executor | None = None, rollouts: int = 360) -> None:
        self.executor = executor
        self.rollouts = rollouts

    def thinks_long(self, difficulty: Difficulty) -> bool:
        return DIFFICULTIES[difficulty] == "search"

    async def decide(
        self, difficulty: Difficulty, seed: int, view: dict[str, Any]
    ) -> dict[str, Any]:
        kind = DIFFICULTIES[difficulty]
        if not self.thinks_long(difficulty):
            return decide(kind, seed, view, self.rollouts)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, decide, kind, seed, view, self.rollouts)
