"""Sahra's pure rules engine: cards, dealing, tricks and every variant.

Synchronous and deterministic: no I/O, no clock, no global random state. The surface is
the contract in ``shared/spec/engine-api.md``::

    import engine
    m = engine.new_match("syrian41", seed=1234)
    m.apply(m.to_act[0], {"type": "bid", "value": 3})
"""

from engine.errors import IllegalAction
from engine.match import Match, Phase
from engine.variants import VARIANTS, VariantInfo, new_match

__all__ = ["VARIANTS", "IllegalAction", "Match", "Phase", "VariantInfo", "new_match"]
