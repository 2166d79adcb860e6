"""Computer players: they decide from ``Match.view(seat)`` alone, never from hidden state.

>>> import engine
>>> from engine.players import new_player
>>> m = engine.new_match("syrian41", seed=7)
>>> seat = m.to_act[0]
>>> action = new_player("heuristic").decide(m.view(seat))
>>> action in m.legal_actions(seat)
True

``random`` is the arena's baseline, ``heuristic`` plays by rules of thumb at once (the
tables' "easy"), ``search`` runs determinized Monte Carlo over the heuristic ("hard").
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.match import Action
from engine.players.heuristic import HeuristicPlayer
from engine.players.random_play import RandomPlayer
from engine.players.search import SearchPlayer

PLAYER_KINDS = ("random", "heuristic", "search")
DIFFICULTIES = {"easy": "heuristic", "hard": "search"}


class Player(Protocol):
    name: str

    def decide(self, view: dict[str, Any]) -> Action:
        """One of ``view["legal_actions"]``, chosen from the view alone."""
        ...


def new_player(kind: str, seed: int = 0, **budget: int) -> Player:
    """A player by kind; ``seed`` makes its random choices reproducible; ``budget``
    (search only) sets ``rollouts``, ``min_worlds``, ``exact_cards`` and ``exact_worlds``."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "heuristic":
        return HeuristicPlayer()
    if kind == "search":
        return SearchPlayer(seed, **budget)
    raise ValueError(f"unknown player kind {kind!r}; choose from {', '.join(PLAYER_KINDS)}")


__all__ = [
    "DIFFICULTIES",
    "PLAYER_KINDS",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "new_player",
]
