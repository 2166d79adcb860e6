"""Sahra's pure rules engine: cards, dealing, tricks and every variant.

Synchronous and deterministic: no I/O, no clock, no global random state. The surface is
the contract in ``shared/spec/engine-api.md``::

    import engine
    m = engine.new_match("syrian41", seed=1234)
    m.apply(m.to_act[0], {"type": "bid", "value": 3})

Each variant's rule parameters (bid ranges, forbidden bids, totals, targets, Trix deals)
are stated once in ``engine.params``: ``engine.variant_params(variant)``, or
``engine.VARIANTS[variant].params``.
"""

from engine.errors import IllegalAction
from engine.match import Match, Phase
from engine.params import PartnershipParams, SoloParams, TrixParams, variant_params
from engine.variants import (
    DEFAULT_VARIANT,
    FAMILIES,
    VARIANTS,
    VariantInfo,
    new_match,
    variant_named,
)

__all__ = [
    "DEFAULT_VARIANT",
    "FAMILIES",
    "VARIANTS",
    "IllegalAction",
    "Match",
    "PartnershipParams",
    "Phase",
    "SoloParams",
    "TrixParams",
    "VariantInfo",
    "new_match",
    "variant_named",
    "variant_params",
]
