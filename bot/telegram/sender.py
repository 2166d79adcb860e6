"""The outbox's writes through the Bot API, with Telegram's errors mapped to the outbox's:
429 → wait (RetryLater, for this chat only), a network error, timeout or server error →
try again (Transient), 403 → the chat cannot be reached, a vanished message → post anew,
"message is not modified" → nothing to do, any other bad request → refused for good.

Messages are plain text (no ``parse_mode``), so a player's display name can never format
or break a table."""

from __future__ import annotations

from datetime import timedelta

from telegram import Bot
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.delivery import Gone, Refused, RetryLater, Transient, Unreachable
from bot.render.model import Screen
from bot.telegram.keyboards import markup

_GONE = ("message to edit not found", "message can't be edited", "message_id_invalid")


def _seconds(value: timedelta | float) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _mapped(error: TelegramError, *, editing: bool = False) -> Exception:
    """The outbox's exception for a Bot API error (the order matters: a BadRequest is a
    NetworkError to PTB, but a retry cannot fix it)."""
    if isinstance(error, RetryAfter):
        return RetryLater(_seconds(error.retry_after))
    if isinstance(error, Forbidden):
        return Unreachable(str(error))
    if isinstance(error, BadRequest):
        text = str(error).lower()
        if editing and any(reason in text for reason in _GONE):
            return Gone()
        return Refused(str(error))
    if isinstance(error, NetworkError):  # includes TimedOut and 5xx answers
        return Transient(str(error))
    return Refused(str(error))  # ChatMigrated, Conflict, InvalidToken: not by retrying


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
        except TelegramError as error:
            raise _mapped(error) from None
        return str(message.message_id)

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        try:
            await self.bot.edit_message_text(
                screen.text,
                chat_id=int(chat),
                message_id=int(message),
                reply_markup=markup(screen),
            )
        except BadRequest as error:
            if "not modified" in str(error).lower():
                return  # the message already shows this screen
            raise _mapped(error, editing=True) from None
        except TelegramError as error:
            raise _mapped(error, editing=True) from None
