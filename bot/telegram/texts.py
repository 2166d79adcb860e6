"""Telegram's own strings (command menu, help, replies): the catalog's ``tg_`` entries
(``bot/render/catalog``), read here by their short key."""

from __future__ import annotations

from bot.render.i18n import language_of, t
from engine.params import TARNEEB_SOLO

COMMAND_MENU = (
    "new",
    "join",
    "leave",
    "addbot",
    "begin",
    "hand",
    "reclaim",
    "stop",
    "score",
    "rules",
    "lang",
    "top",
    "stats",
    "history",
    "record",
    "help",
)


def _targets(language: str) -> str:
    """Solo Tarneeb's targets as a sentence names them: "31, 51 or 61" (TS.1)."""
    items = [str(target) for target in TARNEEB_SOLO.targets]
    last = " أو " if language_of(language) == "ar" else " or "
    head = " أو " if language_of(language) == "ar" else ", "
    return head.join(items[:-1]) + last + items[-1]


def text(language: str, key: str, **values: object) -> str:
    """The catalog's ``tg_<key>`` string; the solo targets come from the engine."""
    return t(language, f"tg_{key}", **{"targets": _targets(language), **values})


def commands(language: str) -> list[tuple[str, str]]:
    """The command menu in ``language``: (command, description)."""
    return [(name, t(language, f"tg_cmd_{name}")) for name in COMMAND_MENU]
