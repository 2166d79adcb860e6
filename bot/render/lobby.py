"""The lobby: variant, options, seats by team, who still has to open a DM, and buttons."""

from __future__ import annotations

from collections.abc import Callable

from bot.render.common import seat_name
from bot.render.i18n import isolate, joined, number, t, variant_name
from bot.render.model import Button, Screen, SeatInfo, Style, TableInfo
from engine import VARIANTS


def options_text(info: TableInfo) -> str:
    language, config = info.language, info.config
    parts = []
    if config.target is not None:
        parts.append(t(language, "opt_target", value=number(language, config.target)))
    parts.append(t(language, "opt_bid", value=number(language, config.bid_seconds)))
    parts.append(t(language, "opt_turn", value=number(language, config.turn_seconds)))
    parts.append(t(language, f"opt_difficulty_{config.difficulty}"))
    return t(language, "lobby_options", options=" · ".join(parts))


def seat_lines(info: TableInfo, mark: Callable[[SeatInfo | None], str]) -> list[str]:
    """The seats by team (partners sit opposite, T41.1), each after its ``mark``."""
    language = info.language
    teams = VARIANTS[info.config.variant].teams
    groups = [("team_a", (0, 2)), ("team_b", (1, 3))] if teams else [("", (0, 1, 2, 3))]
    lines = []
    for key, seats in groups:
        if key:
            lines.append(t(language, key))
        for seat in seats:
            occupant = info.seats[seat]
            name = seat_name(info, seat) if occupant else t(language, "seat_empty")
            line = t(language, "seat_line", seat=number(language, seat + 1), name=name)
            lines.append(f"  {mark(occupant)}{line}")
    return lines


def lobby_screen(info: TableInfo) -> Screen:
    if info.config.rematch_of is not None:
        return rematch_screen(info)
    language = info.language
    lines = [
        t(
            language,
            "lobby_title",
            variant=variant_name(language, info.variant),
            table=number(language, info.id),
        ),
        options_text(info),
        "",
    ]
    lines += seat_lines(info, lambda seat: "")
    pending = [isolate(s.name) for s in info.seats if s is not None and s.dm_pending]
    if pending:
        lines += ["", t(language, "dm_needed", names=joined(language, pending))]
    free = sum(1 for seat in info.seats if seat is None)
    lines += [
        "",
        t(language, "lobby_waiting", count=number(language, free))
        if free
        else t(language, "lobby_ready"),
    ]

    def button(key: str, kind: str, enabled: bool = True, style: Style = "secondary") -> Button:
        return Button(t(language, key), {"type": kind}, info.id, info.version, enabled, style)

    rows = (
        (
            button("btn_join", "join", free > 0, "primary"),
            button("btn_leave", "leave"),
            button("btn_add_computer", "add_computer", free > 0),
        ),
        (button("btn_start", "begin", free == 0, "success"), button("btn_rules", "rules")),
    )
    return Screen("\n".join(lines), rows)


def rematch_screen(info: TableInfo) -> Screen:
    """A rematch waiting for its players: who confirmed, and Ready / Swap partners."""
    language = info.language
    lines = [
        t(
            language,
            "rematch_title",
            variant=variant_name(language, info.variant),
            table=number(language, info.id),
            old=number(language, info.config.rematch_of or 0),
        ),
        options_text(info),
        "",
    ]

    def mark(seat: SeatInfo | None) -> str:
        if seat is None:
            return "· "
        if seat.computer:
            return "🤖 "
        return "✅ " if seat.ready else "⏳ "

    lines += seat_lines(info, mark)
    waiting = sum(1 for s in info.seats if s is not None and not s.computer and not s.ready)
    teams = VARIANTS[info.config.variant].teams
    lines += [
        "",
        t(
            language,
            "rematch_waiting",
            count=number(language, waiting),
            seconds=number(language, info.config.rematch_seconds),
        ),
    ]

    def button(key: str, kind: str, style: Style = "secondary") -> Button:
        return Button(t(language, key), {"type": kind}, info.id, info.version, True, style)

    first = [button("btn_ready", "ready", "success")]
    if teams:
        first.append(button("btn_swap", "swap"))
    rows = (tuple(first), (button("btn_leave", "leave"), button("btn_rules", "rules")))
    return Screen("\n".join(lines), rows)


__all__ = ["lobby_screen", "options_text", "rematch_screen"]
