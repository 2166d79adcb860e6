"""The score sheet after each deal and the final result. Both read only public figures
(bids, tricks, deltas, totals, counts of doubles). The only cards a deal sheet names are
those of the deal's final tricks, when the caller passes them (``recent_tricks``): every
one of them was played face up before the group saw the sheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.common import completed_tricks, seat_name, team_key
from bot.render.i18n import joined, number, signed, t, variant_name
from bot.render.model import Button, Screen, TableInfo
from bot.render.table import rows_lines
from engine import VARIANTS
from engine.params import PARTNERSHIP_PARAMS


def deal_sheet(
    info: TableInfo,
    event: dict[str, Any],
    recent_tricks: Sequence[dict[str, Any]] | None = None,
) -> Screen | None:
    """The sheet a deal's end posts in the chat: its scores (``hand_scored``), or why it was
    cancelled and redealt (``deal_cancelled``, T41.6 / T41D.3); None for other events.

    ``recent_tricks``: the deal's final tricks the group has not seen yet (``deal_tricks``
    entries, oldest first), shown above the scores so every card played reaches the
    group."""
    if event["type"] == "hand_scored":
        return score_sheet(info, event, event.get("team_scores"), recent_tricks)
    if event["type"] == "deal_cancelled":
        return score_sheet(info, {**event, "cancelled": True}, None)
    return None


def score_sheet(
    info: TableInfo,
    entry: dict[str, Any],
    team_scores: list[int] | None,
    recent_tricks: Sequence[dict[str, Any]] | None = None,
) -> Screen:
    """One deal's sheet from its history entry (``view["history"][-1]``) or its
    ``hand_scored`` event (only the public figures are read), with its final tricks when
    ``recent_tricks`` are given."""
    language = info.language
    deal = number(language, entry["deal_number"])
    if entry.get("cancelled"):
        return _cancelled(info, entry)
    lines = [t(language, "sheet_title", deal=deal)]
    if recent_tricks:
        # The final tricks of the deal: the last is trick number "all tricks taken".
        played = sum(entry["tricks"]) if entry.get("tricks") else None
        count = len(recent_tricks)
        numbers = [None if played is None else played - count + 1 + i for i in range(count)]
        lines += completed_tricks(info, recent_tricks, numbers)
        lines.append("")
    if entry.get("rows"):
        # A Trix contract's final layout (TX.9): the cards laid since the group's last
        # table screen reach it here, as the tricks of a trick game do above.
        lines += rows_lines(info, {"rows": entry["rows"]}, out=False)
        lines.append("")
    variant = info.variant
    for seat in range(4):
        parts: list[str] = []
        if variant in PARTNERSHIP_PARAMS:
            bid = entry["bids"][seat]
            doubles = PARTNERSHIP_PARAMS[variant].doubles(bid)  # T41D.4
            mark = f" {t(language, 'double_mark')}" if doubles else ""
            made = entry["tricks"][seat] >= bid
            parts.append(t(language, "bid_value", bid=number(language, bid)) + mark)
            parts.append(
                t(language, "tricks_value", tricks=number(language, entry["tricks"][seat]))
            )
            parts.append(t(language, "made" if made else "failed"))
        elif VARIANTS[variant].bidding == "auction":
            if seat == entry["declarer"]:
                parts.append(t(language, "bid_value", bid=number(language, entry["bid"])))
            parts.append(
                t(language, "tricks_value", tricks=number(language, entry["tricks"][seat]))
            )
            if seat == entry["declarer"]:
                made = entry["tricks"][seat] >= entry["bid"]  # TS.8
                parts.append(t(language, "made" if made else "failed"))
        elif entry.get("contract") == "complex":
            parts.append(
                t(language, "tricks_value", tricks=number(language, entry["tricks"][seat]))
            )
            doubles = entry.get("doubles", [0, 0, 0, 0])[seat]
            if doubles:
                parts.append(t(language, "doubles_count", count=number(language, doubles)))
        else:
            order = [*entry.get("finished_order", []), entry.get("fourth")]
            if seat in order:
                parts.append(
                    t(language, "place_value", place=number(language, order.index(seat) + 1))
                )
        parts.append(
            t(
                language,
                "delta_total",
                delta=signed(language, entry["deltas"][seat]),
                total=number(language, entry["scores"][seat]),
            )
        )
        lines.append(
            t(language, "sheet_line", name=seat_name(info, seat), details=" · ".join(parts))
        )
    if team_scores is not None:
        a, b = team_scores
        lines.append(
            f"{t(language, 'team_a')}: {number(language, a)} · {t(language, 'team_b')}:"
            f" {number(language, b)}"
        )
    return Screen("\n".join(lines))


def _cancelled(info: TableInfo, entry: dict[str, Any]) -> Screen:
    """T41.6 / T41D.3: the bids, their total against the minimum, and the redeal."""
    language = info.language
    bids = entry["bids"]
    total = sum(b for b in bids if isinstance(b, int))
    needed = entry.get("needed") or PARTNERSHIP_PARAMS[info.variant].min_total
    lines = [
        t(
            language,
            "sheet_cancelled",
            deal=number(language, entry["deal_number"]),
            total=number(language, total),
            needed=number(language, needed),
        )
    ]
    dealer = entry.get("dealer")
    # In bidding order (T41.5) when the dealer is known, else by seat.
    order = [(dealer + 1 + i) % 4 for i in range(4)] if dealer is not None else range(4)
    for seat in order:
        bid = bids[seat]
        shown = (
            t(language, "bid_none")
            if bid is None
            else t(language, "bid_value", bid=number(language, bid))
        )
        lines.append(t(language, "sheet_line", name=seat_name(info, seat), details=shown))
    lines.append(t(language, "sheet_redeal"))  # T41.2: the next dealer, a fresh shuffle
    return Screen("\n".join(lines))


def result_screen(info: TableInfo, view: dict[str, Any]) -> Screen:
    """The end of a table: the winners (or a draw, or why it ended) and the final scores."""
    language = info.language
    lines = [t(language, "result_title", variant=variant_name(language, info.variant))]
    result = view.get("result")
    if result is None:
        key = {"stopped": "result_stopped", "abandoned": "result_abandoned"}.get(
            info.status, "result_expired"
        )
        lines.append(t(language, key))
    elif result["draw"]:
        lines.append(t(language, "result_draw"))
    else:
        winners = [seat_name(info, seat) for seat in result["winners"]]
        lines.append(t(language, "result_winners", names=joined(language, winners)))
    if view.get("deal_number"):
        lines += ["", t(language, "final_scores")]
        for seat in range(4):
            team = f" ({t(language, team_key(seat))})" if view["team_scores"] is not None else ""
            lines.append(
                f"• {seat_name(info, seat)}{team}: {number(language, view['scores'][seat])}"
            )
        if view["team_scores"] is not None:
            a, b = view["team_scores"]
            lines.append(
                f"{t(language, 'team_a')}: {number(language, a)} · {t(language, 'team_b')}:"
                f" {number(language, b)}"
            )
    return Screen("\n".join(lines), _after_match(info, played=bool(view.get("deal_number"))))


def _after_match(info: TableInfo, played: bool) -> tuple[tuple[Button, ...], ...]:
    """A finished match offers a rematch; any match that was played, its whole record
    (every hand, for its players only, now that no card is hidden any more)."""
    language = info.language
    buttons = []
    if info.status == "finished":
        buttons.append(
            Button(
                t(language, "btn_rematch"),
                {"type": "rematch"},
                info.id,
                info.version,
                style="success",
            )
        )
    if played:
        buttons.append(
            Button(t(language, "btn_record"), {"type": "record"}, info.id, info.version)
        )
    return (tuple(buttons),) if buttons else ()


__all__ = ["deal_sheet", "result_screen", "score_sheet"]
