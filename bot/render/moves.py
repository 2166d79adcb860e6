"""The public moves a page is shown one after another (``docs/web-protocol.md``, "moves").

A state frame carries the moves made since the state the same page was sent before, so the
page can play them in order (a card travelling to the trick, the whole trick, the bid on
its seat) even when several were committed together or frames were folded into one. Only
public events become moves: an event addressed to one seat (its hand, TX.7's secret
answer) never does, and a move names no card that was not played face up or revealed.
"""

from __future__ import annotations

from typing import Any

from bot.render.common import seat_name
from bot.render.i18n import card_label, card_words, suit, t
from bot.render.model import TableInfo

Event = dict[str, Any]


def page_moves(info: TableInfo, events: list[Event]) -> list[dict[str, Any]]:
    """The page's moves for ``events`` (public ones, oldest first), in the table's
    language; events a page shows nothing for are left out."""
    moves = []
    for event in events:
        if "to" in event:
            continue  # private: never on another page, and nothing to show on its own
        move = _move(info, event)
        if move is not None:
            moves.append(move)
    return moves


def played(language: str, seat: int, code: str) -> dict[str, Any]:
    """A card face up on the felt: its code, its label ("Q♥") and its name in words."""
    return {
        "seat": seat,
        "card": code,
        "label": card_label(code),
        "name": card_words(language, code),
    }


def _move(info: TableInfo, event: Event) -> dict[str, Any] | None:
    language = info.language
    kind = event["type"]
    if kind == "play":
        seat = int(event["seat"])
        card = played(language, seat, event["card"])
        said = t(language, "web_plays", name=seat_name(info, seat), card=card["name"])
        return {"kind": "play", **card, "say": said}
    if kind == "trick_won":
        leader, winner = int(event["leader"]), int(event["seat"])
        cards = [played(language, (leader + i) % 4, code) for i, code in enumerate(event["cards"])]
        said = t(language, "web_takes", name=seat_name(info, winner))
        return {"kind": "trick", "winner": winner, "cards": cards, "say": said}
    if kind == "deal":
        deal = int(event["deal_number"])
        return {"kind": "deal", "deal": deal, "say": t(language, "web_deal_no", deal=deal)}
    if kind in ("hand_scored", "deal_cancelled"):
        deal = int(event.get("deal_number") or 0)
        return {"kind": "result", "deal": deal, "say": t(language, "web_result_title", deal=deal)}
    if kind == "match_over":
        return {"kind": "over", "say": ""}
    announced = _announced(language, event)
    if announced is None:
        return None
    by = event.get("seat")
    text = f"{seat_name(info, int(by))}: {announced}" if by is not None else announced
    return {"kind": "say", "seat": by, "text": announced, "say": text}


def _announced(language: str, event: Event) -> str | None:
    """What a seat's choice reads as on its seat: a bid, a pass, trump, a contract."""
    kind = event["type"]
    if kind == "bid":
        value = event.get("value")
        if value == "pass" or value is None:
            return t(language, "btn_pass")
        return t(language, "web_bid_words", bid=value)
    if kind == "pass":
        return t(language, "btn_pass")
    if kind == "trump":
        return t(language, "web_trump_words", suit=suit(event["suit"]))
    if kind == "auction_won":
        return t(language, "web_bid_words", bid=event["bid"])
    if kind == "contract":
        return t(language, f"contract_{event['contract']}")
    if kind == "doubles_revealed":
        doubled = " ".join(card_label(d["card"]) for d in event.get("doubled") or [])
        return f"{t(language, 'web_doubles')}: {doubled or '—'}"
    return None
