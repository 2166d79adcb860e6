"""A table's settings, validated at the boundary (pydantic)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine import VARIANTS

Language = Literal["ar", "en"]


class TableConfig(BaseModel):
    """What the creator chose for a table. Unknown fields and bad values are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    variant: str = Field(description="one of engine.VARIANTS")
    target: int | None = Field(
        default=None,
        description="for a variant with targets to choose (TS.1): one of its targets",
    )
    turn_seconds: int = Field(default=60, ge=5, le=3600, description="time to play a card")
    bid_seconds: int = Field(default=60, ge=5, le=3600, description="time to bid or choose")
    doubling_seconds: int = Field(default=30, ge=5, le=600, description="TX.7 window")
    forced_autoplay: bool | None = Field(
        default=None,
        description="TX.12: play lone moves alone; None = the rules' default (Trix only)",
    )
    forced_delay_seconds: float = Field(default=1.5, ge=0, le=30, description="TX.12 delay")
    computer_delay_seconds: float = Field(default=0.0, ge=0, le=30)
    timeouts_before_takeover: int = Field(default=2, ge=1, le=20)
    lobby_ttl_seconds: int = Field(default=1800, ge=10, le=7 * 24 * 3600)
    abandon_after_seconds: int = Field(default=3600, ge=30, le=30 * 24 * 3600)
    language: Language = "ar"
    rematch_of: int | None = Field(
        default=None, description="the finished table this one replays with the same players"
    )
    rematch_seconds: int = Field(
        default=60, ge=5, le=3600, description="how long a rematch waits for confirmations"
    )
    difficulty: Literal["easy", "hard"] = Field(
        default="easy",
        description="computer players: easy = heuristic (instant), hard = search (stronger)",
    )

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, variant: str) -> str:
        if variant not in VARIANTS:
            raise ValueError(f"the variant is one of {', '.join(VARIANTS)}")
        return variant

    @model_validator(mode="after")
    def _forced_autoplay_default(self) -> TableConfig:
        # TX.12 is Trix's rule: a variant plays a lone legal move by itself only where its
        # rules say so, unless the table says otherwise. Stored configs carry the value.
        if self.forced_autoplay is None:
            object.__setattr__(self, "forced_autoplay", VARIANTS[self.variant].forced_autoplay)
        return self

    @model_validator(mode="after")
    def _target_only_where_chosen(self) -> TableConfig:
        info = VARIANTS[self.variant]
        if info.targets:  # TS.1
            if self.target is None:
                object.__setattr__(self, "target", info.options["target"])
            elif self.target not in info.targets:
                choices = ", ".join(map(str, info.targets))
                raise ValueError(f"the target is one of {choices}")
        elif self.target is not None:
            raise ValueError(f"no target is chosen for {self.variant}")
        return self

    def engine_options(self) -> dict[str, Any]:
        """The options ``engine.new_match`` takes for this table."""
        return {"target": self.target} if VARIANTS[self.variant].targets else {}
