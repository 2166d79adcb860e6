"""The web table's state for one seat (or a watcher), drawn from that seat's own view.

The page (``bot/web/static``) holds no rule: everything it shows and every move it offers
is decided here, from ``match.view(seat)`` (``view(None)`` for a watcher), so a frame can
carry only what its seat may see. Texts reuse the chat screens' catalog and helpers, so a
fact reads the same on the page as in the group. The shape is ``docs/web-protocol.md``.
"""

from __future__ import annotations

import itertools
from typing import Any

from bot.render.common import (
    kingdom_line,
    seat_name,
    solo_bid_lines,
    team_key,
    trump_lines,
    what_key,
)
from bot.render.i18n import (
    CATALOG,
    card_label,
    card_words,
    language_of,
    signed,
    suit,
    suit_words,
    t,
    variant_name,
)
from bot.render.model import TableInfo
from bot.render.moves import played
from bot.render.sheets import result_screen, score_sheet
from bot.render.table import doubled_line
from engine import VARIANTS

# The hand's suits, black and red in turn (♠ ♥ ♣ ♦), so two suits of one colour never
# sit side by side when the four are held (``_suit_order`` keeps it with fewer).
SUIT_ORDER = "SHCD"
RED = frozenset("HD")
# The table commands a page may offer, and their buttons' labels (the chats' own).
COMMAND_LABELS = {
    "join": "btn_join",
    "leave": "btn_leave",
    "add_computer": "btn_add_computer",
    "begin": "btn_start",
    "reclaim": "btn_reclaim",
    "ready": "btn_ready",
    "swap": "btn_swap",
    "rematch": "btn_rematch",
}
# The page's own texts (the rest of a state is drawn by the helpers the chats use).
PAGE_STRINGS = (
    "web_title",
    "web_start_title",
    "web_start_prompt",
    "btn_review",
    "web_connecting",
    "web_reconnecting",
    "web_failed",
    "web_last_trick",
    "web_hide_last_trick",
    "web_last_deal",
    "web_watching",
    "web_your_hand",
    "web_scores",
    "web_close",
    "web_language",
    "web_dealer",
    "web_tricks",
    "web_cards",
    "web_points",
    "web_seconds",
    "web_bid",
    "web_computer",
    "web_away",
    "web_kingdom",
    "web_trick",
    "web_made",
    "web_broken",
    "web_total",
    "web_continue",
    "web_to_win",
    "web_wait_turn",
    "web_turn_of",
    "web_seat",
    "web_contract",
    "team_a",
    "team_b",
)


def page_strings(language: str) -> dict[str, str]:
    """The page's texts as written (``web_seconds`` keeps its ``{seconds}``: the page fills
    it every second)."""
    catalog = CATALOG[language_of(language)]
    return {key: catalog[key] for key in PAGE_STRINGS}


def page_state(
    info: TableInfo,
    view: dict[str, Any] | None,
    *,
    you: int | None,
    now: float,
    commands: list[str],
) -> dict[str, Any]:
    """What the page of ``you`` (None: a watcher) shows now; ``view`` is that seat's own
    view (``None`` before the match starts); ``commands`` are the table commands this
    person may send now (decided by the caller from the table)."""
    language = info.language
    state: dict[str, Any] = {
        "table": info.id,
        "version": info.version,
        "status": info.status,
        "variant": info.variant,
        "title": variant_name(language, info.variant),
        "language": language,
        "dir": "rtl" if language == "ar" else "ltr",
        "you": you,
        "phase": _phase(info, view),
        "your_turn": bool(view and you is not None and you in view["turn"]),
        "seats": _seats(info, view, you),
        "turn_text": _turn_text(info, view, you),
        "deadline": info.deadline if info.status == "running" else None,
        "now": now,
        "trick": [],
        "last_trick": None,
        "facts": [],
        "badge": None,
        "bidding": None,
        "scores": [],
        "target": None,
        "hand": [],
        "decisions": [],
        "doubling": None,
        "doubled": [],
        "rows": None,
        "sheet": None,
        "deal_result": None,
        "reviewable": [],
        "result": None,
        "commands": [{"command": c, "label": t(language, COMMAND_LABELS[c])} for c in commands],
    }
    if view is None:
        return state
    state["trick"] = [played(language, p["seat"], p["card"]) for p in view["trick"]]
    if view.get("last_trick"):
        state["last_trick"] = _last_trick(language, view)
    state["facts"] = _facts(info, view)
    state["badge"] = _badge(info, view)
    state["bidding"] = _bidding(language, view)
    state["scores"], state["target"] = _scores(info, view)
    legal: list[dict[str, Any]] = view.get("legal_actions") or []
    if you is not None and view.get("hand") is not None:
        state["hand"] = _hand(language, view, legal, playing=state["your_turn"])
    state["decisions"] = _decisions(language, legal)
    if view.get("phase") == "doubling" and any(a["type"] == "double" for a in legal):
        state["doubling"] = _doubling(language, legal)
    state["doubled"] = [
        {"seat": d["seat"], "card": d["card"], "label": card_label(d["card"])}
        for d in view.get("doubled") or []
    ]
    if view.get("contract") == "trix":
        state["rows"] = _rows(language, view.get("rows") or {})
    history = view.get("history") or []
    # Deals that have ended (scored, or cancelled and redealt): their replay may show every
    # hand (``bot.web.replays``). The deal being played is never among them.
    state["reviewable"] = [int(entry["deal_number"]) for entry in history]
    if history:
        sheet = score_sheet(info, history[-1], view.get("team_scores")).text.split("\n")
        state["sheet"] = {
            "deal": history[-1]["deal_number"],
            "title": sheet[0],
            "lines": sheet[1:],
        }
        state["deal_result"] = deal_result(info, history[-1], view)
    if info.status != "running" and info.status != "lobby":
        result = view.get("result") or {}
        state["result"] = {
            "text": result_screen(info, view).text,
            "winners": result.get("winners", []),
            "draw": bool(result.get("draw")),
        }
    return state


def _rows(language: str, rows: dict[str, Any]) -> dict[str, Any]:
    """TX.9's layout: each suit's row from its lowest to its highest card laid (or None)."""
    return {
        letter: None
        if row is None
        else {
            "low": row["low"],
            "high": row["high"],
            "low_label": card_label(row["low"]),
            "high_label": card_label(row["high"]),
            "low_name": card_words(language, row["low"]),
            "high_name": card_words(language, row["high"]),
        }
        for letter, row in rows.items()
    }


def _phase(info: TableInfo, view: dict[str, Any] | None) -> str:
    if info.status == "lobby":
        return "waiting"
    if info.status != "running" or view is None:
        return "over"
    return str(view["phase"])


def _seats(info: TableInfo, view: dict[str, Any] | None, you: int | None) -> list[dict[str, Any]]:
    teams = view is not None and view.get("team_scores") is not None
    if view is None:  # a lobby: teams are known from the variant
        teams = VARIANTS[info.variant].teams
    turn = set(view["turn"]) if view is not None else set()
    seats = []
    for seat in range(4):
        occupant = info.seats[seat]
        entry: dict[str, Any] = {
            "seat": seat,
            "name": occupant.name if occupant is not None else "",
            "team": seat % 2 if teams else None,  # T41.1 / TX.1: partners sit opposite
            "computer": bool(occupant and occupant.computer),
            "away": bool(occupant and occupant.away),
            "ready": bool(occupant and occupant.ready),
            "you": seat == you,
            "to_act": seat in turn,
            "dealer": view is not None and view.get("dealer") == seat,
            "owner": view is not None and view.get("owner") == seat,  # TX.3's kingdom
            "bid": None,
            "tricks": None,
            "cards": None,
            "points": None,
            "score": None,
        }
        if view is not None:
            entry["bid"] = _bid(info.language, view, seat)
            if view["phase"] == "playing" and view.get("contract") != "trix":
                entry["tricks"] = view["tricks_won"][seat]
            entry["cards"] = view["hand_sizes"][seat]
            if view.get("deal_points") is not None and view.get("contract"):
                entry["points"] = view["deal_points"][seat]
            entry["score"] = view["scores"][seat]
        seats.append(entry)
    return seats


def _bid(language: str, view: dict[str, Any], seat: int) -> str | None:
    if VARIANTS[view["variant"]].bidding == "kingdoms":
        return None
    bid = view["bids"][seat]
    if bid is None:
        return None
    return t(language, "bid_pass") if bid == "pass" else str(bid)


def _turn_text(info: TableInfo, view: dict[str, Any] | None, you: int | None) -> str:
    language = info.language
    if info.status == "lobby":
        free = sum(occupant is None for occupant in info.seats)
        return t(language, "lobby_waiting", count=free) if free else t(language, "lobby_ready")
    if view is None or info.status != "running":
        return ""
    if view.get("doubling") and you is not None and you in view["turn"]:
        return t(language, "your_turn", what=t(language, "what_double"))  # TX.7: only your own
    if view.get("doubling"):
        return t(language, "waiting_doubles").lstrip("▶ ")  # who is asked stays secret
    if not view["turn"]:
        return ""
    what = t(language, what_key(view["phase"]))
    if you is not None and you in view["turn"]:
        return t(language, "your_turn", what=what).lstrip("▶ ")
    names = ", ".join(seat_name(info, seat) for seat in view["turn"])
    return t(language, "turn_line", names=names, what=what).lstrip("▶ ")


def _last_trick(language: str, view: dict[str, Any]) -> dict[str, Any]:
    tricks = view.get("deal_tricks") or []
    winner = tricks[-1]["winner"] if tricks else None
    cards = [played(language, p["seat"], p["card"]) for p in view["last_trick"]]
    return {"winner": winner, "cards": cards}


def _badge(info: TableInfo, view: dict[str, Any]) -> dict[str, Any] | None:
    """The deal's contract as one badge on the felt: trump (T41.4, TS.6), or Trix's
    kingdom and contract (TX.3–TX.4); its ``name`` says it in words."""
    language = info.language
    if view.get("trump"):
        letter = view["trump"]
        name = t(language, "web_trump_words", suit=suit_words(language, letter))
        return {"suit": letter, "text": suit(letter), "name": name, "red": letter in RED}
    if VARIANTS[view["variant"]].bidding == "kingdoms" and view.get("owner") is not None:
        contract = view.get("contract")
        text = t(language, f"contract_{contract}" if contract else "contract_choosing")
        return {"suit": None, "text": text, "name": kingdom_line(info, view), "red": False}
    return None


def _bidding(language: str, view: dict[str, Any]) -> dict[str, Any] | None:
    """T41.6 / T41D.3: while the Tarneeb 41 bids come in, their total against the least
    the four must reach."""
    needed = view.get("min_total")
    if view["phase"] != "bidding" or not needed:
        return None
    total = sum(b for b in view["bids"] if isinstance(b, int))
    text = t(language, "web_bid_total", total=total, needed=needed)
    return {"total": total, "needed": needed, "text": text}


def deal_result(info: TableInfo, entry: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The result card of the deal just scored: each seat's bid, tricks and points, the
    totals against the target, the teams' totals where there are teams (T41.8–T41.9,
    TS.7, TX.6–TX.10). Public figures only."""
    language = info.language
    rows = []
    bids = entry.get("bids")
    made = entry.get("made")
    for seat in range(4):
        bid: str | None = None
        if isinstance(bids, list) and isinstance(bids[seat], int):
            bid = str(bids[seat])
        elif entry.get("declarer") == seat:
            bid = str(entry.get("bid"))
        success: bool | None = None
        if isinstance(made, list):
            success = bool(made[seat])
        elif isinstance(made, bool) and entry.get("declarer") == seat:
            success = made
        rows.append(
            {
                "seat": seat,
                "name": seat_name(info, seat),
                "bid": bid,
                "tricks": (entry.get("tricks") or [None] * 4)[seat],
                "made": success,
                "delta": signed(language, int(entry.get("deltas", [0] * 4)[seat])),
                "score": int(entry.get("scores", view["scores"])[seat]),
            }
        )
    teams = None
    if view.get("team_scores") is not None:
        teams = [
            {"name": t(language, team_key(first)), "score": view["team_scores"][first]}
            for first in (0, 1)
        ]
    return {
        "deal": entry["deal_number"],
        "title": t(language, "web_result_title", deal=entry["deal_number"]),
        "cancelled": bool(entry.get("cancelled")),
        "rows": [] if entry.get("cancelled") else rows,
        "teams": teams,
        "target": view.get("target"),
    }


def _facts(info: TableInfo, view: dict[str, Any]) -> list[dict[str, str]]:
    """The contract of the deal, one fact a line: the shown card and trump (T41.4), the
    solo declarer (TS.6), the kingdom and its contract (TX.3), revealed doubles (TX.7)."""
    language = info.language
    lines = list(trump_lines(language, view))
    bidding = VARIANTS[view["variant"]].bidding
    if bidding == "auction":
        lines += solo_bid_lines(info, view)
    if bidding == "kingdoms":
        lines.append(kingdom_line(info, view))
        if view.get("contract") == "complex" and not view.get("doubling"):
            lines.append(doubled_line(info, view["doubled"]))
    return [_fact(line) for line in lines]


def _fact(line: str) -> dict[str, str]:
    label, _, value = line.partition(": ")
    return {"label": label, "value": value} if value else {"label": "", "value": line}


def _scores(info: TableInfo, view: dict[str, Any]) -> tuple[list[dict[str, Any]], int | None]:
    language = info.language
    target = view.get("target")
    if view.get("team_scores") is not None:
        return [
            {
                "name": t(language, team_key(first)),
                "score": view["team_scores"][first],
                "seats": [first, first + 2],
            }
            for first in (0, 1)
        ], target
    return [
        {"name": seat_name(info, seat), "score": view["scores"][seat], "seats": [seat]}
        for seat in range(4)
    ], target


def _hand(
    language: str, view: dict[str, Any], legal: list[dict[str, Any]], *, playing: bool
) -> list[dict[str, Any]]:
    """The seat's cards, suits alternating in colour. On this seat's turn to play, a card
    it may not play says why (``why``); at any other time no card is marked."""
    hand: list[str] = view["hand"]
    playable = {a["card"] for a in legal if a["type"] == "play"}
    card_turn = playing and view["phase"] == "playing"
    order = _suit_order({code[1] for code in hand})
    cards = sorted(hand, key=lambda code: order.index(code[1]))  # stable: rank order kept
    return [
        {
            "card": code,
            "label": card_label(code),
            "name": card_words(language, code),
            "suit": code[1],
            "legal": code in playable,
            "why": _why(language, view, code) if card_turn and code not in playable else None,
            "action": {"type": "play", "card": code},
        }
        for code in cards
    ]


def _suit_order(held: set[str]) -> str:
    """The held suits in ``SUIT_ORDER``, moved so that colours alternate where the suits
    held allow it (♠ ♣ ♦ would put two black side by side: ♣ ♦ ♠ does not)."""
    suits = [letter for letter in SUIT_ORDER if letter in held]
    for start in range(len(suits)):
        turned = suits[start:] + suits[:start]
        if all((a in RED) != (b in RED) for a, b in itertools.pairwise(turned)):
            return "".join(turned)
    return "".join(suits)


def _why(language: str, view: dict[str, Any], code: str) -> str:
    """Why ``code`` may not be played now: the suit led must be followed (T41.7, TS.7,
    TX.5), or the card does not fit Trix's rows yet (TX.9)."""
    trick = view.get("trick") or []
    if view.get("contract") == "trix":
        return t(language, "illegal_not_playable")
    if trick:
        led = trick[0]["card"][1]
        if code[1] != led:
            return t(language, "web_follow", suit=suit(led))
    return t(language, "web_not_now")


def _decisions(language: str, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every choice that is not a card: bids and pass (T41.5, TS.3), trump suits (TS.6),
    contracts (TX.4), and Trix's pass when no card may be laid (TX.9)."""
    decisions = []
    for action in legal:
        kind = action["type"]
        if kind == "bid":
            label = str(action["value"])
            name = t(language, "web_bid_words", bid=action["value"])
        elif kind == "pass":
            label = name = t(language, "btn_pass")
        elif kind == "trump":
            label, name = suit(action["suit"]), suit_words(language, action["suit"])
        elif kind == "contract":
            label = name = t(language, f"btn_{action['contract']}")
        else:
            continue
        decisions.append({"label": label, "name": name, "kind": kind, "action": action})
    return decisions


def _doubling(language: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """TX.7: the cards this seat may double; the page marks any of them (a mark is the
    page's own until sent: no one else learns of it)."""
    doublable = max((a["cards"] for a in legal if a["type"] == "double"), key=len)
    return {
        "cards": [
            {"card": code, "label": card_label(code), "name": card_words(language, code)}
            for code in doublable
        ],
        "none_label": t(language, "btn_no_double"),
        "confirm_label": t(language, "btn_confirm_doubles", cards="").strip(" :·"),
    }
