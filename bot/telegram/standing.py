"""Who is an administrator of a Telegram group, or gone from it: the facts the core's
table commands ask the platform (``bot.tables.table_commands.Standing``), read with
getChatMember only when a rule needs them."""

from __future__ import annotations

import logging

from telegram import ChatMember, ChatMemberRestricted, Update
from telegram.constants import ChatMemberStatus

log = logging.getLogger("sahra.telegram")

# A user who is no longer in the chat (ChatMemberRestricted says so with is_member).
GONE_STATUSES = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
ADMIN_STATUSES = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


class ChatStanding:
    def __init__(self, update: Update) -> None:
        self.update = update

    async def is_admin(self, user: str) -> bool:
        return await self._status(user) in ADMIN_STATUSES

    async def has_left(self, user: str) -> bool:
        return await self._status(user) in GONE_STATUSES

    async def _status(self, user: str) -> str | None:
        """The user's status in this chat; None when it cannot be told, which grants
        nothing."""
        chat = self.update.effective_chat
        if chat is None or not user.isdecimal():
            return None
        try:
            member: ChatMember = await self.update.get_bot().get_chat_member(chat.id, int(user))
        except Exception as error:  # an unknown answer grants no right, and is no crash
            log.warning(
                "event=member_check_failed chat=%s error=%s", chat.id, type(error).__name__
            )
            return None
        if isinstance(member, ChatMemberRestricted) and not member.is_member:
            return ChatMemberStatus.LEFT  # restricted, and no longer in the group
        return member.status
