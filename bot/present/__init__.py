"""The presenter: which screens change after each committed event, for every platform."""

from bot.present.presenter import Presenter, hand_key, table_key
from bot.present.surface import Surface

__all__ = ["Presenter", "Surface", "hand_key", "table_key"]
