"""What the parts of the Discord frontend (slash commands, buttons, the league's commands)
use of it: how an interaction is read (language, player, place) and answered (an
ephemeral reply, a refusal)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.delivery.contacts import Contacts
from bot.discord.notifier import DiscordNotifier
from bot.discord.sender import DiscordSender
from bot.league.service import League
from bot.tables.commands import PlayerRef
from bot.tables.live import LiveTable, Place
from bot.tables.manager import TableManager

Interaction = discord.Interaction[Any]  # resolved at run time by the command tree


def expired(error: BaseException) -> bool:
    """Discord's 10062: the interaction is past its 3 s and can no longer be answered."""
    return isinstance(error, discord.NotFound) and error.code == 10062


class Host(Protocol):
    """What the slash commands, the buttons and the league's commands use of the frontend
    (``frontend.DiscordFrontend``): how an interaction is read and answered. Declared apart
    so that the frontend and its parts do not import each other."""

    manager: TableManager
    league: League
    contacts: Contacts
    notifier: DiscordNotifier
    sender: DiscordSender
    table_defaults: dict[str, Any]
    completed: int
    # A personal, short-lived link to the web table for (table, person); None: not served.
    web_link: Callable[[LiveTable, PlayerRef], str] | None
    # The web table opens inside Discord as an Activity (the operator's discord_activity).
    activities: bool

    def _language(self, interaction: Interaction) -> str: ...
    def _new_table_language(self, interaction: Interaction) -> str: ...
    def _player(self, interaction: Interaction, language: str) -> PlayerRef: ...
    def _say(self, interaction: Interaction, message: str) -> Awaitable[None]: ...
    def _run(
        self, interaction: Interaction, call: Any, done: str | None = None
    ) -> Awaitable[None]: ...
    def _table_here(self, interaction: Interaction) -> LiveTable | None: ...
    def _place(self, interaction: Interaction) -> Place: ...
    def _refused(
        self, interaction: Interaction, kind: str, reason: str, **fields: object
    ) -> None: ...
    def end_unpostable(self, chat: str) -> Awaitable[None]: ...


PAGE = 1900  # characters of one message (Discord allows 2,000)
