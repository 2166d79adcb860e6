"""The variant registry and ``new_match`` (the engine's entry points)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

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

Bidding = Literal["personal", "auction", "kingdoms"]


@dataclass(frozen=True)
class VariantInfo:
    """Every fact about a variant that a frontend or a player needs, stated once (as
    OpenSpiel's ``_GAME_INFO``): nothing outside the engine compares a variant's name."""

    id: str
    name_ar: str
    name_en: str
    teams: bool  # two partnerships, partners opposite (T41.1, TX.1); False: four alone (TS)
    options: dict[str, Any] = field(default_factory=dict)  # new_match's defaults
    rules: str = ""  # the rules.md section
    params: Params | None = None  # the rule parameters (``engine.params``)
    #: how a deal's contract is set: each seat's own bid (T41.5), one auction won by a
    #: declarer (TS.3-TS.6), or a kingdom owner's contract choice, no bids (TX.3)
    bidding: Bidding = "personal"
    family: str = ""  # the game it is rated with (the league): "tarneeb", "solo", "trix"
    aliases: tuple[str, ...] = ()  # what people type for it, besides its id
    targets: tuple[int, ...] = ()  # targets a table may choose (TS.1); empty: fixed
    forced_autoplay: bool = False  # TX.12: a lone legal move plays itself, by default


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
        teams=True,
        options={"first_dealer": None},
        rules=SYRIAN41.rules,
        params=SYRIAN41,
        family="tarneeb",
        aliases=("syrian", "41"),
    ),
    "tarneeb41_double": VariantInfo(
        "tarneeb41_double",
        "طرنيب 41 مضاعف",
        "Tarneeb 41 with doubled high bids",
        teams=True,
        options={"first_dealer": None},
        rules=TARNEEB41_DOUBLE.rules,
        params=TARNEEB41_DOUBLE,
        family="tarneeb",
        aliases=("double",),
    ),
    "tarneeb_solo": VariantInfo(
        "tarneeb_solo",
        "طرنيب فردي",
        "Solo Tarneeb",
        teams=False,
        options={"first_dealer": None, "target": TARNEEB_SOLO.default_target},
        rules=TARNEEB_SOLO.rules,
        params=TARNEEB_SOLO,
        bidding="auction",
        family="solo",
        aliases=("solo",),
        targets=TARNEEB_SOLO.targets,
    ),
    "trix_complex": VariantInfo(
        "trix_complex",
        "تركس كومبلكس شراكة",
        "Trix Complex Partnership",
        teams=True,
        options={},
        rules=TRIX_COMPLEX.rules,
        params=TRIX_COMPLEX,
        bidding="kingdoms",
        family="trix",
        aliases=("trix", "complex"),
        forced_autoplay=True,
    ),
}
DEFAULT_VARIANT = "syrian41"  # what a table or the terminal plays when nobody says
#: the games rated together, in the order players see them
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(info.family for info in VARIANTS.values()))


def variant_named(word: str) -> str | None:
    """The variant a typed word means (its id or an alias, any case), or None.

    >>> variant_named("Trix"), variant_named("41"), variant_named("chess")
    ('trix_complex', 'syrian41', None)
    """
    word = word.lower()
    for info in VARIANTS.values():
        if word == info.id or word in info.aliases:
            return info.id
    return None


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


__all__ = [
    "DEFAULT_VARIANT",
    "FAMILIES",
    "VARIANTS",
    "VariantInfo",
    "new_match",
    "variant_named",
    "variant_params",
]
