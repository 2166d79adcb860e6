"""The page's pacing (``bot.tables.pace``): how long a page takes to show each public move,
the same figures the page is sent, and that a private event takes no time."""

from __future__ import annotations

import pytest

from bot.tables.pace import Pace


def test_each_public_move_takes_its_time_and_a_private_one_none() -> None:
    pace = Pace()
    trick = [
        {"type": "play", "seat": s, "card": c} for s, c in enumerate(["2C", "3C", "4C", "5C"])
    ]
    trick.append({"type": "trick_won", "seat": 3, "leader": 0, "cards": ["2C", "3C", "4C", "5C"]})
    assert pace.seconds(trick) == pytest.approx(4 * pace.card + pace.trick + pace.sweep)
    assert pace.seconds([{"type": "bid", "seat": 1, "value": 7}]) == pace.announce
    assert pace.seconds([{"type": "hand", "to": 0, "cards": ["2C"]}]) == 0
    assert pace.seconds([{"type": "double_answered", "to": 2, "cards": []}]) == 0
    assert pace.seconds([{"type": "hand_scored", "deal_number": 1}]) == pace.result


def test_the_operators_scale_applies_to_the_server_and_the_page_alike() -> None:
    half, still = Pace(scale=0.5), Pace(scale=0)
    bids = [{"type": "bid", "seat": 1, "value": 7}, {"type": "bid", "seat": 2, "value": 3}]
    assert half.seconds(bids) == pytest.approx(Pace().seconds(bids) / 2)
    assert still.seconds(bids) == 0
    assert half.for_page() == {
        "card": 175,
        "trick": 500,
        "sweep": 175,
        "announce": 350,
        "result": 4000,
    }
    assert set(still.for_page().values()) == {0}
