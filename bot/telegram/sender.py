"""The outbox's writes through the Bot API, with Telegram's errors mapped to the outbox's:
429 → wait (RetryLater), 403 → the chat cannot be reached, a vanished message → post anew,
"message is not modified" → nothing to do."""

from __future__ import annotations

from datetime import timedelta

from telegram import Bot
from telegram.error import BadRequest, Forbidden, RetryAfter

from bot.delivery import Gone, RetryLater, Unreachable
from bot.render.model import Screen
from bot.telegram.keyboards import markup

_GONE = ("message to edit not found", "message can't be edited", "message_id_invalid")


def _seconds(value: timedelta | float) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class TelegramSender:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        try:
            message = await self.bot.send_message(
                int(chat),
                screen.text,
                reply_markup=markup(screen),
                message_thread_id=int(thread) if thread else None,
            )
        except RetryAfter as error:
            raise RetryLater(_seconds(error.retry_after)) from None
        except Forbidden as error:
            raise Unreachable(str(error)) from None
        return str(message.message_id)

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        try:
            await self.bot.edit_message_text(
                screen.text,
                chat_id=int(chat),
                message_id=int(message),
                reply_markup=markup(screen),
            )
        except RetryAfter as error:
            raise RetryLater(_seconds(error.retry_after)) from None
        except Forbidden as error:
            raise Unreachable(str(error)) from None
        except BadRequest as error:
            text = str(error).lower()
            if "not modified" in text:
                return
            if any(reason in text for reason in _GONE):
                raise Gone() from None
            raise
