"""The variant registry and ``new_match`` (the engine's entry points)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.match import Match
from engine.params import (
    SYRIAN41,
    TARNEEB41_DOUBLE,
    TARNEEB_SOLO,
    TRIX_COMPLEX,
    Params,
    variant_params,
)
from engine.solo import SoloTarneeb
from engine.tarneeb import Syrian41, Tarneeb41Double
from engine.trix import TrixComplex


@dataclass(frozen=True)
class VariantInfo:
    id: str
    name_ar: str
    name_en: str
    teams: bool
    options: dict[str, Any] = field(default_factory=dict)
    rules: str = ""  # the rules.md section
    params: Params | None = None  # the rule parameters (``engine.params``)


_CLASSES: dict[str, type[Match]] = {
    "syrian41": Syrian41,
    "tarneeb41_double": Tarneeb41Double,
    "tarneeb_solo": SoloTarneeb,
    "trix_complex": TrixComplex,
}

VARIANTS: dict[str, VariantInfo] = {
    "syrian41": VariantInfo(
        "syrian41",
        "طرنيب سوري 41",
        "Syrian Tarneeb 41",
        True,
        {"first_dealer": None},
        SYRIAN41.rules,
        SYRIAN41,
    ),
    "tarneeb41_double": VariantInfo(
        "tarneeb41_double",
        "طرنيب 41 مضاعف",
        "Tarneeb 41 with doubled high bids",
        True,
        {"first_dealer": None},
        TARNEEB41_DOUBLE.rules,
        TARNEEB41_DOUBLE,
    ),
    "tarneeb_solo": VariantInfo(
        "tarneeb_solo",
        "طرنيب فردي",
        "Solo Tarneeb",
        False,
        {"first_dealer": None, "target": TARNEEB_SOLO.default_target},
        TARNEEB_SOLO.rules,
        TARNEEB_SOLO,
    ),
    "trix_complex": VariantInfo(
        "trix_complex",
        "تركس كومبلكس شراكة",
        "Trix Complex Partnership",
        True,
        {},
        TRIX_COMPLEX.rules,
        TRIX_COMPLEX,
    ),
}


def new_match(
    variant: str,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    decks: object = None,
) -> Match:
    """Start a match: the first deal is dealt and the first seat is to act.

    >>> m = new_match("syrian41", seed=1234, options={"first_dealer": 0})
    >>> str(m.phase), m.dealer, m.to_act
    ('bidding', 0, [1])
    """
    cls = _CLASSES.get(variant) if isinstance(variant, str) else None
    if cls is None:
        raise ValueError(f"unknown variant {variant!r}; known: {sorted(_CLASSES)}")
    return cls(seed=seed, options=options, decks=decks)


__all__ = ["VARIANTS", "VariantInfo", "new_match", "variant_params"]
