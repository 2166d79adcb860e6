"""Discord's ``/sahra`` slash commands: each read from its interaction and handed to the
core (``bot.tables.table_commands``, the manager), answered within Discord's 3 s (a defer
first where work follows), refusals as ephemeral replies only the asker sees."""

from __future__ import annotations

import asyncio
from typing import Any

from discord import app_commands

import engine
from bot.discord import activity
from bot.discord.buttons import Buttons
from bot.discord.host import Host, Interaction
from bot.discord.league import LeagueCommands
from bot.discord.permissions import missing_permissions, needs_of
from bot.discord.standing import InteractionStanding
from bot.discord.texts import describe, permission_list, text
from bot.render import refusal_notice, rules_text
from bot.render.codes import NEW_VARIANTS
from bot.render.i18n import variant_name
from bot.render.standing import score_line
from bot.tables import Refusal, table_commands
from bot.tables.table_commands import TableCommand

# the targets a table may choose, of every variant that offers a choice (TS.1)
TARGETS = sorted({target for info in engine.VARIANTS.values() for target in info.targets})
# /sahra's table commands: the name a player types, and the core's command it asks for
SLASH_TABLE_COMMANDS: dict[str, TableCommand] = {
    "join": "join",
    "leave": "leave",
    "addbot": "add_computer",
    "begin": "begin",
    "reclaim": "reclaim",
    "stop": "stop",
}
POST_WAIT = 5.0  # seconds /sahra new waits to learn whether its table could be posted


class SlashCommands:
    def __init__(self, host: Host, buttons: Buttons, league: LeagueCommands) -> None:
        self.host = host
        self.buttons = buttons
        self.league = league

    def commands(self) -> app_commands.Group:
        group = app_commands.Group(name="sahra", description=describe("group"))
        frontend = self.host
        variants = [
            app_commands.Choice(name=f"{variant_name('en', v)} — {variant_name('ar', v)}", value=v)
            for v in NEW_VARIANTS
        ]

        @group.command(name="new", description=describe("new"))
        @app_commands.choices(variant=variants)
        @app_commands.choices(target=[app_commands.Choice(name=str(t), value=t) for t in TARGETS])
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
            language = frontend._new_table_language(interaction)
            options: dict[str, Any] = {}
            if target is not None and engine.VARIANTS[variant.value].targets:
                options["target"] = target.value
            if timer is not None:
                options["turn_seconds"] = timer.value
            await self.open_table(interaction, language, variant.value, options)

        for name, asked in SLASH_TABLE_COMMANDS.items():
            group.command(name=name, description=describe(name))(self._table_command(name, asked))

        @group.command(name="play", description=describe("play"))
        async def play(interaction: Interaction) -> None:
            # Not deferred: an Activity can only be launched as the interaction's answer.
            await activity.open_here(frontend, interaction)

        @group.command(name="hand", description=describe("hand"))
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
            user = str(interaction.user.id)
            if mode is not None and mode.value == "dm" and table.seat_of(user) is not None:
                frontend.notifier.want_dm(table.id, user)
            await self.buttons.show_hand(interaction, table)

        @group.command(name="score", description=describe("score"))
        async def score(interaction: Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            language = frontend._language(interaction)
            table = frontend._table_here(interaction)
            if table is None:
                await frontend._say(interaction, refusal_notice(language, "unknown_table").text)
                return
            missing = missing_permissions(interaction)
            if missing:
                frontend._refused(interaction, "command", "missing_permissions", command="score")
                await frontend._say(
                    interaction,
                    text(
                        language,
                        "missing_permissions",
                        permissions=permission_list(language, missing),
                    ),
                )
                return
            # Only the asker sees it: an ephemeral answer costs the channel no write.
            info = frontend.notifier.presenter.info(table)
            await frontend._say(interaction, score_line(info, table.match))

        @group.command(name="rules", description=describe("rules"))
        @app_commands.choices(variant=variants)
        async def rules(
            interaction: Interaction, variant: app_commands.Choice[str] | None = None
        ) -> None:
            # The game chosen, else the table's here, else all four (in several messages).
            table = frontend._table_here(interaction)
            chosen = variant.value if variant else (table.variant if table else None)
            names = [chosen] if chosen else list(NEW_VARIANTS)
            language = frontend._language(interaction)
            await frontend._say(interaction, "\n\n".join(rules_text(n, language) for n in names))

        @group.command(name="lang", description=describe("lang"))
        @app_commands.choices(
            language=[
                app_commands.Choice(name="العربية", value="ar"),
                app_commands.Choice(name="English", value="en"),
            ]
        )
        async def lang(interaction: Interaction, language: app_commands.Choice[str]) -> None:
            asked = table_commands.check_language_change(
                frontend._table_here(interaction),
                str(interaction.user.id),
                InteractionStanding(interaction),
            )
            try:
                await asked
            except Refusal as refusal:
                notice = refusal_notice(frontend._language(interaction), refusal.code)
                await frontend._say(interaction, notice.text)
                return
            await frontend.contacts.set_language(str(interaction.channel_id), language.value)
            await frontend._say(interaction, "✓")

        self.league.register(group)
        return group

    def _table_command(self, name: str, asked: TableCommand) -> Any:
        async def command(interaction: Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            language = self.host._language(interaction)
            table = self.host._table_here(interaction)
            if table is None:
                await self.host._say(interaction, refusal_notice(language, "unknown_table").text)
                return
            player = self.host._player(interaction, language)
            standing = InteractionStanding(interaction)
            await self.host._run(
                interaction,
                table_commands.run(self.host.manager, table.id, asked, player, standing),
                "✓",
            )

        command.__name__ = f"sahra_{name}"
        return command

    async def open_table(
        self, interaction: Interaction, language: str, variant: str, options: dict[str, Any]
    ) -> None:
        """``/sahra new`` after its defer: refused up front where the bot may not post, and
        answered only once Discord took the table's first message (or refused it: then the
        table is ended at once, so the channel is free when the permission comes back)."""
        missing = missing_permissions(interaction)
        if missing:
            self.host._refused(
                interaction, "command", "missing_permissions", permissions=",".join(missing)
            )
            names = permission_list(language, missing)
            await self.host._say(
                interaction, text(language, "missing_permissions", permissions=names)
            )
            return
        place = self.host._place(interaction)
        posted = self.host.sender.watch(place.chat)
        try:
            try:
                player = self.host._player(interaction, language)
                defaults = self.host.table_defaults
                await table_commands.new_table(
                    self.host.manager, place, player, variant, language, options, defaults
                )
            except Refusal as refusal:
                await self.host._say(
                    interaction, refusal_notice(language, refusal.code, refusal.detail).text
                )
                return
            await asyncio.wait({posted}, timeout=POST_WAIT)
        finally:
            self.host.sender.unwatch(place.chat, posted)
        # Still unknown after the wait: paced behind other writes, the table will appear.
        forbidden = posted.result() if posted.done() else None
        if forbidden is None:
            await self.host._say(interaction, "✓")
            return
        await self.host.end_unpostable(place.chat)
        needs = needs_of(interaction)
        await self.host._say(
            interaction,
            text(
                language,
                "post_refused",
                reason=forbidden.text or f"{forbidden.status} {forbidden.code}",
                permissions=permission_list(language, list(needs)),
            ),
        )
