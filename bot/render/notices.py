"""Short answers to one player: why a press was refused (stable codes, both languages)."""

from __future__ import annotations

from bot.render.i18n import has, t
from bot.render.model import Notice
from engine.params import TARNEEB41_DOUBLE

# The rule numbers an explanation may quote, from the engine (never restated here).
RULE_NUMBERS: dict[str, object] = {
    "no_two_from": TARNEEB41_DOUBLE.no_two_from,  # T41D.2
    "lowest_bid": TARNEEB41_DOUBLE.min_bid,
}


def refusal_notice(language: str, code: str, detail: str | None = None) -> Notice:
    """The refusal ``code`` (``bot.tables.errors``) in the player's language; an illegal
    move says which rule it broke when the engine's reason is known."""
    if code == "illegal" and detail and has(language, f"illegal_{detail}"):
        return Notice(t(language, f"illegal_{detail}", **RULE_NUMBERS))
    return Notice(t(language, f"refuse_{code}"))
