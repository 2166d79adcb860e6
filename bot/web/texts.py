"""What a page is told when a hello or a frame is refused, in its language."""

from __future__ import annotations

from bot.render.i18n import t

DENIALS = (
    "bad_launch",
    "bad_link",
    "bad_session",
    "unknown_table",
    "not_member",
    "starting",
    "too_many",
    "too_many_pages",
    "no_hello",
    "bad_frame",
    "not_in_activity",
    "bad_activity",
    "activity_unavailable",
    "other_channel",
    "no_table_here",
)


def denial(language: str, code: str) -> str:
    return t(language, f"web_denied_{code}" if code in DENIALS else "web_failed")
