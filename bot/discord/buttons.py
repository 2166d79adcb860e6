"""Discord's button presses: routed by their custom_id alone, checked by the core, answered
within Discord's 3 s (the pressed hand redrawn, or an ephemeral reply only the presser
sees). A button from an older version or one that no longer parses is answered too."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import activity
from bot.discord.host import Host, Interaction, expired
from bot.discord.league import LeagueCommands
from bot.discord.standing import InteractionStanding
from bot.discord.texts import message_content, text
from bot.discord.views import decode_custom_id, view_of
from bot.logs import where
from bot.render import DOUBLE_PICK, Screen, refusal_notice, rules_text
from bot.tables import LiveTable, Press, Refusal, table_commands
from bot.tables.recovery import followed
from bot.tables.table_commands import TABLE_COMMANDS

log = logging.getLogger("sahra.discord")


def custom_id(interaction: Interaction) -> object:
    data: dict[str, Any] = dict(interaction.data or {})
    return data.get("custom_id")


class Buttons:
    def __init__(self, host: Host, league: LeagueCommands) -> None:
        self.host = host
        self.league = league

    async def on_component(self, interaction: Interaction) -> None:
        """Any component interaction, routed by its custom_id alone."""
        await self.on_button(interaction, decode_custom_id(custom_id(interaction)))

    async def on_unknown(self, interaction: Interaction, kind: str) -> None:
        """An interaction of a kind Sahra never asks for (a modal submit)."""
        self.host._refused(interaction, kind, "unexpected")
        await self.host._say(
            interaction, refusal_notice(self.host._language(interaction), "stale").text
        )

    async def show_hand(self, interaction: Interaction, table: LiveTable) -> None:
        """The player's hand as an ephemeral reply: only they see it; a fresh one each turn."""
        language = table.config.language
        user = str(interaction.user.id)
        seat = table.seat_of(user)
        if seat is None or table.match is None:
            code = "not_seated" if seat is None else "not_running"
            await self.host._say(interaction, refusal_notice(language, code).text)
            return
        screen = self.host.notifier.hand(table, seat)
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
        if self.host.notifier.wants_dm(table.id, user):
            self.host.notifier.send_dm_hand(table, seat, new=True)

    async def open_web(self, interaction: Interaction, table: LiveTable) -> None:
        """**Open the table**: as an Activity or a personal link (``activity.open_web``)."""
        await activity.open_web(self.host, interaction, table)

    async def review(
        self, interaction: Interaction, table_id: int, deal: int, language: str
    ) -> None:
        """Review a deal: the table's page opened on that deal's replay, live or ended (the
        last deal of a match is reviewed after it), for whoever may see the channel."""
        try:
            table = self.host.manager.table(table_id)
        except Refusal:
            stored = await self.host.manager.store.load_table(table_id)
            if stored is None:
                await self.host._say(interaction, refusal_notice(language, "unknown_table").text)
                return
            table = followed(stored, None)  # over: its place and its last state
        await activity.open_web(self.host, interaction, table, review=deal)

    async def on_button(
        self, interaction: Interaction, decoded: tuple[int, int, dict[str, Any]] | None
    ) -> None:
        try:
            await self._button(interaction, decoded)
        except Exception as error:
            if expired(error):  # past Discord's 3 s: there is no one left to answer
                log.warning("event=interaction_expired")
                return
            # A bug: still answer, and say where it was (not what: a card, perhaps).
            log.error("event=button_failed error=%s where=%s", type(error).__name__, where(error))
            await self.host._say(interaction, text(self.host._language(interaction), "failed"))
        finally:
            self.host.completed += 1

    async def _button(
        self, interaction: Interaction, decoded: tuple[int, int, dict[str, Any]] | None
    ) -> None:
        language = self.host._language(interaction)
        if decoded is None:
            # Never the custom_id itself in the log: a play button's names a card.
            raw = custom_id(interaction)
            size = len(raw) if isinstance(raw, str) else 0
            self.host._refused(interaction, "button", "unknown_custom_id", length=size)
            await self.host._say(interaction, refusal_notice(language, "stale").text)
            return
        table_id, version, action = decoded
        if action["type"] in ("rematch", "record"):  # buttons of a match that is over
            await self.league.button(interaction, table_id, action, language)
            return
        if action["type"] == "review":  # a deal's replay (issue 35): its table may be over
            await self.review(interaction, table_id, int(action["deal"]), language)
            return
        try:
            table = self.host.manager.table(table_id)
        except Refusal as refusal:
            await self.host._say(interaction, refusal_notice(language, refusal.code).text)
            return
        language = table.config.language
        user = str(interaction.user.id)
        kind = action["type"]
        if kind == "hand":
            await self.show_hand(interaction, table)
        elif kind == "web":
            await self.open_web(interaction, table)
        elif kind == "rules":
            await self.host._say(interaction, rules_text(table.variant, language))
        elif kind == "noop":
            await self.host._say(interaction, refusal_notice(language, "illegal").text)
        elif kind == DOUBLE_PICK:
            try:
                screen = self.host.notifier.pick(table, user, action["cards"])
            except Refusal as refusal:
                await self.host._say(interaction, refusal_notice(language, refusal.code).text)
                return
            await interaction.response.edit_message(
                content=message_content(screen.text), view=view_of(screen)
            )
        elif kind in TABLE_COMMANDS:
            await interaction.response.defer()
            player = self.host._player(interaction, language)
            standing = InteractionStanding(interaction)
            await self.host._run(
                interaction,
                table_commands.run(self.host.manager, table.id, kind, player, standing, version),
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
        """One writer per message. An ephemeral hand can only be edited through the
        interaction, so the answer is its writer: it first becomes the hand without that
        card and without buttons (the card never lingers), then, after the move, the hand
        as the move left it. A DM hand is the outbox's message: the press is only
        acknowledged and the presenter redraws it like any other screen. A press whose
        interaction has expired is answered by nobody, so it changes nothing either."""
        user = str(interaction.user.id)
        in_place = interaction.guild_id is not None  # an ephemeral hand, not the DM's
        drawn: list[Screen] = []  # the pending hand, once the manager accepted the press
        withdrawn: list[bool] = []  # the answer could not be given: nor the move

        async def accepted(table: LiveTable, seat: int) -> bool:
            # Under the table's lock, the manager's checks passed.
            pending = self.host.notifier.presenter.pending_hand(table, seat, action)
            try:
                if in_place:
                    await interaction.response.edit_message(
                        content=message_content(pending.text), view=view_of(pending)
                    )
                    drawn.append(pending)
                else:
                    await interaction.response.defer()
            except discord.NotFound:  # 10062: nobody waits for an answer: nor the move
                log.warning("event=interaction_expired")
                withdrawn.append(True)
                return False
            return True

        press = Press(
            table_id=table.id,
            version=version,
            action=action,
            player=self.host._player(interaction, language),
        )
        try:
            await self.host.manager.press(press, on_accepted=accepted)
        except Refusal as refusal:
            seat = table.seat_of(user)
            if drawn and seat is not None and table.match is not None:
                await self._edit(interaction, self.host.notifier.hand(table, seat))  # as it was
            await self.host._say(
                interaction, refusal_notice(language, refusal.code, refusal.detail).text
            )
            return
        if withdrawn:
            return  # the interaction expired before the move was made
        seat = table.seat_of(user)
        if not in_place or seat is None or table.match is None or table.status != "running":
            if not interaction.response.is_done():
                await interaction.response.defer()
            return
        screen = self.host.notifier.hand(table, seat)
        if not drawn or screen != drawn[0]:
            await self._edit(interaction, screen)

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
