"""Ratings: openskill's Plackett-Luce model, made for teams and free-for-all alike.

Why openskill (Weng-Lin Bayesian ratings) and not Elo or Glicko: a Tarneeb or Trix match
is two teams of two, Solo is four players for themselves, and a table may seat
computers. Plackett-Luce rates any number of teams of any size from one ranking, keeps an
uncertainty per player (a newcomer moves fast, a regular slowly), is pure arithmetic
(deterministic, so a rebuild from the results gives the same numbers) and is
patent-free, unlike TrueSkill.

- Team variants rate the two partners as a team (T41.1, TX.11); Solo rates four players,
  ranked by their final scores (TS.9).
- A computer seat plays at a fixed rating per difficulty that is never updated, so a
  match with computers still rates its humans.
- Whoever left a running match (or was taken over and never reclaimed it) takes the loss,
  as Jawaker counts it: their new rating is the one they would get had their side come
  last, whatever the computer that finished for them did. Their partner is rated by what
  really happened.
- One number is shown (``bot.render.league.shown``): ``1000 + 40 × (μ − 3σ)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # μ 25, σ 25/3, β 25/6: openskill's defaults
START = (MODEL.mu, MODEL.sigma)
# Fixed (μ, σ) of the computer players, never updated: "easy" a little under a new
# human's μ, "hard" (which beats "easy" about three times in four) above it.
COMPUTER_RATINGS = {"easy": (22.0, 1.0), "hard": (28.0, 1.0)}
TEAMS = ((0, 2), (1, 3))  # partners sit opposite (T41.1, TX.1)


@dataclass(frozen=True)
class SeatRating:
    """A seat going into the rating: a human's current rating, or a computer's fixed one
    (``human`` False: never updated)."""

    mu: float
    sigma: float
    human: bool = True
    left: bool = False


def computer(difficulty: str) -> SeatRating:
    mu, sigma = COMPUTER_RATINGS.get(difficulty, COMPUTER_RATINGS["easy"])
    return SeatRating(mu, sigma, human=False)


def rate(
    team_game: bool,
    seats: Sequence[SeatRating],
    winners: Sequence[int],
    draw: bool,
    scores: Sequence[int],
) -> list[tuple[float, float] | None]:
    """Each seat's new (μ, σ); None for a computer seat."""
    if team_game:
        groups = [list(team) for team in TEAMS]
        winning = {team for team, seats_ in enumerate(TEAMS) if set(seats_) & set(winners)}
        ranks = [1, 1] if draw or len(winning) != 1 else [1 if t in winning else 2 for t in (0, 1)]
    else:
        groups = [[seat] for seat in range(4)]
        # TS.9: the highest score wins; the others are ranked by their scores too.
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
    played = _rated(groups, seats, ranks)
    new: list[tuple[float, float] | None] = [
        played[seat] if seat_rating.human else None for seat, seat_rating in enumerate(seats)
    ]
    for seat, seat_rating in enumerate(seats):
        if seat_rating.human and seat_rating.left:
            group = next(g for g, members in enumerate(groups) if seat in members)
            # The leaver's side comes last: below everyone, tied with nobody.
            others = [1] * len(groups) if team_game else ranks
            forced = [len(groups) + 1 if g == group else rank for g, rank in enumerate(others)]
            new[seat] = _rated(groups, seats, forced)[seat]
    return new


def _rated(
    groups: list[list[int]], seats: Sequence[SeatRating], ranks: list[int]
) -> dict[int, tuple[float, float]]:
    teams = [[MODEL.rating(mu=seats[s].mu, sigma=seats[s].sigma) for s in g] for g in groups]
    result = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return {
        seat: (rating.mu, rating.sigma)
        for members, rated in zip(groups, result, strict=True)
        for seat, rating in zip(members, rated, strict=True)
    }
