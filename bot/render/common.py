"""Pieces every screen shares: seat names, team letters, tricks, deadlines, button rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.i18n import card, isolate, joined, number, suit, t
from bot.render.model import Button, TableInfo, TimerStyle
from engine.params import TRIX_COMPLEX

ROW_WIDTH = 5  # Discord allows 5 buttons a row; Telegram shows 5 cards a row comfortably


def seat_name(info: TableInfo, seat: int) -> str:
    occupant = info.seats[seat] if 0 <= seat < len(info.seats) else None
    if occupant is None:
        return isolate(f"#{seat + 1}")
    mark = f" {t(info.language, 'computer_mark')}" if occupant.computer else ""
    return isolate(occupant.name) + mark


def team_key(seat: int) -> str:
    """T41.1 / TX.1: seats 0 and 2 are team A, seats 1 and 3 team B."""
    return "team_a" if seat % 2 == 0 else "team_b"


def names(info: TableInfo, seats: Sequence[int]) -> str:
    return joined(info.language, [seat_name(info, seat) for seat in seats])


def plays(info: TableInfo, trick: Sequence[dict[str, Any]]) -> str:
    """A trick in play order: "Ali 10♥ · Badr Q♥"."""
    language = info.language
    return " · ".join(f"{seat_name(info, p['seat'])} {card(language, p['card'])}" for p in trick)


def partner(seat: int) -> int:
    """T41.1 / TX.1: partners sit opposite."""
    return (seat + 2) % 4


def completed_trick(info: TableInfo, trick: dict[str, Any], index: int | None = None) -> str:
    """A finished trick (a ``deal_tricks`` entry: leader, winner, its four cards in play
    order), on one line: "Last trick: Ali 10♥ · Badr Q♥ · … → Badr", or with its number
    in the deal ("Trick 5: …") when ``index`` (1-based) is given."""
    leader = trick["leader"]
    entries = [{"seat": (leader + i) % 4, "card": code} for i, code in enumerate(trick["cards"])]
    winner = seat_name(info, trick["winner"])
    if index is None:
        return t(info.language, "last_trick_line", plays=plays(info, entries), winner=winner)
    return t(
        info.language,
        "trick_n_line",
        n=number(info.language, index),
        plays=plays(info, entries),
        winner=winner,
    )


def completed_tricks(
    info: TableInfo, tricks: Sequence[dict[str, Any]], numbers: Sequence[int | None]
) -> list[str]:
    """Several finished tricks, oldest first, one line each; a lone one is "Last trick",
    several carry their numbers in the deal (when known) so they read in order."""
    if len(tricks) == 1:
        return [completed_trick(info, tricks[0])]
    return [completed_trick(info, trick, n) for trick, n in zip(tricks, numbers, strict=True)]


def with_deadline(info: TableInfo, line: str, timer: TimerStyle) -> str:
    """``line`` followed by the platform's deadline text, if it has one (``TimerStyle``)."""
    if info.deadline is None:
        return line
    text = timer(info.language, info.deadline)
    return f"{line} {text}" if text else line


def what_key(phase: str) -> str:
    """The catalog key of what a turn asks for in ``phase`` ("to bid", "to play" …): one
    word for the chats' turn lines and the web page's, so they never read differently."""
    return {
        "bidding": "what_bid",
        "trump": "what_trump",
        "contract": "what_contract",
        "doubling": "what_double",
    }.get(phase, "what_play")


def trump_lines(language: str, view: dict[str, Any]) -> list[str]:
    """The T41 shown card and the trump it makes (T41.4), or the solo trump (TS.6)."""
    if view.get("shown_card"):
        shown = card(language, view["shown_card"])
        return [t(language, "shown_line", card=shown, suit=suit(view["trump"]))]
    if view.get("trump"):
        return [t(language, "trump_line", suit=suit(view["trump"]))]
    return []


def kingdom_line(info: TableInfo, view: dict[str, Any]) -> str:
    """TX.3–TX.4: which kingdom, whose it is, and its contract (or that it is being chosen)."""
    language = info.language
    contract = view.get("contract")
    return t(
        language,
        "kingdom_line",
        kingdom=number(language, view["kingdom"]),
        kingdoms=TRIX_COMPLEX.kingdoms,  # TX.3
        owner=seat_name(info, view["owner"]),
        contract=t(language, f"contract_{contract}" if contract else "contract_choosing"),
    )


def solo_bid_lines(info: TableInfo, view: dict[str, Any]) -> list[str]:
    """TS.3–TS.6: the declarer and the contract, or the highest bid while the auction runs."""
    if view.get("declarer") is not None:
        key, seat = "declarer_line", view["declarer"]
    elif view.get("high_bidder") is not None:
        key, seat = "high_bid_line", view["high_bidder"]
    else:
        return []
    bid = number(info.language, view["contract_bid"])
    return [t(info.language, key, name=seat_name(info, seat), bid=bid)]


def rows_of(buttons: Sequence[Button], width: int = ROW_WIDTH) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + width]) for i in range(0, len(buttons), width)]
