"""A player's private screen, drawn from that seat's own view: the hand grouped by suit
and ascending (T41D.6), the trick on the table, and buttons for exactly the moves the
player may make — illegal cards shown but not pressable, illegal bids absent."""

from __future__ import annotations

from typing import Any

from bot.render.common import (
    kingdom_line,
    names,
    plays,
    rows_of,
    seat_name,
    solo_bid_lines,
    trump_lines,
    what_key,
)
from bot.render.i18n import card, card_label, joined, ltr, number, suit, t, variant_name
from bot.render.model import Button, Screen, TableInfo
from bot.render.notices import RULE_NUMBERS
from bot.render.table import doubled_line
from engine.params import PARTNERSHIP_PARAMS

DOUBLE_PICK = "double_pick"  # a toggle in the doubling answer: redraws, reaches no table


def hand_screen(
    info: TableInfo, view: dict[str, Any], picked: tuple[str, ...] | None = None
) -> Screen:
    """``picked``: the cards marked so far in the secret doubling answer (TX.7)."""
    seat = view.get("seat")
    if seat is None:
        raise ValueError("a private screen is drawn from that seat's own view")
    language = info.language
    lines = [
        t(
            language,
            "hand_title",
            variant=variant_name(language, view["variant"]),
            deal=number(language, view["deal_number"]),
        )
    ]
    lines += trump_lines(language, view)
    lines += _context(info, view)
    if view["variant"] == "trix_complex" and view.get("contract") == "complex":
        if view.get("doubling"):
            if view.get("my_answer") is not None:
                answer = [card(language, c) for c in view["my_answer"]]
                lines.append(
                    t(
                        language,
                        "your_answer",
                        cards=joined(language, answer) or t(language, "answer_none"),
                    )
                )
        else:
            lines.append(doubled_line(info, view["doubled"]))
    lines.append("")
    lines += hand_lines(language, view["hand"] or [])
    lines.append("")
    if view["phase"] == "playing" and view.get("contract") != "trix":
        trick = view["trick"]
        lines.append(
            t(language, "trick_line", plays=plays(info, trick))
            if trick
            else t(language, "trick_empty")
        )
        if view["variant"] != "trix_complex":
            bid = view["bids"][seat]
            if isinstance(bid, int):
                shown = number(language, bid)
            else:  # a solo defender passed in the auction (TS.3)
                shown = t(language, "bid_pass") if bid == "pass" else "—"
            lines.append(
                t(
                    language,
                    "your_bid",
                    bid=shown,
                    tricks=number(language, view["tricks_won"][seat]),
                )
            )
    legal: list[dict[str, Any]] = view.get("legal_actions") or []
    if legal:
        lines.append(t(language, "your_turn", what=t(language, what_key(view["phase"]))))
        if view["phase"] == "doubling":
            lines.append(t(language, "pick_doubles"))
        elif view["phase"] == "bidding" and _no_two(view, legal):
            # why 2 has no button
            lines.append(t(language, "illegal_bid_two_forbidden", **RULE_NUMBERS))
        elif legal == [{"type": "pass"}] and view.get("contract") == "trix":
            lines.append(t(language, "must_pass"))  # TX.9: no card fits the rows
    elif view.get("doubling"):
        # Answered, or not asked (TX.7): either way the others' answers are awaited.
        lines.append(t(language, "waiting_doubles", time="").rstrip())
    elif view["turn"] and view["phase"] != "finished":
        lines.append(t(language, "not_your_turn", names=names(info, view["turn"])))
    rows = _buttons(info, view, legal, picked or ())
    return Screen("\n".join(lines).strip(), tuple(rows))


def _context(info: TableInfo, view: dict[str, Any]) -> list[str]:
    """What the player needs besides the hand, so the private chat can be played without
    the group's table: the bids so far (T41), the auction or contract (solo), the kingdom
    and its contract (Trix)."""
    language = info.language
    variant = view["variant"]
    if variant == "trix_complex":
        return [kingdom_line(info, view)]
    if variant == "tarneeb_solo":
        return solo_bid_lines(info, view)
    if view["phase"] != "bidding" or all(bid is None for bid in view["bids"]):
        return []
    order = [(view["dealer"] + 1 + i) % 4 for i in range(4)]  # T41.5: the bidding order
    made = [(seat, view["bids"][seat]) for seat in order if view["bids"][seat] is not None]
    bids = [f"{seat_name(info, seat)} {number(language, bid)}" for seat, bid in made]
    return [
        t(
            language,
            "bids_so_far",
            bids=joined(language, bids),
            total=number(language, sum(bid for _, bid in made)),
            needed=number(language, PARTNERSHIP_PARAMS[variant].min_total),  # T41.6, T41D.3
        )
    ]


def _no_two(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """T41D.2: the player's 30 points or more take the bid of 2 away."""
    params = PARTNERSHIP_PARAMS.get(view["variant"])
    if params is None or params.no_two_from is None:
        return False
    return {"type": "bid", "value": params.min_bid} not in legal


def hand_lines(language: str, hand: list[str]) -> list[str]:
    """One line per suit held, ascending within the suit (T41D.6)."""
    if not hand:
        return [t(language, "hand_empty")]
    lines = []
    for letter in "CDHS":
        cards = [code for code in hand if code[1] == letter]
        if cards:
            labels = " ".join(card_label(code)[:-1] for code in cards)
            lines.append(f"{suit(letter)} {ltr(language, labels)}")
    return lines


def _buttons(
    info: TableInfo, view: dict[str, Any], legal: list[dict[str, Any]], picked: tuple[str, ...]
) -> list[tuple[Button, ...]]:
    language = info.language
    phase = view["phase"]

    def button(label: str, action: dict[str, Any], enabled: bool = True) -> Button:
        return Button(label, action, info.id, info.version, enabled)

    if not legal:
        return []
    kinds = {action["type"] for action in legal}
    if phase == "bidding":
        bids = [
            button(t(language, "btn_pass") if a["type"] == "pass" else str(a["value"]), a)
            for a in legal
        ]
        return rows_of(bids)
    if phase == "trump":
        return rows_of([button(suit(a["suit"]), a) for a in legal])
    if phase == "contract":
        return [tuple(button(t(language, f"btn_{a['contract']}"), a) for a in legal)]
    if phase == "doubling":
        return _doubling(info, legal, picked)
    if kinds == {"pass"}:
        return [(button(t(language, "btn_pass"), {"type": "pass"}),)]
    playable = {a["card"] for a in legal if a["type"] == "play"}
    rows: list[tuple[Button, ...]] = []
    for letter in "CDHS":
        cards = [code for code in view["hand"] if code[1] == letter]
        rows += rows_of(
            [
                button(card_label(code), {"type": "play", "card": code}, code in playable)
                for code in cards
            ]
        )
    return rows


def _doubling(
    info: TableInfo, legal: list[dict[str, Any]], picked: tuple[str, ...]
) -> list[tuple[Button, ...]]:
    """TX.7: a confirm button with the answer so far, then one toggle per doublable card."""
    language = info.language
    doublable = max((a["cards"] for a in legal), key=len)
    chosen = [code for code in doublable if code in picked]
    toggles = []
    for code in doublable:
        marked = code in chosen
        selection = [c for c in doublable if (c in chosen) != (c == code)]
        toggles.append(
            Button(
                f"{'☑' if marked else '☐'} {card_label(code)}",
                {"type": DOUBLE_PICK, "cards": selection},
                info.id,
                info.version,
            )
        )
    if chosen:
        # card(): in Arabic the labels keep their order inside the right-to-left label
        label = t(
            language, "btn_confirm_doubles", cards=" ".join(card(language, c) for c in chosen)
        )
    else:
        label = t(language, "btn_no_double")
    confirm = Button(
        label, {"type": "double", "cards": chosen}, info.id, info.version, True, "success"
    )
    return [(confirm,), *rows_of(toggles)]  # the usual answer (no double) is the first


__all__ = ["DOUBLE_PICK", "hand_lines", "hand_screen"]
