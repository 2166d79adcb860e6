"""Telegram's button presses (callback queries): decoded, checked by the core, answered
with a toast (which costs no group budget) or a link to open."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

import engine
from bot.delivery.split import TELEGRAM_TOAST, fit_text
from bot.render import DOUBLE_PICK, refusal_notice, rules_text
from bot.render.codes import decode
from bot.tables import LiveTable, Press, Refusal, table_commands
from bot.tables.table_commands import TABLE_COMMANDS
from bot.telegram.commands import create_table, target_picker
from bot.telegram.host import Host
from bot.telegram.league import LeagueCommands
from bot.telegram.notifier import deep_link
from bot.telegram.standing import ChatStanding
from bot.telegram.texts import text

Context = ContextTypes.DEFAULT_TYPE


def toast(answer: str | None) -> str | None:
    """A callback's answer as Telegram takes it: at most 200 characters."""
    return None if answer is None else fit_text(answer, TELEGRAM_TOAST)


class Buttons:
    def __init__(self, host: Host, league: LeagueCommands) -> None:
        self.host = host
        self.league = league

    async def on_button(self, update: Update, context: Context) -> None:
        query = update.callback_query
        assert query is not None
        decoded = decode(query.data or "")
        language = self.host._language(update)
        if decoded is None:
            await query.answer(toast(refusal_notice(language, "stale").text))
            return
        table_id, version, action = decoded
        kind = action["type"]
        if kind == "new":
            options = {"target": action["target"]} if "target" in action else {}
            if engine.VARIANTS[action["variant"]].targets and not options:  # TS.1
                await query.answer()
                picker = target_picker(action["variant"])
                self.host._reply(update, text(language, "pick_target"), picker)
                return
            refusal = await create_table(self.host, update, action["variant"], options, language)
            await query.answer(
                toast(refusal_notice(language, refusal.code).text) if refusal else None
            )
            return
        if kind in ("rematch", "record"):  # buttons of a match that is over
            await query.answer(toast(await self.league.button(update, table_id, action, language)))
            return
        try:
            table = self.host.manager.table(table_id)
        except Refusal as refusal:
            await query.answer(toast(refusal_notice(language, refusal.code).text))
            return
        language = table.config.language
        user = self.host._user(update)
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
                self.host.notifier.pick(table, user, action["cards"])
                return None
            if kind in TABLE_COMMANDS:
                player = self.host._player(update, language)
                await table_commands.run(
                    self.host.manager, table.id, kind, player, ChatStanding(update), version
                )
            elif kind == "rules":
                if self.host._private(update, rules_text(table.variant, language)):
                    return text(language, "sent_to_dm")
                self.host._reply(update, rules_text(table.variant, language))
            elif kind == "hand":
                seat = table.seat_of(user)
                if seat is None:
                    raise Refusal("not_seated")
                if not self.host.contacts.dm_ok(user):
                    return deep_link(self.host.notifier.username(), table.id)
                self.host.notifier.send_hand(table, seat, new=True)
                return text(language, "sent_to_dm")
            else:
                player = self.host._player(update, language)
                await self.host.manager.press(
                    Press(table_id=table.id, version=version, action=action, player=player)
                )
        except Refusal as refusal:
            return refusal_notice(language, refusal.code, refusal.detail).text
        return None
