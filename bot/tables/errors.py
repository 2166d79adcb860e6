"""Refusals: the manager's one answer to bad input. Nothing changes when one is raised."""

from __future__ import annotations

from bot.render.i18n import t

# The stable codes; what each says to a player is the catalog's ``refuse_<code>`` entry.
REFUSAL_CODES = frozenset(
    (
        "unknown_table",
        "place_taken",
        "not_in_lobby",
        "not_running",
        "not_seated",
        "already_seated",
        "seat_taken",
        "seat_empty",
        "table_full",
        "not_enough_players",
        "not_your_turn",
        "stale",
        "illegal",
        "not_allowed",
        "stop_not_allowed",
        "language_not_allowed",
        "not_away",
        "bad_option",
        "storage",
        "moving",
        # the league and the rematch
        "record_not_over",
        "record_not_player",
        # a deal's replay (issue 35)
        "review_not_over",
        "review_busy",
        "rematch_not_over",
        "rematch_not_player",
        "rematch_started",
        "already_ready",
        "no_partners",
    )
)


class Refusal(Exception):
    """A refused command. ``code`` is stable (for translations); ``detail`` may carry the
    engine's reason (its ``IllegalAction`` code and message)."""

    def __init__(self, code: str, message: str | None = None, detail: str | None = None) -> None:
        assert code in REFUSAL_CODES, code
        # English for logs and tracebacks; players see the notice in their language.
        text = message or t("en", f"refuse_{code}")
        super().__init__(text)
        self.code = code
        self.message = text
        self.detail = detail

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"
