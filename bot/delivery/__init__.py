"""Getting screens to chats: the per-chat outbox every adapter writes through."""

from bot.delivery.outbox import Gone, Outbox, Refused, RetryLater, Sender, Transient, Unreachable

__all__ = ["Gone", "Outbox", "Refused", "RetryLater", "Sender", "Transient", "Unreachable"]
