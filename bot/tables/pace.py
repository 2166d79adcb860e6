"""How long a page takes to show each public move, and so how much later a seat watching
it starts its turn clock (docs/web-protocol.md, "Pacing").

The page plays the public moves of a change one after another (a card travels to the
trick, the whole trick stays a moment, then goes to its winner); several moves committed
together (three computers answering at once) take the sum of their times. The server never
waits for it: computers move at once and other tables are never slowed. Instead a seat
that follows the table on a page gets its turn's time counted from the moment its page has
shown everything before its turn (``LiveTable.shown_until``), so no player loses turn time
to the presentation. The page is sent the same figures (``for_page``) so the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

ANNOUNCED = frozenset({"bid", "pass", "trump", "contract", "auction_won", "doubles_revealed"})


@dataclass(frozen=True)
class Pace:
    # An operator's multiplier (``SAHRA_WEB_PACE``): 1 as players expect, 0 shows the
    # moves at once (tests that are not about pacing).
    scale: float = 1.0
    card: float = 0.35  # a card travels from its seat to the trick
    trick: float = 1.0  # the complete trick stays on the felt, its winner marked
    sweep: float = 0.35  # then goes to its winner
    announce: float = 0.7  # a bid, a pass, trump or a contract, shown on its seat
    result: float = 8.0  # a deal's result card stays at most this long

    def seconds(self, events: Iterable[dict[str, Any]]) -> float:
        """The time a page takes to show ``events`` (the private ones show nothing)."""
        total = 0.0
        for event in events:
            kind = event["type"]
            if "to" in event:
                continue
            if kind == "play":
                total += self.card
            elif kind == "trick_won":
                total += self.trick + self.sweep
            elif kind in ANNOUNCED:
                total += self.announce
            elif kind in ("hand_scored", "deal_cancelled"):
                total += self.result
        return total * self.scale

    def for_page(self) -> dict[str, int]:
        """The same figures for the page, in milliseconds."""
        return {
            name: round(1000 * getattr(self, name) * self.scale)
            for name in ("card", "trick", "sweep", "announce", "result")
        }
