"""The Discord frontend: how an interaction is read (language, player, place) and
answered (ephemeral replies, split when long; refusals logged as one warning line), and
what happens when a channel will not take the table's messages. The slash commands are in
``commands.py``, the buttons in ``buttons.py``, the league's in ``league.py``.

Every interaction gets an answer, whatever it carries: a button from an older version or
one that no longer parses, a command Discord still shows after it changed, an option
outside its choices — each is answered politely and logged as one warning line."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.discord import activity
from bot.discord.buttons import Buttons
from bot.discord.commands import SlashCommands
from bot.discord.host import Interaction, expired
from bot.discord.league import LeagueCommands
from bot.discord.notifier import DiscordNotifier
from bot.discord.sender import DiscordSender
from bot.discord.texts import message_contents, text
from bot.league.service import counting
from bot.logs import where
from bot.render import refusal_notice
from bot.tables import LiveTable, Place, PlayerRef, Refusal, TableManager

log = logging.getLogger("sahra.discord")

PLATFORM = "discord"


def locale_language(interaction: Interaction) -> str | None:
    """Arabic where the user's (else the server's) Discord language is Arabic; None
    otherwise. Discord's locale list has no Arabic yet, so this answers only for a locale
    Discord may add; English is not taken from a locale either: an Arabic reader's client
    is set to some other language, often English."""
    for locale in (interaction.locale, interaction.guild_locale):
        if locale is not None and str(locale.value).lower().startswith("ar"):
            return "ar"
    return None


def _name(value: object) -> str:
    """A command or option name from the wire, safe for a ``key=value`` log line."""
    return re.sub(r"[^\w-]", "?", str(value))[:32] or "?"


class DiscordFrontend:
    def __init__(
        self,
        manager: TableManager,
        contacts: Contacts,
        notifier: DiscordNotifier,
        outbox: Outbox,
        sender: DiscordSender,
    ) -> None:
        self.manager = manager
        self.contacts = contacts
        self.notifier = notifier
        self.outbox = outbox
        self.sender = sender
        self.completed = 0  # component interactions fully handled (logs, tests)
        self.commands_completed = 0  # slash commands fully handled, failed ones too (tests)
        self.table_defaults: dict[str, Any] = {}  # the operator's timers and difficulty
        self.web_link: Callable[[LiveTable, PlayerRef], str] | None = None  # the web table
        self.activities = False  # the web table opens inside Discord (``activity``)
        self.league = counting(manager)
        self.league_commands = LeagueCommands(self)
        self.buttons = Buttons(self, self.league_commands)
        self.slash = SlashCommands(self, self.buttons, self.league_commands)

    def commands(self) -> app_commands.Group:
        """The ``/sahra`` group for the command tree."""
        return self.slash.commands()

    async def on_component(self, interaction: Interaction) -> None:
        await self.buttons.on_component(interaction)

    async def on_unknown(self, interaction: Interaction, kind: str) -> None:
        await self.buttons.on_unknown(interaction, kind)

    async def on_entry_point(self, interaction: Interaction) -> None:
        """The application's Entry Point command, where its handler is the app's own
        (APP_HANDLER): answered as ``/sahra play`` is. It comes as an event, not through
        the command tree, so a failure is answered here as the tree's ``on_error`` would."""
        try:
            await activity.open_here(self, interaction)
        except Exception as error:
            if expired(error):
                log.warning("event=interaction_expired command=entry_point")
                return
            log.error(
                "event=command_failed command=entry_point error=%s where=%s",
                type(error).__name__,
                where(error),
            )
            await self._say(interaction, text(self._language(interaction), "failed"))
        finally:
            self.commands_completed += 1

    # ---------------------------------------------------------------- helpers

    async def prefetch(self, interaction: Interaction) -> None:
        """Read what this interaction's answer needs and the cache may not hold (the
        channel's language, the user's DM state) before handling it."""
        await self.contacts.prefetch(str(interaction.channel_id), [str(interaction.user.id)])

    def _language(self, interaction: Interaction) -> str:
        return self.contacts.language(str(interaction.channel_id))

    def _new_table_language(self, interaction: Interaction) -> str:
        """A new table's language: the channel's (``/sahra lang``); where none was chosen,
        the asker's Discord language if it is Arabic, else the operator's default."""
        return self.contacts.language(str(interaction.channel_id), locale_language(interaction))

    def _player(self, interaction: Interaction, language: str) -> PlayerRef:
        user = interaction.user
        return PlayerRef.model_validate(
            {"user_id": str(user.id), "name": user.display_name[:64], "language": language}
        )

    @staticmethod
    def _place(interaction: Interaction) -> Place:
        # A thread is a channel of its own on Discord: one table per channel or thread.
        guild = "" if interaction.guild_id is None else str(interaction.guild_id)
        return Place(PLATFORM, str(interaction.channel_id), "", guild)

    async def _say(self, interaction: Interaction, message: str) -> None:
        """An ephemeral answer, whether or not the interaction was deferred; one too long
        for a message comes as several, in order (the interaction's answer, then
        followups)."""
        try:
            for piece in message_contents(message):
                if interaction.response.is_done():
                    await interaction.followup.send(piece, ephemeral=True)
                else:
                    await interaction.response.send_message(piece, ephemeral=True)
        except discord.NotFound:  # 10062: the interaction expired; nothing is stalled
            log.warning("event=interaction_expired")
        except discord.HTTPException as error:
            log.warning(
                "event=interaction_answer_failed status=%s code=%s", error.status, error.code
            )

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

    def _refused(self, interaction: Interaction, kind: str, reason: str, **fields: object) -> None:
        extra = "".join(f" {key}={value}" for key, value in fields.items())
        log.warning(
            "event=interaction_refused kind=%s reason=%s user=%s channel=%s%s",
            kind,
            reason,
            interaction.user.id,
            interaction.channel_id,
            extra,
        )

    # ---------------------------------------------------------------- the table's channel

    async def end_unpostable(self, chat: str) -> None:
        """End the live table of a channel Discord will not let us post in: nobody could
        see or play it, and it would keep the channel taken."""
        table = self.manager.table_at(Place(PLATFORM, chat, ""))
        if table is None or not table.live:
            return
        log.warning("event=table_unpostable table=%s chat=%s", table.id, chat)
        with contextlib.suppress(Refusal):  # ended meanwhile (the other path got there first)
            await self.manager.stop(table.id, table.creator, is_admin=True)

    async def unreachable(self, chat: str) -> None:
        """The outbox could not write to ``chat`` (403): DMs fall back to ephemeral hands, a
        channel's table ends."""
        if chat.startswith("dm:"):
            self.notifier.dm_closed(chat[3:])
        else:
            await self.end_unpostable(chat)

    async def command_failed(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The command tree could not run a slash command: answer it all the same."""
        language = self._language(interaction)
        known = interaction.command
        command = "/".join(_name(part) for part in known.qualified_name.split()) if known else "?"
        if isinstance(error, app_commands.CommandInvokeError) and expired(error.original):
            log.warning("event=interaction_expired command=%s", command)
        elif isinstance(error, app_commands.CommandInvokeError):  # our bug, not the user's
            # Type and place, not the message or a traceback: either could quote a card.
            log.error(
                "event=command_failed command=%s error=%s where=%s",
                command,
                type(error.original).__name__,
                where(error.original),
            )
            await self._say(interaction, text(language, "failed"))
        elif isinstance(error, app_commands.TransformerError):
            self._refused(interaction, "command", "bad_option", command=command)
            await self._say(interaction, refusal_notice(language, "bad_option").text)
        elif isinstance(error, app_commands.CommandNotFound):
            path = "/".join(_name(part) for part in [*error.parents, error.name])
            self._refused(interaction, "command", "unknown_command", command=path)
            await self._say(interaction, text(language, "unknown_command"))
        elif isinstance(error, app_commands.CommandSignatureMismatch):  # e.g. a bare /sahra
            path = "/".join(_name(part) for part in error.command.qualified_name.split())
            self._refused(interaction, "command", "unknown_command", command=path)
            await self._say(interaction, text(language, "unknown_command"))
        else:
            self._refused(interaction, "command", type(error).__name__)
            await self._say(interaction, text(language, "failed"))
