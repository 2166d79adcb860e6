"""The public table, drawn from the spectator view (``view(None)``) only — so no hidden
card can reach the group by construction.

The group message is edited only now and then, so it shows every trick completed since
the group last saw it (``recent_tricks``), and its turn line carries no frozen countdown:
the platform's ``TimerStyle`` says how (or whether) a deadline is shown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.common import (
    completed_tricks,
    kingdom_line,
    names,
    plays,
    seat_name,
    solo_bid_lines,
    team_key,
    trump_lines,
    what_key,
    with_deadline,
)
from bot.render.i18n import card, joined, ltr, number, signed, suit, t, variant_name
from bot.render.model import Button, Screen, TableInfo, TimerStyle, no_timer
from engine import VARIANTS
from engine.params import PARTNERSHIP_PARAMS, TARNEEB_SOLO, TRIX_COMPLEX

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_INDEX = {code: index for index, code in enumerate("23456789TJQKA")}
ROW_SUITS = "SHDC"  # the rows as players lay them out: ♠ ♥ ♦ ♣


def table_screen(
    info: TableInfo,
    view: dict[str, Any],
    *,
    timer: TimerStyle = no_timer,
    recent_tricks: Sequence[dict[str, Any]] | None = None,
) -> Screen:
    """The group's table message: header, one line per seat, the tricks, the turn.

    ``timer``: how the platform shows the turn's deadline (``no_timer``: the turn line
    only names who is to act). ``recent_tricks``: the tricks completed since the group
    last saw the table (``deal_tricks`` entries, oldest first), all drawn so that every
    card played reaches the group; None or empty: the view's last trick."""
    if view.get("seat") is not None:
        raise ValueError("the public table is drawn from the spectator view only")
    language = info.language
    variant = view["variant"]
    lines = [
        t(
            language,
            "table_title",
            variant=variant_name(language, variant),
            table=number(language, info.id),
            deal=number(language, view["deal_number"]),
        )
    ]
    lines += _header(info, view)
    lines.append("")
    turn = view["turn"]
    for seat in range(4):
        marker = "▶ " if seat in turn else "• "
        # One bracket after the name: its team, and whether a computer plays for the
        # absent owner ("Bilal (Team B · computer playing)").
        notes = [t(language, team_key(seat))] if view["team_scores"] is not None else []
        occupant = info.seats[seat] if seat < len(info.seats) else None
        if occupant is not None and occupant.away:
            notes.append(t(language, "away_mark"))
        team = f" ({' · '.join(notes)})" if notes else ""
        details = " · ".join(seat_details(info, view, seat))
        name = seat_name(info, seat)
        lines.append(
            t(
                language,
                "player_line",
                marker=marker,
                name=name,
                team=team,
                details=details,
            )
        )
    lines.append(standing_line(info, view))
    lines.append("")
    lines += play_area(info, view, recent_tricks)
    lines.append(_turn_line(info, view, timer))
    buttons = (
        (
            Button(
                t(language, "btn_hand"), {"type": "hand"}, info.id, info.version, True, "primary"
            ),
            Button(t(language, "btn_rules"), {"type": "rules"}, info.id, info.version),
        ),
    )
    return Screen("\n".join(line for line in lines if line is not None).strip(), buttons)


def _header(info: TableInfo, view: dict[str, Any]) -> list[str]:
    language = info.language
    variant = view["variant"]
    if VARIANTS[variant].bidding == "kingdoms":
        contract = view["contract"]
        lines = [kingdom_line(info, view)]
        if view.get("doubling"):
            lines.append(t(language, "doubling_open"))
        elif contract == "complex":
            lines.append(doubled_line(info, view["doubled"]))
        return lines
    lines = [t(language, "dealer_line", dealer=seat_name(info, view["dealer"]))]
    lines += trump_lines(language, view)
    if VARIANTS[variant].bidding == "auction":
        lines += solo_bid_lines(info, view)
    return lines


def doubled_line(info: TableInfo, doubled: list[dict[str, Any]]) -> str:
    """TX.7–TX.8: revealed doubles with their ×2 mark and doubler."""
    language = info.language
    if not doubled:
        return t(language, "no_doubles")
    cards = [
        f"{card(language, d['card'])}{t(language, 'double_mark')} ({seat_name(info, d['seat'])})"
        for d in doubled
    ]
    return t(language, "doubled_line", cards=joined(language, cards))


def seat_details(
    info: TableInfo, view: dict[str, Any], seat: int, *, bids: bool = True
) -> list[str]:
    """A seat's public figures: its bid (Tarneeb; ``bids=False`` leaves it out), tricks
    taken, this deal's points and cards left (Trix), and its score."""
    language = info.language
    variant = view["variant"]
    parts = []
    if VARIANTS[variant].bidding != "kingdoms" and bids:
        bid = view["bids"][seat]
        if bid is None:
            parts.append(t(language, "bid_none"))
        elif bid == "pass":
            parts.append(t(language, "bid_pass"))
        else:
            parts.append(t(language, "bid_value", bid=number(language, bid)))
    if view["phase"] == "playing" and view.get("contract") != "trix":
        parts.append(
            t(language, "tricks_value", tricks=number(language, view["tricks_won"][seat]))
        )
    if VARIANTS[variant].bidding == "kingdoms" and view.get("contract"):
        parts.append(
            t(language, "points_value", points=signed(language, view["deal_points"][seat]))
        )
        if view["contract"] == "trix":
            parts.append(
                t(language, "cards_left", count=number(language, view["hand_sizes"][seat]))
            )
    parts.append(t(language, "score_value", score=number(language, view["scores"][seat])))
    return parts


def standing_line(info: TableInfo, view: dict[str, Any]) -> str:
    """The team totals and the target (T41.9, TX.11), or the solo target (TS.1)."""
    language = info.language
    if view["team_scores"] is not None:
        a, b = view["team_scores"]
        target = view.get("target")
        if VARIANTS[view["variant"]].bidding == "kingdoms":
            return (
                f"{t(language, 'team_a')}: {number(language, a)} · {t(language, 'team_b')}:"
                f" {number(language, b)} · {t(language, 'trix_target', deals=TRIX_COMPLEX.deals)}"
            )
        return t(
            language,
            "team_scores",
            team_a=t(language, "team_a"),
            team_b=t(language, "team_b"),
            a=number(language, a),
            b=number(language, b),
            target=number(language, target or PARTNERSHIP_PARAMS[view["variant"]].target),
        )
    target = view.get("target") or TARNEEB_SOLO.default_target
    return t(language, "solo_target", target=number(language, target))


def play_area(
    info: TableInfo,
    view: dict[str, Any],
    recent_tricks: Sequence[dict[str, Any]] | None = None,
) -> list[str]:
    """The Trix rows (TX.9) and who is out, or the completed trick(s) and the trick in
    play, oldest first."""
    if view.get("contract") == "trix":
        return rows_lines(info, view)
    if view["phase"] != "playing":
        return []
    lines = trick_history(info, view, recent_tricks)
    lines.append(current_trick(info, view))
    return lines


def rows_lines(info: TableInfo, view: dict[str, Any], *, out: bool = True) -> list[str]:
    """The four Trix rows on their strips and (``out``) the order in which players went
    out."""
    language = info.language
    lines = [t(language, "rows_title")]
    lines += [
        f"{suit(letter)} {ltr(language, rows_strip(view['rows'][letter]))}" for letter in ROW_SUITS
    ]
    if out and view["finished_order"]:
        order = [
            f"{number(language, place + 1)}. {seat_name(info, seat)}"
            for place, seat in enumerate(view["finished_order"])
        ]
        lines.append(t(language, "finished_line", order=joined(language, order)))
    return lines


def current_trick(info: TableInfo, view: dict[str, Any]) -> str:
    trick = view["trick"]
    if not trick:
        return t(info.language, "trick_empty")
    return t(info.language, "trick_line", plays=plays(info, trick))


def trick_history(
    info: TableInfo,
    view: dict[str, Any],
    recent_tricks: Sequence[dict[str, Any]] | None = None,
) -> list[str]:
    """``recent_tricks`` (numbered by their place in the deal), or the deal's last
    completed trick with all four cards and its winner."""
    deal_tricks: list[dict[str, Any]] = view.get("deal_tricks") or []
    if recent_tricks:
        # A deal's cards are all different, so a trick's cards tell its place.
        places = {tuple(trick["cards"]): n for n, trick in enumerate(deal_tricks, 1)}
        numbers = [places.get(tuple(trick["cards"])) for trick in recent_tricks]
        return completed_tricks(info, recent_tricks, numbers)
    if not deal_tricks:
        return []
    return completed_tricks(info, deal_tricks[-1:], [len(deal_tricks)])


def rows_strip(row: dict[str, str] | None) -> str:
    """One Trix row on a 13-slot strip, 2 to A, laid cards shown, the rest "·"; the J is
    always in the same column, so the four rows line up around the jacks (TX.9)."""
    low = high = -1
    if row is not None:
        low, high = RANK_INDEX[row["low"][0]], RANK_INDEX[row["high"][0]]
    return " ".join(RANKS[r] if low <= r <= high else "·" for r in range(13))


def _turn_line(info: TableInfo, view: dict[str, Any], timer: TimerStyle) -> str:
    language = info.language
    if view["phase"] == "finished":
        return ""
    if view.get("doubling"):
        return with_deadline(info, t(language, "waiting_doubles"), timer)
    turn = view["turn"]
    if not turn:
        return ""
    line = t(
        language, "turn_line", names=names(info, turn), what=t(language, what_key(view["phase"]))
    )
    return with_deadline(info, line, timer)
