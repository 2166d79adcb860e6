"""The variant registry: every fact a frontend or a player reads about a variant."""

from __future__ import annotations

import engine
from engine import VARIANTS
from engine.params import PartnershipParams, SoloParams, TrixParams


def test_each_variant_states_how_its_contract_is_set_and_who_plays_together() -> None:
    facts = {v.id: (v.bidding, v.teams, v.family) for v in VARIANTS.values()}
    assert facts == {
        "syrian41": ("personal", True, "tarneeb"),  # T41.1, T41.5
        "tarneeb41_double": ("personal", True, "tarneeb"),  # T41D
        "tarneeb_solo": ("auction", False, "solo"),  # TS.3-TS.6: four players alone
        "trix_complex": ("kingdoms", True, "trix"),  # TX.1, TX.3
    }
    kinds = {v.bidding: type(v.params) for v in VARIANTS.values()}
    assert kinds == {
        "personal": PartnershipParams,
        "auction": SoloParams,
        "kingdoms": TrixParams,
    }


def test_targets_and_the_lone_move_rule_are_where_the_rules_put_them() -> None:
    solo = VARIANTS["tarneeb_solo"]
    assert solo.targets == (31, 51, 61) and solo.options["target"] in solo.targets  # TS.1
    assert [v.id for v in VARIANTS.values() if v.targets] == ["tarneeb_solo"]
    assert [v.id for v in VARIANTS.values() if v.forced_autoplay] == ["trix_complex"]  # TX.12


def test_families_are_listed_once_in_the_order_of_the_variants() -> None:
    assert engine.FAMILIES == ("tarneeb", "solo", "trix")
    assert engine.DEFAULT_VARIANT in VARIANTS


def test_a_typed_word_names_one_variant_by_its_id_or_an_alias_in_any_case() -> None:
    words = [w for v in VARIANTS.values() for w in (v.id, *v.aliases)]
    assert len(words) == len(set(words))  # no word names two variants
    for info in VARIANTS.values():
        for word in (info.id, *info.aliases):
            assert engine.variant_named(word.upper()) == info.id
    assert engine.variant_named("") is None
    assert engine.variant_named("tarneeb") is None  # a family, not a variant
