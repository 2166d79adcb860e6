"""The catalog and the text helpers: two languages with the same keys and placeholders,
a message for every refusal, numbers and cards that keep their order in Arabic."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import engine
from bot.render import refusal_notice
from bot.render.i18n import (
    CATALOG,
    FSI,
    LRM,
    PDI,
    card,
    card_label,
    isolate,
    joined,
    number,
    signed,
    t,
    variant_name,
)
from bot.render.notices import RULE_NUMBERS
from bot.tables.errors import REFUSAL_CODES

RENDER = Path(__file__).parents[3] / "bot" / "render"
ENGINE = Path(__file__).parents[3] / "engine"
ARABIC_LETTER = re.compile(r"[\u0621-\u064a]")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_both_catalogs_have_the_same_keys() -> None:
    assert set(CATALOG) == {"ar", "en"}
    assert sorted(set(CATALOG["en"]) - set(CATALOG["ar"])) == []
    assert sorted(set(CATALOG["ar"]) - set(CATALOG["en"])) == []


def test_same_placeholders_in_both_languages() -> None:
    differ = [
        key
        for key in CATALOG["en"]
        if placeholders(CATALOG["ar"][key]) != placeholders(CATALOG["en"][key])
    ]
    assert not differ, differ


# What stays Latin in Arabic on purpose: commands (/new), the games' codes (syrian41) and
# words a player types (easy, solo), and Discord's own English permission names given in
# brackets beside the Arabic ones.
LITERALS = re.compile(
    r"/\w+|(?<![A-Za-z])[A-Za-z]*[\d_][\w]*|\([A-Za-z ]+\)"
    r"|(?<![A-Za-z])(easy|hard|double|solo|trix|tarneeb)(?![A-Za-z])"
)


def test_arabic_texts_are_arabic() -> None:
    """Every entry with English words has Arabic words, and no Latin ones, in Arabic."""
    for key, english in CATALOG["en"].items():
        if not re.search(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", "", english)):
            continue  # symbols only ("✓", "×2", "{marker}{name}{team}: {details}")
        arabic = LITERALS.sub("", re.sub(r"\{\w+\}", "", CATALOG["ar"][key]))
        assert ARABIC_LETTER.search(arabic), f"{key} is not translated"
        assert not re.search(r"[A-Za-z]{3,}", arabic), f"{key}: Latin words in Arabic"


@pytest.mark.parametrize("code", sorted(REFUSAL_CODES))
def test_every_refusal_code_has_a_message(code: str) -> None:
    for language in ("ar", "en"):
        assert f"refuse_{code}" in CATALOG[language]
        notice = refusal_notice(language, code)
        assert notice.text == CATALOG[language][f"refuse_{code}"]
    assert ARABIC_LETTER.search(refusal_notice("ar", code).text)


def test_illegal_details_name_real_engine_codes() -> None:
    """``illegal_<detail>`` entries explain engine refusals: each detail is a code the
    engine really raises, and the notice picks it (or falls back to the general one)."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    engine_codes = set(re.findall(r'IllegalAction\(\s*"(\w+)"', source))
    details = [key.removeprefix("illegal_") for key in CATALOG["en"] if key.startswith("illegal_")]
    assert details
    for detail in details:
        assert detail in engine_codes, f"illegal_{detail}: the engine has no such code"
        for language in ("ar", "en"):
            text = refusal_notice(language, "illegal", detail).text
            assert text == CATALOG[language][f"illegal_{detail}"].format(**RULE_NUMBERS)
    general = refusal_notice("en", "illegal", "no_such_reason").text
    assert general == CATALOG["en"]["refuse_illegal"]
    assert refusal_notice("ar", "illegal").text == CATALOG["ar"]["refuse_illegal"]


def test_every_literal_key_used_by_the_renderer_exists() -> None:
    used: set[str] = set()
    for path in RENDER.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\s*\w+,\s*\"(\w+)\"", text))
        used |= set(re.findall(r"\"((?:btn|refuse|illegal|what)_\w+)\"", text))
        used |= set(re.findall(r"\"(result_(?!screen)\w+)\"", text))
    assert used
    missing = sorted(key for key in used if key not in CATALOG["en"])
    assert not missing, missing


def test_unknown_language_falls_back_to_arabic() -> None:
    assert t("fr", "btn_join") == CATALOG["ar"]["btn_join"]


def test_card_labels() -> None:
    assert card_label("TH") == "10♥"
    assert card_label("QH") == "Q♥"
    assert card_label("2C") == "2♣"
    assert card_label("AS") == "A♠"
    assert card_label("JD") == "J♦"
    labels = {card_label(r + s) for r in "23456789TJQKA" for s in "CDHS"}
    assert len(labels) == 52
    assert card("en", "TH") == "10♥"
    assert card("ar", "TH") == f"{LRM}10♥{LRM}"


def test_signed() -> None:
    assert signed("en", 4) == "+4"
    assert signed("en", -14) == "−14"  # a real minus sign (U+2212), not a hyphen
    assert signed("en", 0) == "0"
    assert signed("ar", 14) == f"{LRM}+14{LRM}"
    assert signed("ar", -150) == f"{LRM}−150{LRM}"
    assert signed("ar", 0) == f"{LRM}0{LRM}"


def test_number() -> None:
    assert number("en", 41) == "41"
    assert number("en", -9) == "−9"
    assert LRM not in number("en", 7)
    assert number("ar", 41) == f"{LRM}41{LRM}"
    assert number("ar", -9) == f"{LRM}−9{LRM}"


def test_names_are_isolated_and_lists_use_the_language_comma() -> None:
    assert isolate("Ali") == f"{FSI}Ali{PDI}"
    assert joined("en", ["a", "b"]) == "a, b"
    assert joined("ar", ["a", "b"]) == "a، b"


def test_variant_names() -> None:
    assert {v: variant_name("ar", v) for v in engine.VARIANTS} == {
        "syrian41": "طرنيب سوري 41",
        "tarneeb41_double": "طرنيب 41 مضاعف",
        "tarneeb_solo": "طرنيب فردي",
        "trix_complex": "تركس كومبلكس شراكة",
    }
    for variant in engine.VARIANTS:
        assert variant_name("en", variant) == engine.VARIANTS[variant].name_en
        assert not ARABIC_LETTER.search(variant_name("en", variant))
