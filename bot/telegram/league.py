"""Telegram's league commands and the buttons of a finished match: ``/top``, ``/stats``,
``/history``, ``/record``, Rematch, Match record, Ready and Swap partners.

Thin like the rest of the frontend: the league (``bot/league``) and the manager answer;
this reads the words and says where the answer goes. A match record holds every hand, so
it only ever goes to the asker's private chat, and only once the match is over."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot.league.figures import family
from bot.league.service import MIN_MATCHES
from bot.render import Button
from bot.render.fitting import fitted
from bot.render.i18n import isolate, t
from bot.render.league import history_text, leaderboard_text, stats_text
from bot.render.record import record_pages
from bot.tables.errors import Refusal
from bot.telegram.host import Host
from bot.telegram.texts import text
from engine import FAMILIES, VARIANTS
from engine.records import MatchRecord

Context = ContextTypes.DEFAULT_TYPE
PLATFORM = "telegram"
PAGE = 3500  # characters of a record page (a Telegram message holds 4,096)
# /top's words for the families: a family's name, or a variant's id or alias.
FAMILY_WORDS = {name: name for name in FAMILIES} | {
    word: info.family for info in VARIANTS.values() for word in (info.id, *info.aliases)
}


class LeagueCommands:
    """The frontend's league part: it answers through the frontend's helpers."""

    def __init__(self, frontend: Host) -> None:
        self.frontend = frontend

    async def cmd_top(self, update: Update, context: Context) -> None:
        language = self.frontend._language(update)
        if not self.frontend._is_group(update):
            self.frontend._reply(update, text(language, "not_a_group"))
            return
        args = [arg.lower() for arg in context.args or []]
        if len(args) > 1 or (args and args[0] not in FAMILY_WORDS):
            self.frontend._reply(update, text(language, "top_usage"))
            return
        here = self.frontend._table_here(update)
        game = FAMILY_WORDS[args[0]] if args else family(here.variant) if here else FAMILIES[0]
        board = await self.frontend.league.top(PLATFORM, self.frontend._place(update).chat, game)
        self.frontend._reply(
            update, fitted(leaderboard_text(language, game, board, MIN_MATCHES), PAGE)
        )

    async def cmd_stats(self, update: Update, context: Context) -> None:
        """Your figures: this group's matches in a group, all of them in private."""
        language = self.frontend._language(update)
        if context.args:
            self.frontend._reply(update, text(language, "no_arguments", command="/stats"))
            return
        user = self.frontend._user(update)
        group = self.frontend._is_group(update)
        chat = self.frontend._place(update).chat if group else None
        found = await self.frontend.league.stats(PLATFORM, user, chat)
        name = self.frontend._player(update, language).name
        self.frontend._reply(update, stats_text(language, name, found, here=group))

    async def cmd_history(self, update: Update, context: Context) -> None:
        language = self.frontend._language(update)
        if not self.frontend._is_group(update):
            self.frontend._reply(update, text(language, "not_a_group"))
            return
        if context.args:
            self.frontend._reply(update, text(language, "no_arguments", command="/history"))
            return
        matches = await self.frontend.league.history(PLATFORM, self.frontend._place(update).chat)
        self.frontend._reply(update, fitted(history_text(language, matches, "/record"), PAGE))

    async def cmd_record(self, update: Update, context: Context) -> None:
        """``/record N``: match N's whole record, privately, for one of its players."""
        language = self.frontend._language(update)
        args = context.args or []
        if len(args) != 1 or not args[0].lstrip("#").isdecimal():
            self.frontend._reply(update, text(language, "record_usage"))
            return
        answer = await self.send_record(update, int(args[0].lstrip("#")), language)
        if answer is not None:
            self.frontend._reply(update, answer)

    async def send_record(self, update: Update, table_id: int, language: str) -> str | None:
        """The record's pages to the asker's private chat; what to tell them (None: the
        pages themselves say it, in a private chat)."""
        user = self.frontend._user(update)
        try:
            record, names = await self.frontend.league.record(PLATFORM, table_id, user)
        except Refusal as refusal:
            return self.frontend._refusal_text(language, refusal)
        if not self.frontend.contacts.dm_ok(user):
            return text(language, "record_dm_needed")
        told = text(
            language, "record_sent", name=isolate(self.frontend._player(update, language).name)
        )
        # A command in a group is answered there once the last page is out (never a claim
        # the private chat then refuses); a button's toast must answer at once.
        later = self.frontend._is_group(update) and update.callback_query is None
        pages = record_pages(record, names, language, PAGE)
        review = self.review_row(table_id, record, language)
        for index, page in enumerate(pages):
            final = index == len(pages) - 1
            then = (lambda: self.frontend._reply(update, told)) if later and final else None
            rows = review if final else ()
            self.frontend._private(update, page, part=True, then=then, rows=rows)
        return told if update.callback_query is not None else None

    def review_row(
        self, table_id: int, record: MatchRecord, language: str
    ) -> tuple[tuple[Button, ...], ...]:
        """Under the record's last page, Review: the Mini App's link to the match's last
        scored deal's replay (the replay steps to the others), when the page is served."""
        mini_app = self.frontend.notifier.mini_app
        scored = [deal.number for deal in record.deals if deal.scored]
        if mini_app is None or not scored:
            return ()
        url = mini_app.review_link(self.frontend.notifier.username(), table_id, scored[-1])
        action = {"type": "review", "deal": scored[-1]}
        return ((Button(t(language, "btn_review"), action, table_id, 0, url=url),),)

    async def button(
        self,
        update: Update,
        table_id: int,
        action: dict[str, Any],
        language: str,
    ) -> str | None:
        """A button of a finished match (its table is no longer live): the toast."""
        try:
            if action["type"] == "rematch":
                await self.frontend.manager.rematch(
                    table_id, self.frontend._player(update, language)
                )
                return text(language, "rematch_confirmed")
            return await self.send_record(update, table_id, language)
        except Refusal as refusal:
            return self.frontend._refusal_text(language, refusal)
