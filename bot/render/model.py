"""The platform-neutral screen model, and the table facts a screen is drawn from.

A ``Screen`` is text plus rows of buttons; every button carries its table, the state
version it was drawn for and the action it stands for, so a stale or forged press can be
refused by the manager. Adapters map screens to their widgets (Telegram inline keyboards,
discord.py views, numbered lines in the console) and may not add game content.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

Style = Literal["primary", "secondary", "success", "danger"]

# How a platform shows a turn's deadline: (language, deadline in unix seconds) → text
# placed after the turn line. A message is written once and then sits unchanged, so a
# countdown drawn into it would freeze and lie; a platform either renders the deadline
# itself (Discord's live ``<t:…:R>`` timestamps) or shows no number (``no_timer``).
TimerStyle = Callable[[str, float], str]


def no_timer(language: str, deadline: float) -> str:
    """No deadline text at all: the turn line only names who is to act."""
    return ""


@dataclass(frozen=True)
class Button:
    """One button. ``action`` is an engine action (``{"type": "play", "card": "QH"}``) or
    a table command (``{"type": "join"}``); a disabled button is shown, never pressable."""

    label: str
    action: dict[str, Any]
    table_id: int
    version: int
    enabled: bool = True
    style: Style = "secondary"
    url: str | None = None  # a link (e.g. the deep link that opens a private chat)
    web_app: bool = False  # ``url`` opens as a Telegram Mini App (private chats only)


@dataclass(frozen=True)
class Screen:
    text: str
    rows: tuple[tuple[Button, ...], ...] = ()

    def buttons(self) -> list[Button]:
        return [button for row in self.rows for button in row]

    def enabled(self) -> list[Button]:
        return [button for button in self.buttons() if button.enabled]


@dataclass(frozen=True)
class Notice:
    """A short answer to one player (a refusal, a confirmation): a callback toast on
    Telegram, an ephemeral reply on Discord, a line in the console."""

    text: str


@dataclass(frozen=True)
class SeatInfo:
    name: str
    computer: bool = False
    away: bool = False  # a computer plays for the absent owner
    dm_pending: bool = False  # has not opened a private chat with the bot yet
    ready: bool = False  # confirmed a rematch


class TableOptions(Protocol):
    """What a screen reads of a table's settings (``bot.tables.config.TableConfig`` is one):
    declared here so that screens are drawn from plain data handed down, never from the
    table manager above."""

    @property
    def variant(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def target(self) -> int | None: ...
    @property
    def bid_seconds(self) -> int: ...
    @property
    def turn_seconds(self) -> int: ...
    @property
    def difficulty(self) -> str: ...
    @property
    def rematch_of(self) -> int | None: ...
    @property
    def rematch_seconds(self) -> int: ...


@dataclass(frozen=True)
class TableInfo:
    """What every screen of a table needs besides the match view."""

    id: int
    config: TableOptions
    status: str
    version: int
    seats: tuple[SeatInfo | None, ...] = (None, None, None, None)
    deadline: float | None = None
    creator: str = ""

    @property
    def variant(self) -> str:
        return self.config.variant

    @property
    def language(self) -> str:
        return self.config.language
