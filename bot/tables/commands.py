"""Platform-neutral commands: what an adapter hands to the manager, validated here, and
the immediate answer a frontend may draw to a press once its checks passed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.logs import where
from bot.tables.config import Language
from bot.tables.live import LiveTable

log = logging.getLogger("sahra.tables")


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


# What a frontend draws once a press passed the checks (table, seat), under the lock;
# False withdraws the press (nobody can be answered any more), changing nothing.
Accepted = Callable[[LiveTable, int], Awaitable[bool]]
# It holds the table's lock, so it gets what a platform allows an answer (Discord: 3 s);
# a network that hangs past that costs the answer, never the table or the move.
ACCEPTED_SECONDS = 2.5


async def answered(on_accepted: Accepted, table: LiveTable, seat: int, seconds: float) -> bool:
    """Whether the press goes on: ``on_accepted``'s word, within ``seconds``. A drawing
    that fails or hangs is logged (type and place) and the move goes on all the same."""
    try:
        return await asyncio.wait_for(on_accepted(table, seat), seconds)
    except Exception as error:
        log.error(
            "event=accepted_hook_failed table=%d error=%s where=%s",
            table.id,
            type(error).__name__,
            where(error),
        )
        return True
