"""Getting screens to chats: the per-chat outbox every adapter writes through, and the
memory of the messages it edits (kept across restarts)."""

from bot.delivery.memory import MessageMemory, StoredMessages
from bot.delivery.outbox import (
    GROUP_INTERVAL,
    Gone,
    Outbox,
    Refused,
    RetryLater,
    Sender,
    Transient,
    Unreachable,
)
from bot.present.mailbox import REPLY, RESULT, TABLE

__all__ = [
    "GROUP_INTERVAL",
    "REPLY",
    "RESULT",
    "TABLE",
    "Gone",
    "MessageMemory",
    "Outbox",
    "Refused",
    "RetryLater",
    "Sender",
    "StoredMessages",
    "Transient",
    "Unreachable",
]
