"""Buttons as short strings, for Telegram's ``callback_data`` (≤ 64 bytes) and Discord's
``custom_id`` (≤ 100 characters): ``<table>:<version>:<action>``, numbers in base 36.

>>> encode_button(Button("Q♥", {"type": "play", "card": "QH"}, 1234, 56))
'ya:1k:pQH'
>>> decode("ya:1k:pQH")
(1234, 56, {'type': 'play', 'card': 'QH'})
>>> decode("ya:1k:p<script>") is None  # forged or garbled data is no button at all
True
>>> decode(encode(0, 0, {"type": "new", "variant": "tarneeb_solo", "target": 51}))
(0, 0, {'type': 'new', 'variant': 'tarneeb_solo', 'target': 51})
"""

from __future__ import annotations

import re
from typing import Any

from bot.render.hand import DOUBLE_PICK
from bot.render.model import Button
from engine import VARIANTS
from engine.params import PARTNERSHIP_PARAMS, TARNEEB_SOLO

MAX_BYTES = 64  # Telegram's limit; Discord allows 100
_CARD = "[2-9TJQKA][CDHS]"
_CARD_RE = re.compile(_CARD)
_SIMPLE = {
    "j": "join",
    "l": "leave",
    "a": "add_computer",
    "g": "begin",
    "h": "hand",
    "r": "rules",
    "x": "pass",
    "n": "noop",
    "m": "rematch",
    "y": "ready",
    "w": "swap",
    "o": "record",
    "e": "web",  # open the web table (Discord: a personal link, answered ephemerally)
}
_SIMPLE_CODES = {kind: code for code, kind in _SIMPLE.items()}
NEW_VARIANTS = tuple(VARIANTS)  # a /new button carries its variant's place here
_TARGETS = "|".join(str(target) for target in TARNEEB_SOLO.targets)  # TS.1
# every bid of any variant (T41.5, TS.3); the engine refuses the ones a variant lacks
_ALL_BIDS = {*TARNEEB_SOLO.bids, *(bid for p in PARTNERSHIP_PARAMS.values() for bid in p.bids)}
_BIDS = "|".join(str(bid) for bid in sorted(_ALL_BIDS, reverse=True))
_PATTERNS = (
    (
        re.compile(f"v([0-3])(?:t({_TARGETS}))?"),
        lambda m: (
            {"type": "new", "variant": NEW_VARIANTS[int(m[1])]}
            | ({"target": int(m[2])} if m[2] else {})
        ),
    ),
    (re.compile(f"p({_CARD})"), lambda m: {"type": "play", "card": m[1]}),
    # a deal's replay on the web table (issue 35): the deal's number
    (re.compile("z([1-9][0-9]{0,3})"), lambda m: {"type": "review", "deal": int(m[1])}),
    (re.compile(f"b({_BIDS})"), lambda m: {"type": "bid", "value": int(m[1])}),
    (re.compile("u([CDHS])"), lambda m: {"type": "trump", "suit": m[1]}),
    (
        re.compile("c([ct])"),
        lambda m: {"type": "contract", "contract": "complex" if m[1] == "c" else "trix"},
    ),
    (
        re.compile(f"d((?:{_CARD}){{0,5}})"),
        lambda m: {"type": "double", "cards": _CARD_RE.findall(m[1])},
    ),
    (
        re.compile(f"k((?:{_CARD}){{0,5}})"),
        lambda m: {"type": DOUBLE_PICK, "cards": _CARD_RE.findall(m[1])},
    ),
)


def _b36(value: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if value == 0:
        return "0"
    text = ""
    while value:
        value, digit = divmod(value, 36)
        text = digits[digit] + text
    return text


def encode_action(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "play":
        return "p" + str(action["card"])
    if kind == "bid":
        return f"b{action['value']}"
    if kind == "trump":
        return "u" + str(action["suit"])
    if kind == "contract":
        return "c" + str(action["contract"])[0]
    if kind == "double":
        return "d" + "".join(action["cards"])
    if kind == DOUBLE_PICK:
        return "k" + "".join(action["cards"])
    if kind == "review":
        return f"z{action['deal']}"
    if kind == "new":  # the variant picker of /new, before any table exists
        target = action.get("target")
        return f"v{NEW_VARIANTS.index(action['variant'])}" + (f"t{target}" if target else "")
    return _SIMPLE_CODES[kind]


def encode(table_id: int, version: int, action: dict[str, Any]) -> str:
    data = f"{_b36(table_id)}:{_b36(version)}:{encode_action(action)}"
    assert len(data.encode()) <= MAX_BYTES, data
    return data


def encode_button(button: Button) -> str:
    return encode(button.table_id, button.version, button.action)


def decode(data: str) -> tuple[int, int, dict[str, Any]] | None:
    """``(table, version, action)``, or None for anything that is not one of our buttons."""
    parts = data.split(":")
    if len(parts) != 3 or len(data) > MAX_BYTES:
        return None
    table, version, code = parts
    try:
        table_id, state = int(table, 36), int(version, 36)
    except ValueError:
        return None
    if code in _SIMPLE:
        return table_id, state, {"type": _SIMPLE[code]}
    for pattern, build in _PATTERNS:
        match = pattern.fullmatch(code)
        if match:
            return table_id, state, build(match)
    return None
