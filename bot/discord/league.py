"""Discord's league commands and the buttons of a finished match: ``/sahra top``,
``/sahra stats``, ``/sahra history``, ``/sahra record``, Rematch, Match record, Ready and
Swap partners.

The leaderboard and the history are answered in the channel (the interaction's own
answer: no table write is spent); stats and the match record only to the asker
(ephemeral). A record holds every hand, so it is given only to the match's players and
only once the match is over."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.texts import describe, plain
from bot.league.figures import FAMILIES, family
from bot.league.service import MIN_MATCHES
from bot.render import refusal_notice
from bot.render.league import family_name, history_text, leaderboard_text, stats_text
from bot.render.record import record_pages
from bot.tables import Refusal

if TYPE_CHECKING:
    from bot.discord.frontend import DiscordFrontend

PLATFORM = "discord"
Interaction = discord.Interaction[Any]  # resolved at run time by the command tree
PAGE = 1900  # characters of one message (Discord allows 2,000)


def fitted(text: str, limit: int = PAGE) -> str:
    """At most ``limit`` characters, cut at a line."""
    if len(text) <= limit:
        return text
    lines, size = [], 0
    for line in text.splitlines():
        if size + len(line) + 1 > limit - 1:
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join([*lines, "…"])


def messages(text: str, limit: int = PAGE) -> list[str]:
    """All of ``text`` in messages of at most ``limit`` characters, cut at lines (a line
    longer than that, at the limit). ``text`` is escaped already: escaping lengthens what
    the renderer cut to size, a name full of markdown by as much again at every copy."""
    found: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            found += [current, line[:limit]] if current else [line[:limit]]
            current, line = "", line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if current and len(candidate) > limit:
            found.append(current)
            candidate = line
        current = candidate
    return [*found, current] if current else found


class LeagueCommands:
    def __init__(self, frontend: DiscordFrontend) -> None:
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
            chosen = game.value if game else family(here.variant if here else "syrian41")
            board = await league.frontend.manager.league.top(
                PLATFORM, str(interaction.channel_id), chosen
            )
            answer = leaderboard_text(language, chosen, board, MIN_MATCHES)
            await interaction.response.send_message(fitted(plain(answer)))

        @group.command(name="stats", description=describe("stats"))
        async def stats(interaction: Interaction) -> None:
            """Your figures: this channel's matches in a server, all of them in a DM."""
            await interaction.response.defer(ephemeral=True)
            language = league.frontend._language(interaction)
            here = interaction.guild_id is not None
            chat = str(interaction.channel_id) if here else None
            user = str(interaction.user.id)
            found = await league.frontend.manager.league.stats(PLATFORM, user, chat)
            name = interaction.user.display_name
            answer = stats_text(language, name, found, here=here)
            await league.frontend._say(interaction, fitted(answer))

        @group.command(name="history", description=describe("history"))
        async def history(interaction: Interaction) -> None:
            language = league.frontend._language(interaction)
            matches = await league.frontend.manager.league.history(
                PLATFORM, str(interaction.channel_id)
            )
            answer = history_text(language, matches, "/sahra record")
            await interaction.response.send_message(fitted(plain(answer)))

        @group.command(name="record", description=describe("record"))
        @app_commands.describe(table="the table number (see /sahra history)")
        async def record(interaction: Interaction, table: app_commands.Range[int, 1]) -> None:
            await league.send_record(interaction, table, league.frontend._language(interaction))

    async def send_record(self, interaction: Interaction, table_id: int, language: str) -> None:
        """The record's pages as messages only the asker sees."""
        await interaction.response.defer(ephemeral=True)
        user = str(interaction.user.id)
        try:
            found, names = await self.frontend.manager.league.record(PLATFORM, table_id, user)
        except Refusal as refusal:
            await self.frontend._say(
                interaction, refusal_notice(language, refusal.code, refusal.detail).text
            )
            return
        for page in record_pages(found, names, language, PAGE):
            for message in messages(plain(page)):
                try:
                    await interaction.followup.send(message, ephemeral=True)
                except discord.HTTPException:  # an expired token: nobody waits any more
                    return

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
