"""The league's screens: a chat's leaderboard, a player's stats and the chat's history.

Plain text for every platform, short enough for one message (Discord's 2,000 characters
included). Ratings are shown as one number (``shown``)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.render.common import team_key
from bot.render.i18n import isolate, joined, number, t, variant_name
from engine import VARIANTS
from storage.league import BoardEntry, FamilyStats, PastMatch

SHOWN_BASE = 1000
SHOWN_SCALE = 40


def shown(mu: float, sigma: float) -> int:
    """The one number players see of a rating: ``1000 + 40 × (μ − 3σ)``, a conservative
    estimate that starts at 1000 and rises as wins accumulate and the uncertainty shrinks."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def family_name(language: str, family: str) -> str:
    return t(language, f"family_{family}")


def percent(language: str, part: int, whole: int) -> str:
    return number(language, round(100 * part / whole)) + "%" if whole else "—"


def average(language: str, total: int, count: int) -> str:
    if not count:
        return "—"
    value = f"{total / count:.1f}".replace("-", "−")
    return isolate(value) if language == "ar" else value


def leaderboard_text(
    language: str, family: str, entries: Sequence[BoardEntry], min_matches: int
) -> str:
    title = t(language, "top_title", game=family_name(language, family))
    if not entries:
        return "\n".join([title, t(language, "top_empty", count=number(language, min_matches))])
    lines = [title]
    for place, entry in enumerate(entries, 1):
        lines.append(
            t(
                language,
                "top_line",
                place=number(language, place),
                name=isolate(entry.name),
                rating=number(language, shown(entry.mu, entry.sigma)),
                matches=number(language, entry.matches),
                wins=number(language, entry.wins),
            )
        )
    lines.append(t(language, "top_footer", count=number(language, min_matches)))
    return "\n".join(lines)


def stats_text(
    language: str,
    name: str,
    found: Sequence[tuple[FamilyStats, tuple[int, int] | None]],
    here: bool,
) -> str:
    """A player's figures per game, in the order given (the league's order of games);
    ``here``: counted in this chat only."""
    title = t(language, "stats_title_here" if here else "stats_title_all", name=isolate(name))
    if not found:
        return "\n".join([title, t(language, "stats_empty")])
    lines = [title]
    for entry, place in found:
        rating = (
            number(language, shown(entry.mu, entry.sigma))
            if entry.mu is not None and entry.sigma is not None
            else "—"
        )
        ranked = (
            t(
                language,
                "stats_rank",
                rank=number(language, place[0]),
                of=number(language, place[1]),
            )
            if place is not None
            else t(language, "stats_unranked")
        )
        lines.append(
            t(
                language,
                "stats_line",
                game=family_name(language, entry.family),
                matches=number(language, entry.matches),
                wins=number(language, entry.wins),
                rate=percent(language, entry.wins, entry.matches),
                rating=rating,
                rank=ranked,
            )
        )
        if entry.left:
            lines.append("   " + t(language, "stats_left", count=number(language, entry.left)))
        lines.append("   " + _figures_line(language, entry.family, entry.figures))
    return "\n".join(lines)


def _figures_line(language: str, family: str, figures: dict[str, int]) -> str:
    """What players of each game care about (the counters of ``bot.league.figures``)."""
    get = figures.get
    if family == "tarneeb":
        deals = get("deals", 0)
        return t(
            language,
            "stats_tarneeb",
            made=percent(language, get("bids_made", 0), deals),
            bid=average(language, get("bid_total", 0), deals),
        )
    if family == "solo":
        declared = get("declared", 0)
        return t(
            language,
            "stats_solo",
            declared=number(language, declared),
            made=percent(language, get("declared_made", 0), declared),
            bid=average(language, get("declared_bid_total", 0), declared),
            kaboot=number(language, get("kaboot", 0)),
        )
    return t(
        language,
        "stats_trix",
        kingdom=average(language, get("kingdom_points", 0), get("kingdoms_owned", 0)),
        won=number(language, get("doubles_won", 0)),
        lost=number(language, get("doubles_lost", 0)),
    )


def history_text(language: str, matches: Sequence[PastMatch], command: str) -> str:
    """The chat's last matches, newest first, each with the id ``sahra export`` and the
    match record take (``command`` shows how to ask for the record)."""
    if not matches:
        return "\n".join([t(language, "history_title"), t(language, "history_empty")])
    lines = [t(language, "history_title")]
    for past in matches:
        names = [
            isolate(name) + (f" {t(language, 'computer_mark')}" if computer else "")
            for name, computer in zip(past.names, past.computers, strict=True)
        ]
        if past.draw:
            outcome = t(language, "history_draw")
        else:
            outcome = t(
                language,
                "history_winners",
                names=joined(language, [names[seat] for seat in past.winners]),
            )
        if not VARIANTS[past.variant].teams:
            scores = " · ".join(number(language, score) for score in past.scores)
        else:
            teams = {"team_a": 0, "team_b": 0}
            for seat, score in enumerate(past.scores):
                teams[team_key(seat)] += score  # T41.1 / TX.1: partners sit opposite
            a, b = teams["team_a"], teams["team_b"]
            scores = (
                f"{t(language, 'team_a')} {number(language, a)} · "
                f"{t(language, 'team_b')} {number(language, b)}"
            )
        lines.append(
            t(
                language,
                "history_line",
                table=number(language, past.table_id),
                when=when(language, past.finished_at),
                game=variant_name(language, past.variant),
                players=joined(language, names),
                outcome=outcome,
                scores=scores,
            )
        )
    lines.append(t(language, "history_footer", command=command))
    return "\n".join(lines)


def when(language: str, at: float) -> str:
    """A match's end as a date and a UTC time (chats span time zones)."""
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime(at)) + " UTC"
    return isolate(stamp) if language == "ar" else stamp
