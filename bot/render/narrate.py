"""One line per public event ("Badr bids 4", "Carla plays Q♥"): the console's running
commentary. Private events (``"to": seat``) are narrated only to that seat."""

from __future__ import annotations

from typing import Any

from bot.render.common import seat_name
from bot.render.i18n import card, joined, number, signed, suit, t
from bot.render.model import TableInfo
from bot.render.table import doubled_line


def narrate(info: TableInfo, event: dict[str, Any], audience: int | None = None) -> str | None:
    """The line for ``event`` as ``audience`` (a seat, or None for everyone) may hear it;
    None when there is nothing to say to them."""
    if "to" in event and event["to"] != audience:
        return None
    language = info.language
    kind = event["type"]

    def name(key: str = "seat") -> str:
        return seat_name(info, event[key])

    if kind == "bid":
        if event["value"] == "pass":
            return t(language, "ev_pass", name=name())
        return t(language, "ev_bid", name=name(), bid=number(language, event["value"]))
    if kind == "play":
        return t(language, "ev_play", name=name(), card=card(language, event["card"]))
    if kind == "pass":
        return t(language, "ev_pass", name=name())
    if kind == "trick_won":
        points = event.get("points")
        if points is not None:
            return t(
                language,
                "ev_trick_points",
                name=name(),
                points=signed(language, points[event["seat"]]),
            )
        return t(language, "ev_trick", name=name())
    if kind == "trump":
        return t(language, "ev_trump", name=name(), suit=suit(event["suit"]))
    if kind == "auction_won":
        return t(language, "ev_auction", name=name(), bid=number(language, event["bid"]))
    if kind == "contract":
        return t(
            language,
            "ev_contract",
            name=name(),
            contract=t(language, f"contract_{event['contract']}"),
        )
    if kind == "doubles_revealed":
        return doubled_line(info, event["doubled"])
    if kind in ("hand_emptied", "placed_fourth"):
        return t(
            language,
            "ev_out",
            name=name(),
            place=number(language, event["place"]),
            points=signed(language, event["points"]),
        )
    if kind == "deal":
        return t(language, "ev_deal", deal=number(language, event["deal_number"]))
    if kind == "deal_cancelled":
        return t(language, "ev_cancelled", total=number(language, event["total"]))
    if kind == "seat_taken_over":
        return t(language, "ev_taken_over", name=name())
    if kind == "seat_reclaimed":
        return t(language, "ev_reclaimed", name=name())
    if kind == "double_answered":
        cards = [card(language, c) for c in event["cards"]]
        return t(
            language, "your_answer", cards=joined(language, cards) or t(language, "answer_none")
        )
    return None
