"""The platform-neutral renderer: every screen of a table, in Arabic and English.

Screens are drawn from views only — the public table from ``view(None)``, a hand from
``view(seat)`` — and adapters (Telegram, Discord, console) map them to their widgets.
"""

from bot.render.hand import DOUBLE_PICK, hand_screen
from bot.render.lobby import lobby_screen
from bot.render.model import (
    Button,
    Notice,
    Screen,
    SeatInfo,
    TableInfo,
    TimerStyle,
    no_timer,
)
from bot.render.notices import refusal_notice
from bot.render.rules_text import rules_text
from bot.render.sheets import deal_sheet, result_screen, score_sheet
from bot.render.table import table_screen

__all__ = [
    "DOUBLE_PICK",
    "Button",
    "Notice",
    "Screen",
    "SeatInfo",
    "TableInfo",
    "TimerStyle",
    "deal_sheet",
    "hand_screen",
    "lobby_screen",
    "no_timer",
    "refusal_notice",
    "result_screen",
    "rules_text",
    "score_sheet",
    "table_screen",
]
