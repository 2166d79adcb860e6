"""Telegram's group and private commands (``/new``, ``/join`` … ``/start``): each read
from its update and handed to the core (``bot.tables.table_commands``, the manager), its
refusal answered politely. The league's commands are in ``league.py``."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

import engine
from bot.render import Button, rules_text
from bot.render.codes import NEW_VARIANTS
from bot.render.i18n import isolate, joined, variant_name
from bot.render.standing import score_line
from bot.tables import Refusal, table_commands
from bot.tables.table_commands import TableCommand
from bot.telegram.host import Host
from bot.telegram.standing import ChatStanding
from bot.telegram.texts import text

Context = ContextTypes.DEFAULT_TYPE
DIFFICULTIES = ("easy", "hard")
ECHO_WORDS = 5  # words of a user's garbage named back at most, each cut to ECHO_LENGTH
ECHO_LENGTH = 24


def echo(language: str, words: list[str]) -> str:
    """A user's words named back in a reply: a few, short, each in its own direction."""
    shown = [isolate(f"“{word[:ECHO_LENGTH]}”") for word in words[:ECHO_WORDS]]
    return joined(language, shown) + ("…" if len(words) > ECHO_WORDS else "")


class Commands:
    def __init__(self, host: Host) -> None:
        self.host = host

    async def cmd_new(self, update: Update, context: Context) -> None:
        language = self.host._language(update)
        if not self.host._is_group(update):
            self.host._reply(update, text(language, "not_a_group"))
            return
        args = [arg.lower() for arg in context.args or []]
        if not args:
            self.host._reply(update, text(language, "pick_variant"), variant_picker(language))
            return
        variant = engine.variant_named(args[0])
        if variant is None:
            self.host._reply(
                update, text(language, "unknown_variant", word=echo(language, args[:1]))
            )
            return
        options, problem = new_options(language, variant, args[1:])
        if problem is not None:
            self.host._reply(update, problem)
            return
        refusal = await create_table(self.host, update, variant, options, language)
        if refusal is not None:
            self.host._refused(update, refusal, language)

    async def _table_command(self, update: Update, command: TableCommand) -> None:
        """A group command about the table here, carried out by the core (which decides
        who may); a refusal answered politely."""
        found = await self.host._group_table(update)
        if found:
            table, language = found
            player = self.host._player(update, language)
            asked = table_commands.run(
                self.host.manager, table.id, command, player, ChatStanding(update)
            )
            await self.host._call(update, language, asked)

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
        found = await self.host._group_table(update)
        if not found:
            return
        table, language = found
        user = self.host._user(update)
        seat = table.seat_of(user)
        if seat is None:
            self.host._refused(update, Refusal("not_seated"), language)
        elif self.host.contacts.dm_ok(user) and table.status == "running":
            # A new copy below, the old one losing its buttons: one live hand per player.
            self.host.notifier.send_hand(table, seat, new=True)
        elif not self.host.contacts.dm_ok(user):
            self.host.notifier.dm_link_notice(table, self.host._player(update, language).name)
        else:  # the private chat is open, but no cards are dealt yet
            self.host._refused(update, Refusal("not_running"), language)

    async def cmd_score(self, update: Update, context: Context) -> None:
        found = await self.host._group_table(update)
        if found:
            table, _language = found
            # A short line: the table message itself shows the full standing.
            self.host._reply(
                update, score_line(self.host.notifier.presenter.info(table), table.match)
            )

    async def cmd_rules(self, update: Update, context: Context) -> None:
        language = self.host._language(update)
        args = [arg.lower() for arg in context.args or []]
        if args:
            variant = engine.variant_named(args[0])
            if len(args) > 1 or variant is None:
                self.host._reply(
                    update, text(language, "rules_unknown", word=echo(language, args))
                )
                return
            self._rules(update, [variant], language)
            return
        table = self.host._table_here(update)
        self._rules(update, [table.variant] if table is not None else list(NEW_VARIANTS), language)

    def _rules(self, update: Update, variants: list[str], language: str) -> None:
        """The rules are long (all four games take two messages): in a group they go to
        the asker privately, with a one-line pointer in the group once they are there
        (only when the private chat is closed are they posted in the group)."""
        body = "\n\n".join(rules_text(variant, language) for variant in variants)
        if not self.host._is_group(update):
            self.host._reply(update, body)
            return
        pointer = text(
            language, "rules_sent", name=isolate(self.host._player(update, language).name)
        )
        if not self.host._private(update, body, then=lambda: self.host._reply(update, pointer)):
            self.host._reply(update, body)

    async def cmd_lang(self, update: Update, context: Context) -> None:
        args = [arg.lower() for arg in context.args or []]
        chat = update.effective_chat
        assert chat is not None
        if len(args) != 1 or args[0] not in ("ar", "en"):
            self.host._reply(update, text(self.host._language(update), "lang_usage"))
            return
        if self.host._is_group(update):
            language = self.host._language(update)
            user = self.host._user(update)
            try:
                await table_commands.check_language_change(
                    self.host._table_here(update), user, ChatStanding(update)
                )
            except Refusal as refusal:
                self.host._refused(update, refusal, language)
                return
        await self.host.contacts.set_language(str(chat.id), args[0])
        self.host._reply(update, text(args[0], "lang_set"))

    async def cmd_help(self, update: Update, context: Context) -> None:
        self.host._reply(update, text(self.host._language(update), "help"))

    async def cmd_start(self, update: Update, context: Context) -> None:
        """The private chat's /start, usually from the deep link ``t<table>``: from now on
        the bot can write to this player, and their hand comes at once."""
        chat = update.effective_chat
        if chat is None or chat.type != ChatType.PRIVATE:
            return
        user = self.host._user(update)
        args = context.args or []
        table = None
        if args and args[0].startswith("t") and args[0][1:].isdigit():
            try:
                table = self.host.manager.table(int(args[0][1:]))
            except Refusal:
                table = None
        language = table.config.language if table is not None else self.host._language(update)
        name = self.host._player(update, language).name
        await self.host.contacts.set_dm_ok(user, True, name, language)
        seat = table.seat_of(user) if table is not None else None
        if table is None or seat is None:
            self.host._reply(update, text(language, "dm_welcome"))
            return
        self.host._reply(update, text(language, "dm_bound", table=table.id))
        self.host.notifier.refresh(table)  # the lobby drops the name; the hand is sent


async def create_table(
    host: Host, update: Update, variant: str, options: dict[str, Any], language: str
) -> Refusal | None:
    """A lobby of ``variant`` here, with the operator's defaults and ``options``; the
    core's refusal if it cannot be."""
    place, player = host._place(update), host._player(update, language)
    try:
        await table_commands.new_table(
            host.manager, place, player, variant, language, options, host.table_defaults
        )
    except Refusal as refusal:
        return refusal
    return None


def variant_picker(language: str) -> tuple[tuple[Button, ...], ...]:
    return tuple(
        (Button(variant_name(language, variant), {"type": "new", "variant": variant}, 0, 0),)
        for variant in NEW_VARIANTS
    )


def target_picker(variant: str) -> tuple[tuple[Button, ...], ...]:
    return (
        tuple(
            Button(str(target), {"type": "new", "variant": variant, "target": target}, 0, 0)
            for target in engine.VARIANTS[variant].targets
        ),
    )


def new_options(
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
