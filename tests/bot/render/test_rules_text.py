"""The /rules summaries: every variant in both languages, short, plain, and the same numbers
in Arabic and English."""

from __future__ import annotations

import re

import pytest

import engine
from bot.render.i18n import CATALOG
from bot.render.rules_text import rules_text

VARIANTS = ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")
LANGUAGES = ("ar", "en")
NAMES = {
    "ar": {
        "syrian41": "طرنيب سوري 41",
        "tarneeb41_double": "طرنيب 41 مضاعف",
        "tarneeb_solo": "طرنيب فردي",
        "trix_complex": "تركس كومبلكس شراكة",
    },
    "en": {
        "syrian41": "Syrian Tarneeb 41",
        "tarneeb41_double": "Tarneeb 41 with doubled high bids",
        "tarneeb_solo": "Solo Tarneeb",
        "trix_complex": "Trix Complex Partnership",
    },
}
KEY_NUMBERS = {
    "syrian41": ("41", "11", "13"),
    "tarneeb41_double": ("41", "12", "30", "7", "6", "14", "16"),
    "tarneeb_solo": ("31", "51", "61", "13", "7", "16", "26"),
    "trix_complex": ("200", "150", "100", "50", "75", "25", "15", "10", "500", "8"),
}
ARABIC_LETTER = re.compile(r"[\u0621-\u064a]")
LRM = "\u200e"


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def test_every_variant_in_both_languages() -> None:
    for language in LANGUAGES:
        rules = {key[len("rules_") :] for key in CATALOG[language] if key.startswith("rules_")}
        assert rules == set(VARIANTS)
        for variant in VARIANTS:
            assert rules_text(variant, language).strip()


def test_variant_ids_and_names_match_the_engine() -> None:
    assert set(engine.VARIANTS) == set(VARIANTS)
    for variant, info in engine.VARIANTS.items():
        assert NAMES["ar"][variant] == info.name_ar
        assert NAMES["en"][variant] == info.name_en


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_short_plain_text_with_the_name_as_title(variant: str, language: str) -> None:
    text = rules_text(variant, language)
    assert len(text) < 1400
    assert text.splitlines()[0] == NAMES[language][variant]
    assert not set(text) & set("*_`<>[]#|\\")  # no Markdown or HTML
    assert "  " not in text and text == text.strip()
    for line in text.splitlines()[1:]:
        assert line.startswith("• "), line


@pytest.mark.parametrize("variant", VARIANTS)
def test_arabic_reads_right_to_left(variant: str) -> None:
    text = rules_text(variant, "ar")
    assert ARABIC_LETTER.search(text)
    for line in text.splitlines():
        # the first thing after the bullet is an Arabic word, never a number or a sign
        assert ARABIC_LETTER.match(line.removeprefix("• ")), line
    # signed numbers and card labels are kept left to right by LRM marks
    bare = re.sub(f"{LRM}[^{LRM}]*{LRM}", "", text)
    assert not re.search(r"[+−]\d|(?:10|[2-9JQKA])[♠♥♦♣]", bare)


def test_english_has_no_arabic_and_no_marks() -> None:
    for variant in VARIANTS:
        text = rules_text(variant, "en")
        assert not ARABIC_LETTER.search(text)
        assert LRM not in text


@pytest.mark.parametrize("variant", VARIANTS)
def test_key_numbers_in_both_languages(variant: str) -> None:
    for language in LANGUAGES:
        numbers = _numbers(rules_text(variant, language))
        for number in KEY_NUMBERS[variant]:
            assert number in numbers, (language, number)


@pytest.mark.parametrize("variant", VARIANTS)
def test_both_languages_use_the_same_numbers(variant: str) -> None:
    assert _numbers(rules_text(variant, "ar")) == _numbers(rules_text(variant, "en"))


def test_trix_penalties_are_negative_in_both_languages() -> None:
    for language in LANGUAGES:
        text = rules_text("trix_complex", language)
        for penalty in ("−15", "−10", "−25", "−75", "−500", "+200", "+150", "+100", "+50"):
            assert penalty in text, (language, penalty)


def test_languages_fall_back_to_arabic() -> None:
    assert rules_text("syrian41", "EN-us") == rules_text("syrian41", "en")
    assert rules_text("syrian41", "en_GB") == rules_text("syrian41", "en")
    for unknown in ("fr", "", "xx-YY"):
        assert rules_text("trix_complex", unknown) == rules_text("trix_complex", "ar")


@pytest.mark.parametrize("variant", ["", "tarneeb", "SYRIAN41", "trix"])
def test_unknown_variant_raises_value_error(variant: str) -> None:
    for language in (*LANGUAGES, "fr"):
        with pytest.raises(ValueError):
            rules_text(variant, language)
