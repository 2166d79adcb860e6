"""The one backoff every retry loop waits by: doubling from a first pause up to a cap.

At the bottom of the core (beside settings and logs, importing nothing of Sahra), so any
layer may use it: the tables' retries, the outbox's writes, the inbox's consumer and a
platform's first connection.
"""

from __future__ import annotations

# 2**64 times any first pause is past every cap: the exponent stops there, so a count of
# failures that has grown for days never overflows a float.
_MOST_DOUBLINGS = 64


def backoff(attempt: int, first: float, most: float) -> float:
    """Seconds to wait before retry ``attempt`` (0 for the first retry): ``first``, then
    twice that each time, never more than ``most``."""
    return min(most, first * 2.0 ** min(max(0, attempt), _MOST_DOUBLINGS))
