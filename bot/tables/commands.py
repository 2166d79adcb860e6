"""Platform-neutral commands: what an adapter hands to the manager, validated here."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.tables.config import Language


class PlayerRef(BaseModel):
    """Who is acting: a platform user, by the id the platform gives them."""

    model_config = ConfigDict(frozen=True)

    user_id: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=64)
    language: Language = "ar"


class Press(BaseModel):
    """A button press: the table and state version it was drawn for, and its action."""

    model_config = ConfigDict(frozen=True)

    table_id: int = Field(ge=1)
    version: int = Field(ge=0)
    action: dict[str, Any]
    player: PlayerRef
