"""A player's private screen, drawn from that seat's own view. It comes in two kinds:

- the DECISION screen, when the seat has something to do: everything needed to decide,
  compactly — the bids, tricks and scores of every seat, the standing and the target,
  the last completed trick and the trick in play (or the Trix rows), the hand grouped by
  suit and ascending (T41D.6), and buttons for exactly the moves the player may make
  (illegal cards shown but not pressable, illegal bids absent);
- the WAITING screen, when it has not: only what does not change while the others play
  (the contract, the partner, the player's own bid and hand) and a line saying the game
  goes on in the group. Its text stays the same as others move, so it is never sent
  again until the player's own turn or move.
"""

from __future__ import annotations

from typing import Any

from bot.render.common import (
    kingdom_line,
    partner,
    rows_of,
    seat_name,
    solo_bid_lines,
    team_key,
    trump_lines,
    what_key,
    with_deadline,
)
from bot.render.i18n import card, card_label, joined, ltr, number, suit, t, variant_name
from bot.render.model import Button, Screen, TableInfo, TimerStyle, no_timer
from bot.render.notices import RULE_NUMBERS
from bot.render.table import (
    current_trick,
    doubled_line,
    rows_lines,
    seat_details,
    standing_line,
    trick_history,
)
from engine import VARIANTS
from engine.params import PARTNERSHIP_PARAMS, TRIX_COMPLEX

DOUBLE_PICK = "double_pick"  # a toggle in the doubling answer: redraws, reaches no table


def hand_screen(
    info: TableInfo,
    view: dict[str, Any],
    picked: tuple[str, ...] | None = None,
    *,
    timer: TimerStyle = no_timer,
) -> Screen:
    """The seat's decision screen when it has legal actions, else its waiting screen.

    ``picked``: the cards marked so far in the secret doubling answer (TX.7). ``timer``:
    how the platform shows the deadline on the decision screen's turn line (never on the
    waiting screen, which must not change)."""
    if view.get("seat") is None:
        raise ValueError("a private screen is drawn from that seat's own view")
    legal: list[dict[str, Any]] = view.get("legal_actions") or []
    lines = _decision(info, view, legal, timer) if legal else _waiting(info, view)
    rows = _buttons(info, view, legal, picked or ())
    return Screen("\n".join(lines).strip(), tuple(rows))


def _header(info: TableInfo, view: dict[str, Any]) -> list[str]:
    """Title, trump or contract, and the partner: the same on both screens."""
    language = info.language
    lines = [
        t(
            language,
            "hand_title",
            variant=variant_name(language, view["variant"]),
            deal=number(language, view["deal_number"]),
        )
    ]
    lines += trump_lines(language, view)  # T41.4, TS.6
    if VARIANTS[view["variant"]].bidding == "kingdoms":
        lines.append(kingdom_line(info, view))  # TX.3–TX.4
        if view.get("contract") == "complex" and not view.get("doubling"):
            lines.append(doubled_line(info, view["doubled"]))  # TX.7: revealed together
    if view["team_scores"] is not None:  # T41.1 / TX.1: the partner sits opposite
        seat = view["seat"]
        lines.append(
            t(
                language,
                "partner_line",
                team=t(language, team_key(seat)),
                partner=seat_name(info, partner(seat)),
            )
        )
    return lines


def _decision(
    info: TableInfo, view: dict[str, Any], legal: list[dict[str, Any]], timer: TimerStyle
) -> list[str]:
    language = info.language
    variant, phase, seat = view["variant"], view["phase"], view["seat"]
    lines = _header(info, view)
    if VARIANTS[variant].bidding == "auction":
        lines += solo_bid_lines(info, view)  # TS.3–TS.6: the high bid, or the contract
    lines.append("")
    # TS.6: once the auction is over the declarer line holds the only bid that counts.
    bids = not (VARIANTS[variant].bidding == "auction" and view.get("declarer") is not None)
    for other in range(4):
        marker = "▶ " if other in view["turn"] else "• "
        mark = f" ({t(language, 'you_mark')})" if other == seat else ""
        lines.append(
            t(
                language,
                "player_line",
                marker=marker,
                name=seat_name(info, other),
                team=mark,
                details=" · ".join(seat_details(info, view, other, bids=bids)),
            )
        )
    if phase == "bidding" and variant in PARTNERSHIP_PARAMS:
        made = [bid for bid in view["bids"] if isinstance(bid, int)]
        lines.append(
            t(
                language,
                "bids_total",
                total=number(language, sum(made)),
                needed=number(language, PARTNERSHIP_PARAMS[variant].min_total),  # T41.6, T41D.3
            )
        )
    lines.append(_standing(info, view))
    if view.get("contract") == "trix":
        lines.append("")
        # TX.9; who is out shows in the seat lines (their points, no cards left, TX.10)
        lines += rows_lines(info, view, out=False)
    elif phase == "playing":
        lines.append("")
        lines += trick_history(info, view)
        lines.append(current_trick(info, view))
    lines.append("")
    lines += hand_lines(language, view["hand"] or [])
    lines.append("")
    turn = t(language, "your_turn", what=t(language, what_key(phase)))
    lines.append(with_deadline(info, turn, timer))
    if phase == "doubling":
        lines.append(t(language, "pick_doubles"))
    elif phase == "bidding" and _no_two(view, legal):
        # why 2 has no button
        lines.append(t(language, "illegal_bid_two_forbidden", **RULE_NUMBERS))
    elif legal == [{"type": "pass"}] and view.get("contract") == "trix":
        lines.append(t(language, "must_pass"))  # TX.9: no card fits the rows
    return lines


def _standing(info: TableInfo, view: dict[str, Any]) -> str:
    """The table's standing line; for Trix a shorter one: how far the match has gone."""
    if VARIANTS[view["variant"]].bidding != "kingdoms":
        return standing_line(info, view)
    language = info.language
    a, b = view["team_scores"]
    return t(
        language,
        "trix_standing",
        team_a=t(language, "team_a"),
        a=number(language, a),
        team_b=t(language, "team_b"),
        b=number(language, b),
        deal=number(language, view["deal_number"]),
        deals=number(language, TRIX_COMPLEX.deals),  # TX.3, TX.11
    )


def _waiting(info: TableInfo, view: dict[str, Any]) -> list[str]:
    """Nothing that another player's move changes: no trick, no other bid, no score, no
    countdown and no name of who is to act."""
    language = info.language
    seat = view["seat"]
    lines = _header(info, view)
    if VARIANTS[view["variant"]].bidding == "auction" and view.get("declarer") is not None:
        lines += solo_bid_lines(info, view)  # the contract, fixed once the auction ends
    bid = view["bids"][seat] if view["variant"] in PARTNERSHIP_PARAMS else None
    if isinstance(bid, int):  # the player's own bid, fixed once made (T41.5)
        lines.append(t(language, "your_bid", bid=number(language, bid)))
    if view.get("doubling") and view.get("my_answer") is not None:  # TX.7
        answer = joined(language, [card(language, c) for c in view["my_answer"]])
        lines.append(t(language, "your_answer", cards=answer or t(language, "answer_none")))
    lines.append("")
    lines += hand_lines(language, view["hand"] or [])
    if view["phase"] == "finished":
        return lines
    lines.append("")
    if view.get("doubling"):
        # Answered, or not asked (TX.7): either way the others' answers are awaited.
        lines.append(t(language, "doubles_awaited"))
    lines.append(t(language, "waiting_line"))
    return lines


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
