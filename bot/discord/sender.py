"""The outbox's writes through discord.py, with Discord's errors mapped to the outbox's:
closed DMs (50007) and missing access → unreachable, an unknown message → post anew.
(discord.py itself waits out 429s.)"""

from __future__ import annotations

from typing import Any

import discord

from bot.delivery import Gone, Unreachable
from bot.discord.views import view_of
from bot.render.model import Screen


class DiscordSender:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def _channel(self, chat: str) -> Any:
        if chat.startswith("dm:"):
            user = await self.client.fetch_user(int(chat[3:]))
            return await user.create_dm()
        channel = self.client.get_channel(int(chat))
        return channel or await self.client.fetch_channel(int(chat))

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        try:
            channel = await self._channel(chat)
            view = view_of(screen)
            message = await (
                channel.send(screen.text, view=view) if view else channel.send(screen.text)
            )
        except discord.Forbidden as error:
            raise Unreachable(str(error)) from None
        return str(message.id)

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        try:
            channel = await self._channel(chat)
            await channel.get_partial_message(int(message)).edit(
                content=screen.text, view=view_of(screen)
            )
        except discord.NotFound:
            raise Gone() from None
        except discord.Forbidden as error:
            raise Unreachable(str(error)) from None
