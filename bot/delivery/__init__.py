"""Getting screens to chats: the per-chat outbox every adapter writes through."""

from bot.delivery.outbox import Gone, Outbox, RetryLater, Sender, Unreachable

__all__ = ["Gone", "Outbox", "RetryLater", "Sender", "Unreachable"]
