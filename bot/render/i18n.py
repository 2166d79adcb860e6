"""Every user-facing string, in Arabic (the default) and English, and the helpers that
make mixed Arabic, names, numbers and cards read correctly.

A small typed catalog rather than gettext/Babel: about a hundred strings, two languages,
no plural forms needed (counts are written as "label: number", which reads correctly in
Arabic without its six plural forms), no compile step, and a test that both languages
have the same keys and the same placeholders. Babel would earn its place with a third
language or translators working in .po files.

Direction: names are wrapped in FSI…PDI (first-strong isolates) so a Latin name inside
Arabic text, or an Arabic name inside English, keeps its own direction; numbers and card
labels in Arabic text are wrapped in LRM marks so "−14" and "10♥" are not reordered.
"""

from __future__ import annotations

import engine
from bot.render.catalog.ar import AR
from bot.render.catalog.en import EN

LANGUAGES = ("ar", "en")
FSI, PDI, LRM = "\u2068", "\u2069", "\u200e"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_ORDER = "CDHS"
RANK_LABELS = {"T": "10"}

CATALOG: dict[str, dict[str, str]] = {"en": EN, "ar": AR}


def language_of(language: str | None) -> str:
    return language if language in LANGUAGES else "ar"


def t(language: str, key: str, **values: object) -> str:
    """The catalog string ``key`` in ``language`` (Arabic when unknown), filled in."""
    return CATALOG[language_of(language)][key].format(**values)


def has(language: str, key: str) -> bool:
    return key in CATALOG[language_of(language)]


def isolate(text: str) -> str:
    """A name or other run of unknown direction, kept in its own direction (FSI…PDI)."""
    return f"{FSI}{text}{PDI}"


def ltr(language: str, text: str) -> str:
    """Numbers, signs and card labels inside Arabic text, kept left to right."""
    return f"{LRM}{text}{LRM}" if language_of(language) == "ar" else text


def number(language: str, value: int) -> str:
    return ltr(language, str(value).replace("-", "−"))


def signed(language: str, value: int) -> str:
    """A score change with its sign: +4, −14, 0."""
    text = f"+{value}" if value > 0 else str(value).replace("-", "−")
    return ltr(language, text)


def card_label(code: str) -> str:
    """``"QH"`` → ``"Q♥"``, ``"TS"`` → ``"10♠"``."""
    return RANK_LABELS.get(code[0], code[0]) + SUIT_SYMBOLS[code[1]]


def card_words(language: str, code: str) -> str:
    """A card in words, for screen readers and the page's buttons: "Queen of hearts",
    "بنت كبة"."""
    return t(
        language,
        "card_words",
        rank=t(language, f"rank_{code[0]}"),
        suit=suit_words(language, code[1]),
    )


def suit_words(language: str, letter: str) -> str:
    return t(language, f"suit_{letter}")


def card(language: str, code: str) -> str:
    return ltr(language, card_label(code))


def suit(code: str) -> str:
    return SUIT_SYMBOLS[code]


def variant_name(language: str, variant: str) -> str:
    info = engine.VARIANTS[variant]
    return info.name_ar if language_of(language) == "ar" else info.name_en


def joined(language: str, items: list[str]) -> str:
    return ("، " if language_of(language) == "ar" else ", ").join(items)


def computer_name(language: str, seat: int) -> str:
    """The name of the computer player in ``seat`` (one per seat: three are told apart)."""
    return t(language, f"computer_{seat}")
