"""The one backoff of every retry loop: doubling from the first pause up to the cap."""

from __future__ import annotations

from bot.backoff import backoff
from bot.tables.deadlines import retry_after


def test_the_pause_doubles_from_the_first_up_to_the_cap() -> None:
    assert [backoff(attempt, 0.5, 10.0) for attempt in range(7)] == [
        0.5,
        1.0,
        2.0,
        4.0,
        8.0,
        10.0,
        10.0,
    ]
    assert retry_after(1) == 0.5 and retry_after(8) == 60.0  # a table's retries


def test_failures_counted_for_days_still_give_the_cap() -> None:
    """A consumer failing every ten seconds while its database stays down counts past
    a thousand failures in three hours; ``0.5 * 2**failures`` then overflowed a float and
    ended the loop that should keep retrying."""
    assert backoff(100_000, 0.5, 10.0) == 10.0
    assert retry_after(100_000) == 60.0
