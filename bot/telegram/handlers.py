"""Telegram updates → table commands. Thin on purpose: every rule, check and screen lives
in the core (manager, renderer); this turns a command or a button into one manager call
and its refusal into a polite answer (a callback toast costs no group budget)."""

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

import engine
from bot.delivery import REPLY, TABLE, Outbox
from bot.delivery.contacts import Contacts
from bot.delivery.split import TELEGRAM_TOAST, fit_text
from bot.league.service import counting
from bot.logs import where
from bot.render import DOUBLE_PICK, Button, Screen, refusal_notice, rules_text
from bot.render.codes import NEW_VARIANTS, decode
from bot.render.i18n import isolate, joined, variant_name
from bot.render.standing import score_line
from bot.tables import LiveTable, Place, PlayerRef, Press, Refusal, TableManager, table_commands
from bot.tables.table_commands import TABLE_COMMANDS, TableCommand
from bot.telegram.league import LeagueCommands
from bot.telegram.notifier import TelegramNotifier, deep_link
from bot.telegram.standing import ChatStanding
from bot.telegram.texts import COMMAND_MENU, text

log = logging.getLogger("sahra.telegram")

PLATFORM = "telegram"
# The menu's commands, and /start (the private chat's deep link, not in the menu).
COMMAND_NAMES = (*COMMAND_MENU, "start")
DIFFICULTIES = ("easy", "hard")
# Commands that take nothing after them; anything there gets the usage line.
BARE_COMMANDS = ("join", "leave", "addbot", "begin", "hand", "reclaim", "stop", "score")
ECHO_WORDS = 5  # words of a user's garbage named back at most, each cut to ECHO_LENGTH
ECHO_LENGTH = 24
REPLY_SECONDS = 30.0  # a group reply not written by then is dropped: it no longer helps
Context = ContextTypes.DEFAULT_TYPE


def toast(answer: str | None) -> str | None:
    """A callback's answer as Telegram takes it: at most 200 characters."""
    return None if answer is None else fit_text(answer, TELEGRAM_TOAST)


def echo(language: str, words: list[str]) -> str:
    """A user's words named back in a reply: a few, short, each in its own direction."""
    shown = [isolate(f"“{word[:ECHO_LENGTH]}”") for word in words[:ECHO_WORDS]]
    return joined(language, shown) + ("…" if len(words) > ECHO_WORDS else "")


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

    def register(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        # Group -1 runs before the handlers of group 0, for every update.
        app.add_handler(TypeHandler(Update, self.prefetch), group=-1)
        for name in COMMAND_NAMES:
            callback = getattr(self, f"cmd_{name}", None) or getattr(
                self.league_commands, f"cmd_{name}"
            )
            if name in BARE_COMMANDS:
                callback = self._bare(name, callback)
            app.add_handler(CommandHandler(name, callback))
        app.add_handler(CallbackQueryHandler(self.on_button))
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
            Screen(body),
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

    # ---------------------------------------------------------------- commands

    async def cmd_new(self, update: Update, context: Context) -> None:
        language = self._language(update)
        if not self._is_group(update):
            self._reply(update, text(language, "not_a_group"))
            return
        args = [arg.lower() for arg in context.args or []]
        if not args:
            self._reply(update, text(language, "pick_variant"), _variant_picker(language))
            return
        variant = engine.variant_named(args[0])
        if variant is None:
            self._reply(update, text(language, "unknown_variant", word=echo(language, args[:1])))
            return
        options, problem = _new_options(language, variant, args[1:])
        if problem is not None:
            self._reply(update, problem)
            return
        refusal = await self._create(update, variant, options, language)
        if refusal is not None:
            self._refused(update, refusal, language)

    async def _create(
        self, update: Update, variant: str, options: dict[str, Any], language: str
    ) -> Refusal | None:
        config = {**self.table_defaults, "variant": variant, "language": language, **options}
        try:
            await self.manager.create(self._place(update), self._player(update, language), config)
        except Refusal as refusal:
            return refusal
        return None

    async def _table_command(self, update: Update, command: TableCommand) -> None:
        """A group command about the table here, carried out by the core (which decides
        who may); a refusal answered politely."""
        found = await self._group_table(update)
        if found:
            table, language = found
            player = self._player(update, language)
            asked = table_commands.run(
                self.manager, table.id, command, player, ChatStanding(update)
            )
            await self._call(update, language, asked)

    async def cmd_join(self, update: Update, context: Context) -> None:
        await self._table_command(update, "join")

    async def cmd_leave(self, update: Update, context: Context) -> None:
        await self._table_command(update, "leave")

    async def cmd_addbot(self, update: Update, context: Context) -> None:
        await self._table_command(update, "add_computer")

    async def cmd_begin(self, update: Update, context: Context) -> None:
        await self._table_command(update, "begin")

    async def cmd_reclaim(self, update: Update, context: Context) -> None:
        await self._table_command(update, "reclaim")

    async def cmd_stop(self, update: Update, context: Context) -> None:
        await self._table_command(update, "stop")

    async def cmd_hand(self, update: Update, context: Context) -> None:
        found = await self._group_table(update)
        if not found:
            return
        table, language = found
        user = self._user(update)
        seat = table.seat_of(user)
        if seat is None:
            self._refused(update, Refusal("not_seated"), language)
        elif self.contacts.dm_ok(user) and table.status == "running":
            # A new copy below, the old one losing its buttons: one live hand per player.
            self.notifier.send_hand(table, seat, new=True)
        elif not self.contacts.dm_ok(user):
            self.notifier.dm_link_notice(table, self._player(update, language).name)
        else:  # the private chat is open, but no cards are dealt yet
            self._refused(update, Refusal("not_running"), language)

    async def cmd_score(self, update: Update, context: Context) -> None:
        found = await self._group_table(update)
        if found:
            table, _language = found
            # A short line: the table message itself shows the full standing.
            self._reply(update, score_line(self.notifier.presenter.info(table), table.match))

    async def cmd_rules(self, update: Update, context: Context) -> None:
        language = self._language(update)
        args = [arg.lower() for arg in context.args or []]
        if args:
            variant = engine.variant_named(args[0])
            if len(args) > 1 or variant is None:
                self._reply(update, text(language, "rules_unknown", word=echo(language, args)))
                return
            self._rules(update, [variant], language)
            return
        table = self._table_here(update)
        self._rules(update, [table.variant] if table is not None else list(NEW_VARIANTS), language)

    def _rules(self, update: Update, variants: list[str], language: str) -> None:
        """The rules are long (all four games take two messages): in a group they go to
        the asker privately, with a one-line pointer in the group once they are there
        (only when the private chat is closed are they posted in the group)."""
        body = "\n\n".join(rules_text(variant, language) for variant in variants)
        if not self._is_group(update):
            self._reply(update, body)
            return
        pointer = text(language, "rules_sent", name=isolate(self._player(update, language).name))
        if not self._private(update, body, then=lambda: self._reply(update, pointer)):
            self._reply(update, body)

    async def cmd_lang(self, update: Update, context: Context) -> None:
        args = [arg.lower() for arg in context.args or []]
        chat = update.effective_chat
        assert chat is not None
        if len(args) != 1 or args[0] not in ("ar", "en"):
            self._reply(update, text(self._language(update), "lang_usage"))
            return
        await self.contacts.set_language(str(chat.id), args[0])
        self._reply(update, text(args[0], "lang_set"))

    async def cmd_help(self, update: Update, context: Context) -> None:
        self._reply(update, text(self._language(update), "help"))

    async def cmd_start(self, update: Update, context: Context) -> None:
        """The private chat's /start, usually from the deep link ``t<table>``: from now on
        the bot can write to this player, and their hand comes at once."""
        chat = update.effective_chat
        if chat is None or chat.type != ChatType.PRIVATE:
            return
        user = self._user(update)
        args = context.args or []
        table = None
        if args and args[0].startswith("t") and args[0][1:].isdigit():
            try:
                table = self.manager.table(int(args[0][1:]))
            except Refusal:
                table = None
        language = table.config.language if table is not None else self._language(update)
        name = self._player(update, language).name
        await self.contacts.set_dm_ok(user, True, name, language)
        seat = table.seat_of(user) if table is not None else None
        if table is None or seat is None:
            self._reply(update, text(language, "dm_welcome"))
            return
        self._reply(update, text(language, "dm_bound", table=table.id))
        self.notifier.refresh(table)  # the lobby drops the name; the hand is sent

    # ---------------------------------------------------------------- buttons

    async def on_button(self, update: Update, context: Context) -> None:
        query = update.callback_query
        assert query is not None
        decoded = decode(query.data or "")
        language = self._language(update)
        if decoded is None:
            await query.answer(toast(refusal_notice(language, "stale").text))
            return
        table_id, version, action = decoded
        kind = action["type"]
        if kind == "new":
            options = {"target": action["target"]} if "target" in action else {}
            if engine.VARIANTS[action["variant"]].targets and not options:  # TS.1
                await query.answer()
                picker = _target_picker(action["variant"])
                self._reply(update, text(language, "pick_target"), picker)
                return
            refusal = await self._create(update, action["variant"], options, language)
            await query.answer(
                toast(refusal_notice(language, refusal.code).text) if refusal else None
            )
            return
        if kind in ("rematch", "record"):  # buttons of a match that is over
            await query.answer(
                toast(await self.league_commands.button(update, table_id, action, language))
            )
            return
        try:
            table = self.manager.table(table_id)
        except Refusal as refusal:
            await query.answer(toast(refusal_notice(language, refusal.code).text))
            return
        language = table.config.language
        user = self._user(update)
        answer = await self._button(update, table, version, action, user, language)
        if answer is not None and answer.startswith("https://"):
            await query.answer(url=answer)
        else:
            await query.answer(toast(answer))

    async def _button(
        self,
        update: Update,
        table: LiveTable,
        version: int,
        action: dict[str, Any],
        user: str,
        language: str,
    ) -> str | None:
        """Handle one table button; returns the toast text (or a deep link to open)."""
        kind = action["type"]
        try:
            if kind == "noop":
                return refusal_notice(language, "illegal").text
            if kind == DOUBLE_PICK:
                seat = table.seat_of(user)
                if seat is None:
                    raise Refusal("not_seated")
                self.notifier.pick(table, seat, tuple(action["cards"]))
                return None
            if kind in TABLE_COMMANDS:
                player = self._player(update, language)
                await table_commands.run(
                    self.manager, table.id, kind, player, ChatStanding(update)
                )
            elif kind == "rules":
                if self._private(update, rules_text(table.variant, language)):
                    return text(language, "sent_to_dm")
                self._reply(update, rules_text(table.variant, language))
            elif kind == "hand":
                seat = table.seat_of(user)
                if seat is None:
                    raise Refusal("not_seated")
                if not self.contacts.dm_ok(user):
                    return deep_link(self.notifier.username(), table.id)
                self.notifier.send_hand(table, seat, new=True)
                return text(language, "sent_to_dm")
            else:
                player = self._player(update, language)
                await self.manager.press(
                    Press(table_id=table.id, version=version, action=action, player=player)
                )
        except Refusal as refusal:
            return refusal_notice(language, refusal.code, refusal.detail).text
        return None

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


def _variant_picker(language: str) -> tuple[tuple[Button, ...], ...]:
    return tuple(
        (Button(variant_name(language, variant), {"type": "new", "variant": variant}, 0, 0),)
        for variant in NEW_VARIANTS
    )


def _target_picker(variant: str) -> tuple[tuple[Button, ...], ...]:
    return (
        tuple(
            Button(str(target), {"type": "new", "variant": variant, "target": target}, 0, 0)
            for target in engine.VARIANTS[variant].targets
        ),
    )


def _new_options(
    language: str, variant: str, words: list[str]
) -> tuple[dict[str, Any], str | None]:
    """/new's words after the game: a difficulty, and a target for Solo Tarneeb. Returns
    the options, or the reply naming what is wrong (nothing is guessed or ignored)."""
    options: dict[str, Any] = {}
    number: int | None = None  # the position of the first number
    wrong: list[int] = []  # positions of the words not understood
    for at, word in enumerate(words):
        if word in DIFFICULTIES and "difficulty" not in options:
            options["difficulty"] = word
        elif word.isdecimal() and number is None:
            number = at
        else:
            wrong.append(at)
    target = int(words[number]) if number is not None else None
    targets = engine.VARIANTS[variant].targets  # TS.1: only where the rules offer a choice
    valid = target in targets
    if wrong:
        if number is not None and not valid:
            wrong = sorted([*wrong, number])
        named = [words[at] for at in wrong]
        return options, text(language, "new_unknown_words", words=echo(language, named))
    if number is None:
        return options, None
    if not targets:
        name = variant_name(language, variant)
        return options, text(language, "new_no_target", game=name, variant=variant)
    if not valid:
        return options, text(language, "new_bad_target", target=words[number][:ECHO_LENGTH])
    options["target"] = target
    return options, None
