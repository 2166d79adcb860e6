"""Discord interactions → table commands: the ``/sahra`` slash commands and every button.
Thin like the Telegram handlers; each interaction is answered within Discord's 3 s (a
defer first where work follows), refusals as ephemeral replies that only the presser sees.

Every interaction gets an answer, whatever it carries: a button from an older version or
one that no longer parses, a command Discord still shows after it changed, an option
outside its choices — each is answered politely and logged as one warning line."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any

import discord
from discord import app_commands

import engine
from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.discord.league import LeagueCommands
from bot.discord.notifier import DiscordNotifier
from bot.discord.sender import DiscordSender
from bot.discord.standing import InteractionStanding
from bot.discord.texts import describe, message_content, message_contents, permission_list, text
from bot.discord.views import decode_custom_id, view_of
from bot.league.service import counting
from bot.logs import where
from bot.render import DOUBLE_PICK, Screen, refusal_notice, rules_text
from bot.render.codes import NEW_VARIANTS
from bot.render.i18n import variant_name
from bot.render.standing import score_line
from bot.tables import LiveTable, Place, PlayerRef, Press, Refusal, TableManager, table_commands
from bot.tables.table_commands import TABLE_COMMANDS, TableCommand

log = logging.getLogger("sahra.discord")

PLATFORM = "discord"
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
Interaction = discord.Interaction[Any]

# What the bot needs where a table is posted (the README's invite permissions); a thread
# takes "Send Messages in Threads" instead of "Send Messages".
CHANNEL_NEEDS = ("view_channel", "send_messages", "read_message_history")
THREAD_NEEDS = ("view_channel", "send_messages_in_threads", "read_message_history")
THREADS = {
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
}
POST_WAIT = 5.0  # seconds /sahra new waits to learn whether its table could be posted


def missing_permissions(interaction: Interaction) -> list[str]:
    """The posting permissions the bot lacks in the interaction's channel, read from the
    ``app_permissions`` Discord sends with every interaction (overwrites included)."""
    if interaction.guild_id is None:
        return []  # a DM: nothing to grant
    granted = interaction.app_permissions
    if granted.administrator:
        return []
    return [name for name in needs_of(interaction) if not getattr(granted, name)]


def needs_of(interaction: Interaction) -> tuple[str, ...]:
    in_thread = getattr(interaction.channel, "type", None) in THREADS
    return THREAD_NEEDS if in_thread else CHANNEL_NEEDS


def _name(value: object) -> str:
    """A command or option name from the wire, safe for a ``key=value`` log line."""
    return re.sub(r"[^\w-]", "?", str(value))[:32] or "?"


def _expired(error: BaseException) -> bool:
    """Discord's 10062: the interaction is past its 3 s and can no longer be answered."""
    return isinstance(error, discord.NotFound) and error.code == 10062


def _custom_id(interaction: Interaction) -> object:
    data: dict[str, Any] = dict(interaction.data or {})
    return data.get("custom_id")


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
        self.league = counting(manager)
        self.league_commands = LeagueCommands(self)

    # ---------------------------------------------------------------- helpers

    async def prefetch(self, interaction: Interaction) -> None:
        """Read what this interaction's answer needs and the cache may not hold (the
        channel's language, the user's DM state) before handling it."""
        await self.contacts.prefetch(str(interaction.channel_id), [str(interaction.user.id)])

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

    # ---------------------------------------------------------------- slash commands

    def commands(self) -> app_commands.Group:
        group = app_commands.Group(name="sahra", description=describe("group"))
        frontend = self
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
            language = frontend._language(interaction)
            config: dict[str, Any] = {
                **frontend.table_defaults,
                "variant": variant.value,
                "language": language,
            }
            if target is not None and engine.VARIANTS[variant.value].targets:
                config["target"] = target.value
            if timer is not None:
                config["turn_seconds"] = timer.value
            await frontend.open_table(interaction, language, config)

        for name, asked in SLASH_TABLE_COMMANDS.items():
            group.command(name=name, description=describe(name))(self._table_command(name, asked))

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
            await frontend.show_hand(interaction, table)

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
            await frontend.contacts.set_language(str(interaction.channel_id), language.value)
            await frontend._say(interaction, "✓")

        self.league_commands.register(group)
        return group

    def _table_command(self, name: str, asked: TableCommand) -> Any:
        async def command(interaction: Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            language = self._language(interaction)
            table = self._table_here(interaction)
            if table is None:
                await self._say(interaction, refusal_notice(language, "unknown_table").text)
                return
            player = self._player(interaction, language)
            standing = InteractionStanding(interaction)
            await self._run(
                interaction,
                table_commands.run(self.manager, table.id, asked, player, standing),
                "✓",
            )

        command.__name__ = f"sahra_{name}"
        return command

    async def open_table(
        self, interaction: Interaction, language: str, config: dict[str, Any]
    ) -> None:
        """``/sahra new`` after its defer: refused up front where the bot may not post, and
        answered only once Discord took the table's first message (or refused it: then the
        table is ended at once, so the channel is free when the permission comes back)."""
        missing = missing_permissions(interaction)
        if missing:
            self._refused(
                interaction, "command", "missing_permissions", permissions=",".join(missing)
            )
            names = permission_list(language, missing)
            await self._say(interaction, text(language, "missing_permissions", permissions=names))
            return
        place = self._place(interaction)
        posted = self.sender.watch(place.chat)
        try:
            try:
                await self.manager.create(place, self._player(interaction, language), config)
            except Refusal as refusal:
                await self._say(
                    interaction, refusal_notice(language, refusal.code, refusal.detail).text
                )
                return
            await asyncio.wait({posted}, timeout=POST_WAIT)
        finally:
            self.sender.unwatch(place.chat, posted)
        # Still unknown after the wait: paced behind other writes, the table will appear.
        forbidden = posted.result() if posted.done() else None
        if forbidden is None:
            await self._say(interaction, "✓")
            return
        await self.end_unpostable(place.chat)
        needs = needs_of(interaction)
        await self._say(
            interaction,
            text(
                language,
                "post_refused",
                reason=forbidden.text or f"{forbidden.status} {forbidden.code}",
                permissions=permission_list(language, list(needs)),
            ),
        )

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
        if isinstance(error, app_commands.CommandInvokeError) and _expired(error.original):
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

    # ---------------------------------------------------------------- buttons

    async def on_component(self, interaction: Interaction) -> None:
        """Any component interaction, routed by its custom_id alone."""
        await self.on_button(interaction, decode_custom_id(_custom_id(interaction)))

    async def on_unknown(self, interaction: Interaction, kind: str) -> None:
        """An interaction of a kind Sahra never asks for (a modal submit)."""
        self._refused(interaction, kind, "unexpected")
        await self._say(interaction, refusal_notice(self._language(interaction), "stale").text)

    async def show_hand(self, interaction: Interaction, table: LiveTable) -> None:
        """The player's hand as an ephemeral reply: only they see it; a fresh one each turn."""
        language = table.config.language
        user = str(interaction.user.id)
        seat = table.seat_of(user)
        if seat is None or table.match is None:
            code = "not_seated" if seat is None else "not_running"
            await self._say(interaction, refusal_notice(language, code).text)
            return
        screen = self.notifier.hand(table, seat)
        view = view_of(screen)
        try:
            if view is None:
                await interaction.response.send_message(
                    message_content(screen.text), ephemeral=True
                )
            else:
                await interaction.response.send_message(
                    message_content(screen.text), view=view, ephemeral=True
                )
        except discord.NotFound:  # 10062: too late to answer; the next click gets the hand
            log.warning("event=interaction_expired")
            return
        if self.notifier.wants_dm(table.id, user):
            self.notifier.send_dm_hand(table, seat, new=True)

    async def on_button(
        self, interaction: Interaction, decoded: tuple[int, int, dict[str, Any]] | None
    ) -> None:
        try:
            await self._button(interaction, decoded)
        except Exception as error:
            if _expired(error):  # past Discord's 3 s: there is no one left to answer
                log.warning("event=interaction_expired")
                return
            # A bug: still answer, and say where it was (not what: a card, perhaps).
            log.error("event=button_failed error=%s where=%s", type(error).__name__, where(error))
            await self._say(interaction, text(self._language(interaction), "failed"))
        finally:
            self.completed += 1

    async def _button(
        self, interaction: Interaction, decoded: tuple[int, int, dict[str, Any]] | None
    ) -> None:
        language = self._language(interaction)
        if decoded is None:
            # Never the custom_id itself in the log: a play button's names a card.
            custom_id = _custom_id(interaction)
            size = len(custom_id) if isinstance(custom_id, str) else 0
            self._refused(interaction, "button", "unknown_custom_id", length=size)
            await self._say(interaction, refusal_notice(language, "stale").text)
            return
        table_id, version, action = decoded
        if action["type"] in ("rematch", "record"):  # buttons of a match that is over
            await self.league_commands.button(interaction, table_id, action, language)
            return
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
            self.notifier.pick(table, seat, tuple(action["cards"]))
            screen = self.notifier.hand(table, seat)
            await interaction.response.edit_message(
                content=message_content(screen.text), view=view_of(screen)
            )
        elif kind in TABLE_COMMANDS:
            await interaction.response.defer()
            player = self._player(interaction, language)
            standing = InteractionStanding(interaction)
            await self._run(
                interaction, table_commands.run(self.manager, table.id, kind, player, standing)
            )
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
        """The pressed message first becomes the hand without that card and without
        buttons (the interaction's own answer, so the card never lingers on it), then the
        move is made, then the message shows the hand as the move left it. A press whose
        interaction has expired is answered by nobody, so it changes nothing either."""
        user = str(interaction.user.id)
        seat = table.seat_of(user)
        match = table.match
        if (
            seat is None
            or match is None
            or seat not in match.to_act
            or not table.version_accepts(version)
        ):
            pending = None  # the manager says why, politely
        else:
            pending = self.notifier.presenter.pending_hand(table, seat, action)
            try:
                await interaction.response.edit_message(
                    content=message_content(pending.text), view=view_of(pending)
                )
            except discord.NotFound:  # 10062: nobody waits for an answer any more
                log.warning("event=interaction_expired")
                return
        press = Press(
            table_id=table.id,
            version=version,
            action=action,
            player=self._player(interaction, language),
        )
        try:
            await self.manager.press(press)
        except Refusal as refusal:
            if pending is not None and seat is not None and table.match is not None:
                await self._edit(interaction, self.notifier.hand(table, seat))  # as it was
            await self._say(
                interaction, refusal_notice(language, refusal.code, refusal.detail).text
            )
            return
        seat = table.seat_of(user)
        if seat is None or table.match is None or table.status != "running":
            if not interaction.response.is_done():
                await interaction.response.defer()
            return
        screen = self.notifier.hand(table, seat)
        if screen != pending:
            await self._edit(interaction, screen)
        message = interaction.message
        if message is not None:
            self.notifier.shown(table, seat, str(message.id), screen)

    async def _edit(self, interaction: Interaction, screen: Screen) -> None:
        """The interaction's message shows ``screen`` (answering it, or after the answer)."""
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(
                    content=message_content(screen.text), view=view_of(screen)
                )
            else:
                await interaction.response.edit_message(
                    content=message_content(screen.text), view=view_of(screen)
                )
        except discord.NotFound:
            log.warning("event=interaction_expired")
