"""The Telegram frontend: its handlers registered with PTB, and how an update is read
(language, player, place) and answered (a reply through the outbox, a private message, a
refusal). The commands are in ``commands.py``, the buttons in ``buttons.py``, the league's
commands in ``league.py``; every rule and check lives in the core."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    TypeHandler,
)

from bot.delivery import REPLY, TABLE, Outbox
from bot.delivery.contacts import Contacts
from bot.league.service import counting
from bot.logs import where
from bot.render import Button, Screen, refusal_notice
from bot.tables import LiveTable, Place, PlayerRef, Refusal, TableManager
from bot.telegram.buttons import Buttons, toast
from bot.telegram.commands import Commands
from bot.telegram.league import LeagueCommands
from bot.telegram.notifier import TelegramNotifier
from bot.telegram.texts import COMMAND_MENU, text

log = logging.getLogger("sahra.telegram")

PLATFORM = "telegram"
# The menu's commands, and /start (the private chat's deep link, not in the menu).
COMMAND_NAMES = (*COMMAND_MENU, "start")
# Commands that take nothing after them; anything there gets the usage line.
BARE_COMMANDS = ("join", "leave", "addbot", "begin", "hand", "reclaim", "stop", "score")
REPLY_SECONDS = 30.0  # a group reply not written by then is dropped: it no longer helps
Context = ContextTypes.DEFAULT_TYPE


class TelegramFrontend:
    def __init__(
        self,
        manager: TableManager,
        contacts: Contacts,
        notifier: TelegramNotifier,
        outbox: Outbox,
    ) -> None:
        self.manager = manager
        self.contacts = contacts
        self.notifier = notifier
        self.outbox = outbox
        self.table_defaults: dict[str, Any] = {}  # the operator's timers and difficulty
        self._replies = 0
        self.league = counting(manager)
        self.league_commands = LeagueCommands(self)
        self.commands = Commands(self)
        self.buttons = Buttons(self, self.league_commands)

    def register(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        # Group -1 runs before the handlers of group 0, for every update.
        app.add_handler(TypeHandler(Update, self.prefetch), group=-1)
        for name in COMMAND_NAMES:
            callback = getattr(self.commands, f"cmd_{name}", None) or getattr(
                self.league_commands, f"cmd_{name}"
            )
            if name in BARE_COMMANDS:
                callback = self._bare(name, callback)
            app.add_handler(CommandHandler(name, callback))
        app.add_handler(CallbackQueryHandler(self.buttons.on_button))
        app.add_error_handler(self.on_error)

    async def prefetch(self, update: Update, context: Context) -> None:
        """What the handlers read synchronously (the chat's language, whether the user's
        private chat is open) is read from storage first if it is not cached."""
        chat, user = update.effective_chat, update.effective_user
        await self.contacts.prefetch(
            str(chat.id) if chat is not None else None, [str(user.id)] if user else []
        )

    def _bare(
        self, name: str, command: Callable[[Update, Context], Awaitable[None]]
    ) -> Callable[[Update, Context], Awaitable[None]]:
        """``command``, after refusing any words after it with the usage line."""

        async def guarded(update: Update, context: Context) -> None:
            if context.args:
                self._reply(
                    update, text(self._language(update), "no_arguments", command=f"/{name}")
                )
                return
            await command(update, context)

        return guarded

    # ---------------------------------------------------------------- helpers

    def _language(self, update: Update) -> str:
        """The chat's language (/lang); in a private chat without one, the user's own
        Telegram language when it is English; Arabic otherwise."""
        chat = update.effective_chat
        if chat is None:
            return "ar"
        user = update.effective_user
        default = self.contacts.default_language
        if chat.type == ChatType.PRIVATE and user is not None and user.language_code:
            default = "en" if user.language_code.startswith("en") else "ar"
        return self.contacts.language(str(chat.id), default)

    def _player(self, update: Update, language: str) -> PlayerRef:
        user = update.effective_user
        assert user is not None
        name = (user.full_name or user.username or str(user.id))[:64]
        return PlayerRef.model_validate(
            {"user_id": str(user.id), "name": name, "language": language}
        )

    @staticmethod
    def _place(update: Update) -> Place:
        chat = update.effective_chat
        message = update.effective_message
        assert chat is not None
        thread = ""
        if message is not None and message.is_topic_message and message.message_thread_id:
            thread = str(message.message_thread_id)  # forum topics: one table per topic
        return Place(PLATFORM, str(chat.id), thread)

    @staticmethod
    def _is_group(update: Update) -> bool:
        chat = update.effective_chat
        return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)

    def _reply(self, update: Update, body: str, rows: tuple[tuple[Button, ...], ...] = ()) -> None:
        """A reply through the outbox. In a group it goes after the table's own writes
        (the outbox's lowest priority), and is dropped if it could not be written while
        it still mattered, so no reply ever holds a table back."""
        place = self._place(update)
        group = self._is_group(update)
        self._replies += 1
        self.outbox.post(
            place.chat,
            ("reply", self._replies),
            Screen(body, rows),
            group=group,
            thread=place.thread,
            keep=False,  # never edited
            priority=REPLY,
            expires=REPLY_SECONDS if group else None,
        )

    def _private(
        self,
        update: Update,
        body: str,
        *,
        part: bool = False,
        then: Callable[[], None] | None = None,
        rows: tuple[tuple[Button, ...], ...] = (),
    ) -> bool:
        """A long answer (the rules) goes to the user's private chat, when it is open;
        ``part`` of several messages that must all arrive, in order (a match record):
        never dropped as one reply too many. ``then`` runs once it was written (all of
        it: a long one goes as several messages), never if it was refused."""
        user = self._user(update)
        if not self.contacts.dm_ok(user):
            return False
        self._replies += 1
        self.outbox.post(
            user,
            ("reply", self._replies),
            Screen(body, rows),
            group=False,
            keep=False,
            priority=TABLE if part else REPLY,
            on_sent=None if then is None else lambda _: then(),
        )
        return True

    def _refused(self, update: Update, refusal: Refusal, language: str) -> None:
        self._reply(update, self._refusal_text(language, refusal))

    @staticmethod
    def _refusal_text(language: str, refusal: Refusal) -> str:
        return refusal_notice(language, refusal.code, refusal.detail).text

    def _table_here(self, update: Update) -> LiveTable | None:
        return self.manager.table_at(self._place(update))

    async def _group_table(self, update: Update) -> tuple[LiveTable, str] | None:
        language = self._language(update)
        if not self._is_group(update):
            self._reply(update, text(language, "not_a_group"))
            return None
        table = self._table_here(update)
        if table is None:
            self._reply(update, text(language, "no_table"))
            return None
        return table, language

    # ---------------------------------------------------------------- plumbing

    async def _call(self, update: Update, language: str, call: Any) -> None:
        try:
            await call
        except Refusal as refusal:
            self._refused(update, refusal, language)

    @staticmethod
    def _user(update: Update) -> str:
        user = update.effective_user
        assert user is not None
        return str(user.id)

    async def on_error(self, update: object, context: Context) -> None:
        """The one central error handler: log it (never a card), answer what we can."""
        error = context.error
        # Its type and where it was raised, not its message or a traceback: either could
        # quote a card (an engine refusal names the card not held).
        log.error(
            "event=handler_error error=%s where=%s",
            type(error).__name__,
            where(error) if error is not None else "?",
        )
        if isinstance(update, Update) and update.callback_query is not None:
            try:
                await update.callback_query.answer(
                    toast(refusal_notice(self._language(update), "storage").text)
                )
            except Exception:
                log.warning("event=error_answer_failed")
