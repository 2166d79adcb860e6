"""Refusals: the manager's one answer to bad input. Nothing changes when one is raised."""

from __future__ import annotations

REFUSAL_CODES = {
    "unknown_table": "There is no such table (it may have ended).",
    "place_taken": "A table is already open here; finish or stop it first.",
    "not_in_lobby": "The table has already started.",
    "not_running": "The table is not being played.",
    "not_seated": "You do not have a seat at this table.",
    "already_seated": "You already have a seat at this table.",
    "seat_taken": "That seat is taken.",
    "seat_empty": "That seat is empty.",
    "table_full": "The table is full.",
    "not_enough_players": "Four seats must be filled to start.",
    "not_your_turn": "It is not your turn.",
    "stale": "That button is out of date; use the latest message.",
    "illegal": "That move is not allowed.",
    "not_allowed": "Only the table's creator or a chat admin can do that.",
    "not_away": "Your seat is not being played for you.",
    "bad_option": "That option is not valid.",
    "storage": "The move could not be saved; please try again.",
}


class Refusal(Exception):
    """A refused command. ``code`` is stable (for translations); ``detail`` may carry the
    engine's reason (its ``IllegalAction`` code and message)."""

    def __init__(self, code: str, message: str | None = None, detail: str | None = None) -> None:
        assert code in REFUSAL_CODES, code
        super().__init__(message or REFUSAL_CODES[code])
        self.code = code
        self.message = message or REFUSAL_CODES[code]
        self.detail = detail

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"
