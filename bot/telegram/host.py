"""What the parts of the Telegram frontend (commands, buttons, the league's commands) use
of it: how an update is read (language, player, place) and answered (a reply, a private
message, a refusal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from telegram import Update

from bot.delivery.contacts import Contacts
from bot.league.service import League
from bot.render.model import Button
from bot.tables.commands import PlayerRef
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Place
from bot.tables.manager import TableManager
from bot.telegram.notifier import TelegramNotifier


class Host(Protocol):
    """What the commands, the buttons and the league's commands use of the frontend
    (``handlers.TelegramFrontend``): how an update is read and answered. Declared apart so
    that the frontend and its parts do not import each other."""

    manager: TableManager
    league: League
    contacts: Contacts
    notifier: TelegramNotifier
    table_defaults: dict[str, Any]

    def _language(self, update: Update) -> str: ...
    def _player(self, update: Update, language: str) -> PlayerRef: ...
    def _place(self, update: Update) -> Place: ...
    def _is_group(self, update: Update) -> bool: ...
    def _reply(
        self, update: Update, body: str, rows: tuple[tuple[Button, ...], ...] = ()
    ) -> None: ...
    def _private(
        self,
        update: Update,
        body: str,
        *,
        part: bool = False,
        then: Callable[[], None] | None = None,
        rows: tuple[tuple[Button, ...], ...] = (),
    ) -> bool: ...
    def _refused(self, update: Update, refusal: Refusal, language: str) -> None: ...
    def _refusal_text(self, language: str, refusal: Refusal) -> str: ...
    async def _group_table(self, update: Update) -> tuple[LiveTable, str] | None: ...
    async def _call(self, update: Update, language: str, call: Any) -> None: ...
    def _table_here(self, update: Update) -> LiveTable | None: ...
    def _user(self, update: Update) -> str: ...
