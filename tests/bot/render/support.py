"""Shared pieces of the renderer tests: table facts, seeded matches driven by computer
players, and the plain-text form of a screen that the snapshots store."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import engine
from bot.render import Screen, SeatInfo, TableInfo
from bot.render.i18n import FSI, LRM, PDI
from bot.tables.config import TableConfig
from engine.players import new_player

VARIANTS = ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")
LANGUAGES = ("ar", "en")
NOW = 1_000.0
TABLE_ID = 7
VERSION = 42
# A Latin and an Arabic name side by side show that names keep their own direction.
SEATS: tuple[SeatInfo | None, ...] = (
    SeatInfo("Ali"),
    SeatInfo("Badr", computer=True),
    SeatInfo("ليلى"),
    SeatInfo("Dina"),
)
HEURISTIC = new_player("heuristic")


def table(
    variant: str,
    language: str,
    *,
    seats: Sequence[SeatInfo | None] = SEATS,
    status: str = "running",
    deadline: float | None = NOW + 45,
    table_id: int = TABLE_ID,
    version: int = VERSION,
    **config: Any,
) -> TableInfo:
    return TableInfo(
        id=table_id,
        config=TableConfig(variant=variant, language=language, **config),  # type: ignore[arg-type]
        status=status,
        version=version,
        seats=tuple(seats),
        deadline=deadline,
        creator="Ali",
    )


def step(match: engine.Match, player: Any = HEURISTIC) -> list[dict[str, Any]]:
    """One action of the first seat to act, chosen by ``player`` from its own view."""
    seat = match.to_act[0]
    return match.apply(seat, player.decide(match.view(seat)))


def drive(
    match: engine.Match,
    until: Callable[[engine.Match], bool],
    player: Any = HEURISTIC,
    limit: int = 5_000,
) -> engine.Match:
    """Let ``player`` play every seat until ``until(match)`` holds."""
    for _ in range(limit):
        if until(match):
            return match
        if match.result is not None:
            break
        step(match, player)
    raise AssertionError("the match never reached the wanted position")


def finish(match: engine.Match, player: Any = HEURISTIC) -> engine.Match:
    return drive(match, lambda m: m.result is not None, player, limit=100_000)


def plain(text: str) -> str:
    """The text without its direction marks (FSI, PDI, LRM)."""
    return text.replace(FSI, "").replace(PDI, "").replace(LRM, "")


def screen_text(screen: Screen) -> str:
    """A screen as a snapshot stores it: the text, then one line per button row."""
    lines = [screen.text, "---buttons---"]
    for row in screen.rows:
        lines.append(" | ".join(b.label + ("" if b.enabled else "[x]") for b in row))
    return "\n".join(lines) + "\n"


def mid_trick(match: engine.Match, tricks: int, cards: int) -> bool:
    view = match.view(None)
    return (
        match.phase == "playing"
        and len(view["deal_tricks"]) >= tricks
        and len(view["trick"]) == cards
    )
