"""The replay of one finished deal, for the page (``docs/web-protocol.md``, "replay").

Read from the deal's record (``engine.records``: the table's log replayed): the four hands
as dealt, the bidding or contract and its doubles as readable steps, every card in play
order with its trick and, on a trick's last card, who took it, and the deal's result as
the page's result card draws it (``page.deal_result``), so a replay ends on the very
table the players saw. Every hand of the deal is named, so it is for a deal that has
ended only: the caller checks that (``bot.web.replays``), never this module.
"""

from __future__ import annotations

from typing import Any

from bot.render.common import seat_name
from bot.render.i18n import (
    CATALOG,
    card,
    card_label,
    card_words,
    joined,
    language_of,
    number,
    suit,
    suit_words,
    t,
)
from bot.render.model import TableInfo
from bot.render.page import SUIT_ORDER, deal_result
from engine import VARIANTS
from engine.params import PARTNERSHIP_PARAMS, TRIX_COMPLEX
from engine.records import DealRecord

RANKS = "23456789TJQKA"
# The replay's own texts, sent with it (the page's other texts come in the welcome).
REPLAY_STRINGS = (
    "replay_hands",
    "replay_auction",
    "replay_play",
    "replay_result",
    "replay_previous",
    "replay_next",
    "replay_start",
    "replay_end",
    "replay_close",
    "replay_step",
    "replay_note",
    "replay_pending",
    "replay_no_analysis",
    "replay_cost",
)


def replay_view(
    info: TableInfo,
    deal: DealRecord,
    *,
    target: int | None,
    analysis: dict[str, Any],
) -> dict[str, Any]:
    """The replay of ``deal`` (finished or cancelled) in the table's language.
    ``analysis``: the stored analysis, or ``{"status": "pending"}`` / ``{"status": "none"}``;
    ``target``: the match's target, shown on the result card as on the table."""
    language = info.language
    teams = deal.team_scores is not None
    return {
        "table": info.id,
        "deal": deal.number,
        "title": t(language, "replay_title", deal=deal.number),
        "variant": info.variant,
        "language": language,
        "dir": "rtl" if language == "ar" else "ltr",
        "seats": [
            {
                "seat": seat,
                "name": occupant.name if (occupant := info.seats[seat]) is not None else "",
                "team": seat % 2 if teams else None,  # T41.1 / TX.1: partners sit opposite
                "dealer": deal.dealer == seat,
                "owner": deal.owner == seat,  # TX.3's kingdom
            }
            for seat in range(4)
        ],
        "trump": _trump(language, deal.trump),
        "hands": [_hand(language, cards) for cards in deal.hands],
        "auction": _auction(info, deal),
        "plays": _plays(info, deal),
        "result": deal_result(info, _entry(info.variant, deal), _after(deal, target)),
        "analysis": _explained(info, analysis),
        "note": t(language, "replay_note"),
        # As written: ``replay_step`` keeps its ``{step}`` and ``{steps}`` for the page.
        "strings": {key: CATALOG[language_of(language)][key] for key in REPLAY_STRINGS},
    }


def _explained(info: TableInfo, analysis: dict[str, Any]) -> dict[str, Any]:
    """The analysis as stored (``engine.review``), with its figures said in words for the
    result step: each seat's cost of its marked cards, each side's double-dummy tricks
    against its bid. The page draws the per-card marks from ``cards`` itself."""
    if "cards" not in analysis:
        return analysis
    language = info.language
    unit = t(language, f"replay_unit_{analysis.get('unit', 'tricks')}")
    lines = []
    for side in analysis.get("sides") or []:
        if side.get("makeable") is None:
            continue
        names = joined(language, [seat_name(info, seat) for seat in side["seats"]])
        bid = side.get("bid")
        lines.append(
            t(
                language,
                "replay_side" if bid is not None else "replay_side_no_bid",
                names=names,
                makeable=number(language, side["makeable"]),
                bid=number(language, bid or 0),
                took=number(language, side["took"]),
            )
        )
    for seat, lost in enumerate(analysis.get("lost") or []):
        if lost:
            lines.append(
                t(
                    language,
                    "replay_lost",
                    name=seat_name(info, seat),
                    lost=number(language, lost),
                    unit=unit,
                )
            )
    if not any(card.get("method") for card in analysis["cards"]):
        lines.append(t(language, "replay_not_exact"))
    return {**analysis, "status": "done", "unit_words": unit, "lines": lines}


def _card(language: str, code: str) -> dict[str, Any]:
    return {
        "card": code,
        "label": card_label(code),
        "name": card_words(language, code),
        "suit": code[1],
    }


def _hand(language: str, cards: tuple[str, ...]) -> list[dict[str, Any]]:
    """A hand as dealt, by suit in the page's order (colours alternating), low to high."""
    ordered = sorted(cards, key=lambda code: (SUIT_ORDER.index(code[1]), RANKS.index(code[0])))
    return [_card(language, code) for code in ordered]


def _trump(language: str, letter: str | None) -> dict[str, Any] | None:
    if letter is None:
        return None
    name = t(language, "web_trump_words", suit=suit_words(language, letter))
    return {"suit": letter, "text": suit(letter), "name": name}


def _step(info: TableInfo, seat: int | None, kind: str, text: str) -> dict[str, Any]:
    said = (
        text
        if seat is None
        else t(info.language, "web_says", name=seat_name(info, seat), said=text)
    )
    return {"seat": seat, "kind": kind, "text": text, "say": said}


def _auction(info: TableInfo, deal: DealRecord) -> list[dict[str, Any]]:
    """How the deal's contract came about, one readable step each: the shown card and
    bids (T41.4–T41.6), the auction, its winner and trump (TS.3–TS.6), the kingdom's
    contract and the doubles revealed (TX.3–TX.7)."""
    language = info.language
    steps: list[dict[str, Any]] = []
    variant = info.variant
    if deal.shown_card is not None and deal.trump is not None:  # T41.4
        shown = t(
            language, "shown_line", card=card(language, deal.shown_card), suit=suit(deal.trump)
        )
        steps.append({**_step(info, deal.dealer, "shown", shown), "card": deal.shown_card})
    if variant in PARTNERSHIP_PARAMS:
        first = deal.dealer if deal.dealer is not None else 3
        for seat in ((first + i) % 4 for i in range(1, 5)):  # T41.5: the dealer bids last
            value = deal.bids[seat]
            if value is None:
                steps.append(_step(info, seat, "pass", t(language, "btn_pass")))
            else:
                steps.append(_step(info, seat, "bid", t(language, "web_bid_words", bid=value)))
        if deal.cancelled:
            total = sum(bid for bid in deal.bids if bid is not None)
            needed = deal.needed or PARTNERSHIP_PARAMS[variant].min_total
            text = t(
                language,
                "sheet_cancelled",
                deal=number(language, deal.number),
                total=number(language, total),
                needed=number(language, needed),
            )
            steps.append(_step(info, None, "cancelled", text))
    elif VARIANTS[variant].bidding == "auction":
        for seat, call in deal.auction:  # TS.3
            if call == "pass":
                steps.append(_step(info, seat, "pass", t(language, "btn_pass")))
            else:
                steps.append(_step(info, seat, "bid", t(language, "web_bid_words", bid=call)))
        if deal.declarer is not None and deal.bid is not None:  # TS.6
            text = t(language, "web_bid_words", bid=deal.bid)
            steps.append(_step(info, deal.declarer, "won", text))
            if deal.trump is not None:
                text = t(language, "web_trump_words", suit=suit(deal.trump))
                steps.append(_step(info, deal.declarer, "trump", text))
    elif deal.kingdom is not None and deal.owner is not None:  # TX.3–TX.4
        contract = t(
            language, f"contract_{deal.contract}" if deal.contract else "contract_choosing"
        )
        text = t(
            language,
            "kingdom_line",
            kingdom=number(language, deal.kingdom),
            kingdoms=number(language, TRIX_COMPLEX.kingdoms),
            owner=seat_name(info, deal.owner),
            contract=contract,
        )
        steps.append({**_step(info, deal.owner, "contract", text), "contract": deal.contract})
        if deal.contract == "complex":  # TX.7: revealed together
            for code, seat in deal.doubled:
                text = f"{t(language, 'web_doubles')}: {card(language, code)}"
                steps.append({**_step(info, seat, "double", text), "card": code})
            if not deal.doubled:
                steps.append(_step(info, None, "no_doubles", t(language, "no_doubles")))
    return steps


def _plays(info: TableInfo, deal: DealRecord) -> list[dict[str, Any]]:
    """Every turn in play order. A trick game's card carries its trick (1-based) and, on
    the trick's last card, who took it; a Trix contract's turns are laid cards and passes
    (TX.9), with no trick."""
    language = info.language
    steps: list[dict[str, Any]] = []
    for position, trick in enumerate(deal.tricks, 1):
        for index, (seat, code) in enumerate(trick.plays):
            last = index == len(trick.cards) - 1
            said = t(
                language, "web_plays", name=seat_name(info, seat), card=card_words(language, code)
            )
            steps.append(
                {
                    "seat": seat,
                    **_card(language, code),
                    "pass": False,
                    "trick": position,
                    "winner": trick.winner if last else None,
                    "say": said
                    + (
                        f" · {t(language, 'web_takes', name=seat_name(info, trick.winner))}"
                        if last
                        else ""
                    ),
                }
            )
    for seat, code in deal.layout:  # TX.9
        if code == "pass":
            text = t(language, "btn_pass")
            steps.append(
                {
                    "seat": seat,
                    "card": None,
                    "label": None,
                    "name": None,
                    "suit": None,
                    "pass": True,
                    "trick": None,
                    "winner": None,
                    "say": t(language, "web_says", name=seat_name(info, seat), said=text),
                }
            )
            continue
        said = t(
            language, "web_plays", name=seat_name(info, seat), card=card_words(language, code)
        )
        laid = _card(language, code)
        steps.append(
            {"seat": seat, **laid, "pass": False, "trick": None, "winner": None, "say": said}
        )
    return steps


def _entry(variant: str, deal: DealRecord) -> dict[str, Any]:
    """The deal as the engine's history entry holds it (what the result card reads)."""
    entry: dict[str, Any] = {
        "deal_number": deal.number,
        "dealer": deal.dealer,
        "cancelled": deal.cancelled,
        "deltas": list(deal.deltas),
        "scores": list(deal.scores),
    }
    if deal.tricks:
        entry["tricks"] = list(deal.tricks_won)
    if variant in PARTNERSHIP_PARAMS:  # T41.8: each seat's bid, made with at least it
        entry["bids"] = list(deal.bids)
        if not deal.cancelled:
            entry["made"] = [
                bid is not None and deal.tricks_won[seat] >= bid
                for seat, bid in enumerate(deal.bids)
            ]
    elif deal.declarer is not None and deal.bid is not None:  # TS.6, TS.8
        entry.update(
            declarer=deal.declarer,
            bid=deal.bid,
            made=deal.tricks_won[deal.declarer] >= deal.bid,
        )
    return entry


def _after(deal: DealRecord, target: int | None) -> dict[str, Any]:
    """The totals as the deal left them, in the shape of a view."""
    teams = deal.team_scores
    return {
        "scores": list(deal.scores),
        "team_scores": list(teams) if teams is not None else None,
        "target": target,
    }


__all__ = ["REPLAY_STRINGS", "replay_view"]
