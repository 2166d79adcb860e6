"""The outbox's writes through discord.py, with Discord's errors mapped to the outbox's:
closed DMs (50007) and missing access or permissions (50001, 50013) → unreachable, an
unknown message → post anew, a server error or a network failure → retry later, any other
refusal → dropped (logged by the outbox). (discord.py itself waits out 429s.)

Writes go to a ``PartialMessageable`` by channel id, so none of them costs a lookup
first; a DM needs its channel id, which is asked for once per player
(``POST /users/@me/channels``) and remembered in a bounded LRU.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord
from cachetools import LRUCache

from bot.delivery import Gone, Refused, Transient, Unreachable
from bot.discord.texts import plain
from bot.discord.views import view_of
from bot.render.model import Screen

log = logging.getLogger("sahra.discord")

DM_CHANNELS = 4096  # players whose DM channel id is remembered
T = TypeVar("T")


async def _mapped(write: Callable[[], Awaitable[T]]) -> T:
    """``write()`` with the failures the outbox must retry, or may drop, said so."""
    try:
        return await write()
    except (discord.Forbidden, discord.NotFound):
        raise  # each caller knows what these mean for its write
    except discord.DiscordServerError as error:
        raise Transient(f"HTTP {error.status}") from None
    except discord.HTTPException as error:
        raise Refused(f"HTTP {error.status} code {error.code}") from None
    except (TimeoutError, aiohttp.ClientError, OSError) as error:
        raise Transient(type(error).__name__) from None


class DiscordSender:
    def __init__(self, client: discord.Client, dm_channels: int = DM_CHANNELS) -> None:
        self.client = client
        self.dm_channels: LRUCache[int, int] = LRUCache(dm_channels)  # user → DM channel
        self._watchers: dict[str, list[asyncio.Future[discord.Forbidden | None]]] = {}

    def watch(self, chat: str) -> asyncio.Future[discord.Forbidden | None]:
        """Resolves when the next message is posted in ``chat``: None if Discord took it,
        the refusal if it answered 403 (``/sahra new`` learns whether its table is seen)."""
        future: asyncio.Future[discord.Forbidden | None] = (
            asyncio.get_running_loop().create_future()
        )
        self._watchers.setdefault(chat, []).append(future)
        return future

    def unwatch(self, chat: str, future: asyncio.Future[discord.Forbidden | None]) -> None:
        watchers = self._watchers.get(chat, [])
        if future in watchers:
            watchers.remove(future)
        if not watchers:
            self._watchers.pop(chat, None)

    def _posted(self, chat: str, refusal: discord.Forbidden | None) -> None:
        for future in self._watchers.pop(chat, []):
            if not future.done():
                future.set_result(refusal)

    async def _channel(self, chat: str) -> discord.PartialMessageable:
        if not chat.startswith("dm:"):
            return self.client.get_partial_messageable(int(chat))
        user = int(chat[3:])
        channel = self.dm_channels.get(user)
        if channel is None:
            channel = (await self.client.create_dm(discord.Object(id=user))).id
            self.dm_channels[user] = channel
        return self.client.get_partial_messageable(channel, type=discord.ChannelType.private)

    def _forget_dm(self, chat: str) -> None:
        if chat.startswith("dm:"):
            self.dm_channels.pop(int(chat[3:]), None)

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        async def post() -> discord.Message:
            channel = await self._channel(chat)
            view = view_of(screen)
            text = plain(screen.text)
            return await (channel.send(text, view=view) if view else channel.send(text))

        try:
            message = await _mapped(post)
        except discord.Forbidden as error:
            self._posted(chat, error)
            log.warning("event=discord_forbidden chat=%s code=%s op=send", chat, error.code)
            raise Unreachable(str(error)) from None
        except discord.NotFound:
            if chat.startswith("dm:"):
                self._forget_dm(chat)  # a DM channel that is no more: asked for anew
                raise Transient("unknown DM channel") from None
            raise Unreachable("unknown channel") from None  # deleted: its table ends
        self._posted(chat, None)
        return str(message.id)

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        async def change() -> None:
            channel = await self._channel(chat)
            await channel.get_partial_message(int(message)).edit(
                content=plain(screen.text), view=view_of(screen)
            )

        try:
            await _mapped(change)
        except discord.NotFound:
            raise Gone() from None
        except discord.Forbidden as error:
            log.warning("event=discord_forbidden chat=%s code=%s op=edit", chat, error.code)
            raise Unreachable(str(error)) from None
