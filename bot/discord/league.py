"""Discord's league commands and the buttons of a finished match: ``/sahra top``,
``/sahra stats``, ``/sahra history``, ``/sahra record``, Rematch, Match record, Ready and
Swap partners.

The leaderboard and the history are answered in the channel (the interaction's own
answer: no table write is spent); stats and the match record only to the asker
(ephemeral). A record holds every hand, so it is given only to the match's players and
only once the match is over."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.host import Host, Interaction
from bot.discord.texts import describe, plain
from bot.discord.views import view_of
from bot.league.figures import FAMILIES, family
from bot.league.service import MIN_MATCHES
from bot.render import Button, Screen, refusal_notice
from bot.render.fitting import fitted, split_lines
from bot.render.i18n import t
from bot.render.league import family_name, history_text, leaderboard_text, stats_text
from bot.render.record import record_pages
from bot.tables.errors import Refusal
from engine.records import MatchRecord

PLATFORM = "discord"
PAGE = 1900  # characters of one message (Discord allows 2,000)


class LeagueCommands:
    def __init__(self, frontend: Host) -> None:
        self.frontend = frontend

    def register(self, group: app_commands.Group) -> None:
        league = self
        games = [
            app_commands.Choice(
                name=f"{family_name('en', game)} — {family_name('ar', game)}", value=game
            )
            for game in FAMILIES
        ]

        @group.command(name="top", description=describe("top"))
        @app_commands.choices(game=games)
        async def top(
            interaction: Interaction, game: app_commands.Choice[str] | None = None
        ) -> None:
            language = league.frontend._language(interaction)
            here = league.frontend._table_here(interaction)
            chosen = game.value if game else family(here.variant) if here else FAMILIES[0]
            board = await league.frontend.league.top(PLATFORM, str(interaction.channel_id), chosen)
            answer = leaderboard_text(language, chosen, board, MIN_MATCHES)
            await interaction.response.send_message(fitted(plain(answer), PAGE))

        @group.command(name="stats", description=describe("stats"))
        async def stats(interaction: Interaction) -> None:
            """Your figures: this channel's matches in a server, all of them in a DM."""
            await interaction.response.defer(ephemeral=True)
            language = league.frontend._language(interaction)
            here = interaction.guild_id is not None
            chat = str(interaction.channel_id) if here else None
            user = str(interaction.user.id)
            found = await league.frontend.league.stats(PLATFORM, user, chat)
            name = interaction.user.display_name
            answer = stats_text(language, name, found, here=here)
            await league.frontend._say(interaction, fitted(answer, PAGE))

        @group.command(name="history", description=describe("history"))
        async def history(interaction: Interaction) -> None:
            language = league.frontend._language(interaction)
            matches = await league.frontend.league.history(PLATFORM, str(interaction.channel_id))
            answer = history_text(language, matches, "/sahra record")
            await interaction.response.send_message(fitted(plain(answer), PAGE))

        @group.command(name="record", description=describe("record"))
        @app_commands.describe(table="the table number (see /sahra history)")
        async def record(interaction: Interaction, table: app_commands.Range[int, 1]) -> None:
            await league.send_record(interaction, table, league.frontend._language(interaction))

    async def send_record(self, interaction: Interaction, table_id: int, language: str) -> None:
        """The record's pages as messages only the asker sees."""
        await interaction.response.defer(ephemeral=True)
        user = str(interaction.user.id)
        try:
            found, names = await self.frontend.league.record(PLATFORM, table_id, user)
        except Refusal as refusal:
            await self.frontend._say(
                interaction, refusal_notice(language, refusal.code, refusal.detail).text
            )
            return
        messages = [
            message
            for page in record_pages(found, names, language, PAGE)
            # Escaping lengthens what the renderer cut to size: split again once escaped.
            for message in split_lines(plain(page), PAGE)
        ]
        review = self.review_view(table_id, found, language)
        for index, message in enumerate(messages):
            try:
                if review is not None and index == len(messages) - 1:
                    await interaction.followup.send(message, ephemeral=True, view=review)
                else:
                    await interaction.followup.send(message, ephemeral=True)
            except discord.HTTPException:  # an expired token: nobody waits any more
                return

    def review_view(
        self, table_id: int, record: MatchRecord, language: str
    ) -> discord.ui.View | None:
        """Under the record's last page, Review: the match's last scored deal's replay
        (the replay steps to the others), when the web table is served."""
        scored = [deal.number for deal in record.deals if deal.scored]
        if not self.frontend.notifier.web or not scored:
            return None
        action = {"type": "review", "deal": scored[-1]}
        button = Button(t(language, "btn_review"), action, table_id, 0)
        return view_of(Screen("", ((button,),)))

    async def button(
        self, interaction: Interaction, table_id: int, action: dict[str, Any], language: str
    ) -> None:
        """A button of a finished match (its table is no longer live)."""
        if action["type"] == "record":
            await self.send_record(interaction, table_id, language)
            return
        await interaction.response.defer(ephemeral=True)
        player = self.frontend._player(interaction, language)
        await self.frontend._run(interaction, self.frontend.manager.rematch(table_id, player), "✓")
