"""The table manager: lobbies, the durable apply path, timers and restart recovery."""

from bot.tables.commands import PlayerRef, Press
from bot.tables.config import TableConfig
from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Place, Seat
from bot.tables.manager import TableManager
from bot.tables.notifier import InMemoryNotifier, Notifier

__all__ = [
    "InMemoryNotifier",
    "LiveTable",
    "Notifier",
    "Place",
    "PlayerRef",
    "Press",
    "Refusal",
    "Seat",
    "TableConfig",
    "TableManager",
]
