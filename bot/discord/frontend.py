"""Discord interactions → table commands: the ``/sahra`` slash commands and every button.
Thin like the Telegram handlers; each interaction is answered within Discord's 3 s (a
defer first where work follows), refusals as ephemeral replies that only the presser sees."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.discord.notifier import DiscordNotifier
from bot.discord.views import view_of
from bot.render import DOUBLE_PICK, refusal_notice, rules_text
from bot.render.codes import NEW_VARIANTS
from bot.render.i18n import variant_name
from bot.tables import LiveTable, Place, PlayerRef, Press, Refusal, TableManager

log = logging.getLogger("sahra.discord")

PLATFORM = "discord"
Interaction = discord.Interaction[Any]


class DiscordFrontend:
    def __init__(
        self, manager: TableManager, contacts: Contacts, notifier: DiscordNotifier, outbox: Outbox
    ) -> None:
        self.manager = manager
        self.contacts = contacts
        self.notifier = notifier
        self.outbox = outbox
        self.completed = 0  # button interactions fully handled (logs, tests)
        self.table_defaults: dict[str, Any] = {}  # the operator's timers and difficulty

    # ---------------------------------------------------------------- helpers

    def _language(self, interaction: Interaction) -> str:
        return self.contacts.language(str(interaction.channel_id))

    def _player(self, interaction: Interaction, language: str) -> PlayerRef:
        user = interaction.user
        return PlayerRef.model_validate(
            {"user_id": str(user.id), "name": user.display_name[:64], "language": language}
        )

    @staticmethod
    def _place(interaction: Interaction) -> Place:
        # A thread is a channel of its own on Discord: one table per channel or thread.
        return Place(PLATFORM, str(interaction.channel_id), "")

    async def _say(self, interaction: Interaction, text: str) -> None:
        """An ephemeral answer, whether or not the interaction was deferred."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.NotFound:  # 10062: the interaction expired; nothing is stalled
            log.warning("event=interaction_expired")

    async def _run(self, interaction: Interaction, call: Any, done: str | None = None) -> None:
        language = self._language(interaction)
        try:
            await call
        except Refusal as refusal:
            await self._say(
                interaction, refusal_notice(language, refusal.code, refusal.detail).text
            )
            return
        if done:
            await self._say(interaction, done)

    def _table_here(self, interaction: Interaction) -> LiveTable | None:
        return self.manager.table_at(self._place(interaction))

    # ---------------------------------------------------------------- slash commands

    def commands(self) -> app_commands.Group:
        group = app_commands.Group(name="sahra", description="Sahra card tables (سهرة)")
        frontend = self
        variants = [
            app_commands.Choice(name=f"{variant_name('en', v)} — {variant_name('ar', v)}", value=v)
            for v in NEW_VARIANTS
        ]

        @group.command(name="new", description="Open a table in this channel")
        @app_commands.choices(variant=variants)
        @app_commands.choices(
            target=[app_commands.Choice(name=str(t), value=t) for t in (31, 51, 61)]
        )
        @app_commands.choices(
            timer=[app_commands.Choice(name=f"{s} s", value=s) for s in (20, 45, 60, 90)]
        )
        async def new(
            interaction: Interaction,
            variant: app_commands.Choice[str],
            target: app_commands.Choice[int] | None = None,
            timer: app_commands.Choice[int] | None = None,
        ) -> None:
            await interaction.response.defer(ephemeral=True)
            language = frontend._language(interaction)
            config: dict[str, Any] = {
                **frontend.table_defaults,
                "variant": variant.value,
                "language": language,
            }
            if target is not None and variant.value == "tarneeb_solo":
                config["target"] = target.value
            if timer is not None:
                config["turn_seconds"] = timer.value
            call = frontend.manager.create(
                frontend._place(interaction), frontend._player(interaction, language), config
            )
            await frontend._run(interaction, call, "✓")

        for name, about in (
            ("join", "Take a seat"),
            ("leave", "Leave (a computer plays for you)"),
            ("addbot", "Fill a seat with a computer"),
            ("begin", "Start when four seats are filled"),
            ("reclaim", "Take your seat back"),
            ("stop", "Stop the table (creator or Manage Server)"),
        ):
            group.command(name=name, description=about)(self._table_command(name))

        @group.command(name="hand", description="Your cards (only you see them)")
        @app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in ("here", "dm")])
        async def hand(
            interaction: Interaction, mode: app_commands.Choice[str] | None = None
        ) -> None:
            table = frontend._table_here(interaction)
            if table is None:
                await frontend._say(
                    interaction,
                    refusal_notice(frontend._language(interaction), "unknown_table").text,
                )
                return
            if mode is not None and mode.value == "dm":
                frontend.notifier.dm_users.add(str(interaction.user.id))
            await frontend.show_hand(interaction, table)

        @group.command(name="score", description="Show the table again")
        async def score(interaction: Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            table = frontend._table_here(interaction)
            if table is not None:
                screen = frontend.notifier.table_message(table)
                frontend.outbox.post(table.place.chat, ("table", table.id), screen, group=True)
            await frontend._say(
                interaction,
                "✓"
                if table
                else refusal_notice(frontend._language(interaction), "unknown_table").text,
            )

        @group.command(name="rules", description="The rules of a game")
        @app_commands.choices(variant=variants)
        async def rules(
            interaction: Interaction, variant: app_commands.Choice[str] | None = None
        ) -> None:
            table = frontend._table_here(interaction)
            name = variant.value if variant else (table.variant if table else "syrian41")
            await frontend._say(interaction, rules_text(name, frontend._language(interaction)))

        @group.command(name="lang", description="The channel's language: ar or en")
        @app_commands.choices(
            language=[
                app_commands.Choice(name="العربية", value="ar"),
                app_commands.Choice(name="English", value="en"),
            ]
        )
        async def lang(interaction: Interaction, language: app_commands.Choice[str]) -> None:
            await frontend.contacts.set_language(str(interaction.channel_id), language.value)
            await frontend._say(interaction, "✓")

        return group

    def _table_command(self, name: str) -> Any:
        async def command(interaction: Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            language = self._language(interaction)
            table = self._table_here(interaction)
            if table is None:
                await self._say(interaction, refusal_notice(language, "unknown_table").text)
                return
            user = str(interaction.user.id)
            calls: dict[str, Callable[[], Awaitable[object]]] = {
                "join": lambda: self.manager.join(table.id, self._player(interaction, language)),
                "leave": lambda: self.manager.leave(table.id, user),
                "addbot": lambda: self.manager.add_computer(table.id, user),
                "begin": lambda: self.manager.begin(table.id, user),
                "reclaim": lambda: self.manager.reclaim(table.id, user),
                "stop": lambda: self.manager.stop(
                    table.id, user, is_admin=interaction.permissions.manage_guild
                ),
            }
            await self._run(interaction, calls[name](), "✓")

        command.__name__ = f"sahra_{name}"
        return command

    # ---------------------------------------------------------------- buttons

    async def show_hand(self, interaction: Interaction, table: LiveTable) -> None:
        """The player's hand as an ephemeral reply: only they see it; a fresh one each turn."""
        language = table.config.language
        seat = table.seat_of(str(interaction.user.id))
        if seat is None or table.match is None:
            code = "not_seated" if seat is None else "not_running"
            await self._say(interaction, refusal_notice(language, code).text)
            return
        screen = self.notifier.hand(table, seat)
        view = view_of(screen)
        try:
            if view is None:
                await interaction.response.send_message(screen.text, ephemeral=True)
            else:
                await interaction.response.send_message(screen.text, view=view, ephemeral=True)
        except discord.NotFound:  # 10062: too late to answer; the next click gets the hand
            log.warning("event=interaction_expired")
            return
        if str(interaction.user.id) in self.notifier.dm_users:
            self.notifier.send_dm_hand(table, seat, new=True)

    async def on_button(
        self, interaction: Interaction, decoded: tuple[int, int, dict[str, Any]] | None
    ) -> None:
        try:
            await self._button(interaction, decoded)
        finally:
            self.completed += 1

    async def _button(
        self, interaction: Interaction, decoded: tuple[int, int, dict[str, Any]] | None
    ) -> None:
        language = self._language(interaction)
        if decoded is None:
            await self._say(interaction, refusal_notice(language, "stale").text)
            return
        table_id, version, action = decoded
        try:
            table = self.manager.table(table_id)
        except Refusal as refusal:
            await self._say(interaction, refusal_notice(language, refusal.code).text)
            return
        language = table.config.language
        user = str(interaction.user.id)
        kind = action["type"]
        if kind == "hand":
            await self.show_hand(interaction, table)
        elif kind == "rules":
            await self._say(interaction, rules_text(table.variant, language))
        elif kind == "noop":
            await self._say(interaction, refusal_notice(language, "illegal").text)
        elif kind == DOUBLE_PICK:
            seat = table.seat_of(user)
            if seat is None:
                await self._say(interaction, refusal_notice(language, "not_seated").text)
                return
            self.notifier.picked[(table.id, user)] = tuple(action["cards"])
            screen = self.notifier.hand(table, seat)
            await interaction.response.edit_message(content=screen.text, view=view_of(screen))
        elif kind in ("join", "leave", "add_computer", "begin"):
            await interaction.response.defer()
            calls: dict[str, Callable[[], Awaitable[object]]] = {
                "join": lambda: self.manager.join(table.id, self._player(interaction, language)),
                "leave": lambda: self.manager.leave(table.id, user),
                "add_computer": lambda: self.manager.add_computer(table.id, user),
                "begin": lambda: self.manager.begin(table.id, user),
            }
            await self._run(interaction, calls[kind]())
        else:
            await self._press(interaction, table, version, action, language)

    async def _press(
        self,
        interaction: Interaction,
        table: LiveTable,
        version: int,
        action: dict[str, Any],
        language: str,
    ) -> None:
        await interaction.response.defer()  # within 3 s, whatever follows
        try:
            await self.manager.press(
                Press(
                    table_id=table.id,
                    version=version,
                    action=action,
                    player=self._player(interaction, language),
                )
            )
        except Refusal as refusal:
            await self._say(
                interaction, refusal_notice(language, refusal.code, refusal.detail).text
            )
            return
        seat = table.seat_of(str(interaction.user.id))
        if seat is not None and table.match is not None:  # the hand, as it is now
            screen = self.notifier.hand(table, seat)
            try:
                await interaction.edit_original_response(content=screen.text, view=view_of(screen))
            except discord.NotFound:
                log.warning("event=interaction_expired")
