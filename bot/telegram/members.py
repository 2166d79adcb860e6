"""Who belongs to a Telegram group, for the web table: only a member of a table's chat may
watch it (``bot.web.identity.Members``). Asked with getChatMember
(core.telegram.org/bots/api#getchatmember) through this process's bot, and remembered
briefly, so that a page's reconnects and a reload storm do not ask Telegram each time.

A member is the owner, an administrator, a member, or a restricted user still in the chat
(``is_member``). Left, banned, and every definite refusal of the question (user not found,
chat not found, the bot no longer in the chat) is not a member. An answer that cannot be
had (Telegram unreachable, flood control) refuses too, and is not remembered.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from telegram import Bot, ChatMemberRestricted
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.tables.live import Place

log = logging.getLogger("sahra.telegram")

MEMBER_STATUSES = (
    ChatMemberStatus.OWNER,
    ChatMemberStatus.ADMINISTRATOR,
    ChatMemberStatus.MEMBER,
)
# How long an answer is kept. A member stays one for minutes at a time (a page reconnects
# and reloads without a question); a refusal is asked again soon, so that someone who has
# just joined the group is let in at their next try.
MEMBER_SECONDS = 300.0
STRANGER_SECONDS = 30.0
KEPT = 10_000  # answers remembered at most (the oldest go first)


class TelegramMembers:
    """``Members`` for Telegram tables, through ``bot``: the process's own PTB bot, which
    a process serving pages without the ``telegram`` role (a standby on PostgreSQL) has
    never initialized; it is initialized here before the first question."""

    def __init__(self, bot: Bot, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.clock = clock
        self._known: dict[tuple[str, str], tuple[bool, float]] = {}  # -> (member, until)
        self._asking: dict[tuple[str, str], asyncio.Future[bool | None]] = {}
        self._ready = False
        self._readying = asyncio.Lock()

    async def is_member(self, place: Place, user_id: str) -> bool:
        chat = place.chat
        if not chat.lstrip("-").isdecimal() or not user_id.isdecimal():
            return False  # not a Telegram chat and user: nothing to ask
        key = (chat, user_id)
        known = self._known.get(key)
        if known is not None and known[1] > self.clock():
            return known[0]
        asking = self._asking.get(key)
        if asking is None:  # pages of one person reconnecting at once ask once
            asking = asyncio.ensure_future(self._ask(int(chat), int(user_id)))
            self._asking[key] = asking
            asking.add_done_callback(lambda _: self._asking.pop(key, None))
        answer = await asyncio.shield(asking)
        if answer is None:
            return False  # unknown: refused, and asked again next time
        self._remember(key, answer)
        return answer

    def _remember(self, key: tuple[str, str], member: bool) -> None:
        self._known.pop(key, None)
        if len(self._known) >= KEPT:
            now = self.clock()
            self._known = {k: v for k, v in self._known.items() if v[1] > now}
            while len(self._known) >= KEPT:
                self._known.pop(next(iter(self._known)))
        until = self.clock() + (MEMBER_SECONDS if member else STRANGER_SECONDS)
        self._known[key] = (member, until)

    async def _ask(self, chat: int, user: int) -> bool | None:
        """Telegram's answer: True a member, False not, None not known."""
        try:
            await self._initialized()
        except (TelegramError, RuntimeError) as error:  # tried again at the next question
            log.warning("event=member_check_failed chat=%d error=%s", chat, type(error).__name__)
            return None
        try:
            member = await self.bot.get_chat_member(chat, user)
        except (BadRequest, Forbidden) as error:
            # Telegram's definite no: user or chat not found, the bot not in the chat.
            log.info("event=member_refused chat=%d error=%s", chat, type(error).__name__)
            return False
        except (TelegramError, RuntimeError) as error:  # unreachable, 429, bot shut down
            log.warning("event=member_check_failed chat=%d error=%s", chat, type(error).__name__)
            return None
        if isinstance(member, ChatMemberRestricted):
            return member.is_member  # restricted, and still in the chat (or not)
        return member.status in MEMBER_STATUSES

    async def _initialized(self) -> None:
        """PTB's bot is initialized before use (it checks the token with getMe). Once the
        application owns it the call returns at once; on a process that only serves pages
        it is made here, once."""
        if self._ready:
            return
        async with self._readying:
            if not self._ready:
                await self.bot.initialize()
                self._ready = True
