"""The private screen's buttons are exactly the player's moves.

Across many positions of every variant: each enabled button is a legal action (or a
doubling toggle, whose confirm is legal), each legal action has an enabled button, cards
that may not be played are shown but disabled, bids that do not exist are absent, every
screen fits Discord's 5 rows of 5 buttons, and every button carries its table and the
state version it was drawn for.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

import engine
from bot.render import DOUBLE_PICK, Button, Screen, hand_screen
from bot.render.i18n import card_label
from bot.render.model import TableInfo
from engine.players import new_player
from tests.bot.render.support import HEURISTIC, VARIANTS, table
from tests.engine.scripts import bid_round, one_suit_deck, play_out

MATCHES = 25  # per variant, each to the end of its second deal


def check_limits(screen: Screen, info: TableInfo) -> None:
    assert len(screen.rows) <= 5, f"{len(screen.rows)} rows"
    for row in screen.rows:
        assert 1 <= len(row) <= 5, f"a row of {len(row)} buttons"
    for button in screen.buttons():
        assert (button.table_id, button.version) == (info.id, info.version), button


def check_screen(info: TableInfo, view: dict[str, Any]) -> Screen:
    """Every rule of this module, for one seat's view."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    screen = hand_screen(info, view)
    check_limits(screen, info)
    buttons = screen.buttons()
    if not legal:
        assert buttons == [], "buttons for a player with nothing to do"
        return screen
    phase = view["phase"]
    if phase == "doubling":
        check_doubling(info, view)
        return screen
    enabled = [b.action for b in buttons if b.enabled]
    for action in enabled:
        assert action in legal, f"an enabled button for an illegal {action}"
    for action in legal:
        assert action in enabled, f"no button for the legal {action}"
    assert len(enabled) == len(legal), "two buttons for one move"
    plays = {a["card"] for a in legal if a["type"] == "play"}
    if phase == "playing" and plays:
        # Every card of the hand is shown, in hand order; the illegal ones disabled.
        assert [b.action for b in buttons] == [{"type": "play", "card": c} for c in view["hand"]]
        for button in buttons:
            assert button.enabled == (button.action["card"] in plays), button
            assert button.label == card_label(button.action["card"])
    else:
        assert all(b.enabled for b in buttons), "a disabled button outside card play"
    return screen


def check_doubling(info: TableInfo, view: dict[str, Any]) -> None:
    """TX.7: a toggle per doublable card and a confirm; for every answer the player may
    give (every subset), the screen with those cards marked confirms exactly it."""
    legal = view["legal_actions"]
    doublable = max((a["cards"] for a in legal), key=len)
    assert len(legal) == 2 ** len(doublable)
    for size in range(len(doublable) + 1):
        for chosen in combinations(doublable, size):
            screen = hand_screen(info, view, chosen)
            check_limits(screen, info)
            confirm_row, *toggle_rows = screen.rows  # the confirm button comes first
            toggles = [b for row in toggle_rows for b in row]
            assert [b.action["type"] for b in toggles] == [DOUBLE_PICK] * len(doublable)
            for code, toggle in zip(doublable, toggles, strict=True):
                flipped = [c for c in doublable if (c in chosen) != (c == code)]
                assert toggle.action["cards"] == flipped
                assert toggle.label.startswith("☑" if code in chosen else "☐")
                assert toggle.label.endswith(card_label(code))
            assert len(confirm_row) == 1
            confirm = confirm_row[0]
            assert confirm.enabled and confirm.action == {"type": "double", "cards": list(chosen)}
            assert confirm.action in legal


def players(index: int) -> list[Any]:
    return [
        HEURISTIC if (index >> seat) & 1 else new_player("random", 7 * index + seat)
        for seat in range(4)
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_buttons_match_the_legal_actions(variant: str) -> None:
    positions = 0
    for index in range(MATCHES):
        match = engine.new_match(variant, seed=500 + index)
        mix = players(index)
        version = 0
        while match.result is None and match.deal_number <= 2:
            info = table(
                variant, "ar" if index % 2 else "en", table_id=900 + index, version=version
            )
            for seat in range(4):  # the seats to act, and the others' empty button rows
                check_screen(info, match.view(seat))
                positions += 1
            seat = match.to_act[0]
            match.apply(seat, mix[seat].decide(match.view(seat)))
            version += 1
    assert positions > 5_000


def bid_buttons(screen: Screen) -> list[int]:
    return [b.action["value"] for b in screen.buttons() if b.action["type"] == "bid"]


def test_t41d_offers_no_six() -> None:
    """T41D.1: a bid of 6 does not exist, so it has no button (not even a disabled one)."""
    match = engine.new_match("tarneeb41_double", seed=3)
    for _ in range(4):
        seat = match.to_act[0]
        screen = check_screen(table("tarneeb41_double", "en"), match.view(seat))
        assert 6 not in bid_buttons(screen)
        assert "6" not in [b.label for b in screen.buttons()]
        match.apply(seat, HEURISTIC.decide(match.view(seat)))


def test_t41d_offers_no_two_from_thirty_points() -> None:
    """T41D.2: seat 1 takes all 13 tricks twice on stacked decks (bid 13, ×2: +26 each),
    so in the third deal it has 52 points and is offered no 2 (and no 6); the others,
    below 30, still are."""
    match = engine.new_match(
        "tarneeb41_double",
        seed=1,
        options={"first_dealer": 2},
        decks=[one_suit_deck(2, 1), one_suit_deck(3, 1)],
    )
    for _ in range(2):
        bid_round(match, [2, 13, 2, 2])
        play_out(match)
    assert match.scores[1] == 52 and match.phase == "bidding"
    info = table("tarneeb41_double", "ar")
    while match.phase == "bidding":
        seat = match.to_act[0]
        view = match.view(seat)
        screen = check_screen(info, view)
        bids = bid_buttons(screen)
        assert 6 not in bids
        if seat == 1:
            assert bids == [3, 4, 5, 7, 8, 9, 10, 11, 12, 13]
        else:
            assert match.scores[seat] < 30 and bids[0] == 2
        match.apply(seat, match.auto_action(seat))


def test_solo_bids_above_the_high_bid_and_the_forced_dealer_cannot_pass() -> None:
    match = engine.new_match("tarneeb_solo", seed=4)
    info = table("tarneeb_solo", "en")
    match.apply(match.to_act[0], {"type": "bid", "value": 9})
    screen = check_screen(info, match.view(match.to_act[0]))
    assert bid_buttons(screen) == [10, 11, 12, 13]
    assert screen.buttons()[0].action == {"type": "pass"}
    forced = engine.new_match("tarneeb_solo", seed=4)
    for _ in range(3):  # TS.5: the first three pass; the dealer must bid
        forced.apply(forced.to_act[0], {"type": "pass"})
    screen = check_screen(info, forced.view(forced.to_act[0]))
    assert bid_buttons(screen) == [7, 8, 9, 10, 11, 12, 13]
    assert {"type": "pass"} not in [b.action for b in screen.buttons()]


def test_a_forced_trix_pass_is_one_pass_button() -> None:
    """TX.9: with no card that fits, PASS is the only move: one enabled Pass button (the
    cards stay listed in the text, so a full hand never needs a sixth row)."""
    for seed in range(20):
        match = engine.new_match("trix_complex", seed=seed)
        match.apply(match.to_act[0], {"type": "contract", "contract": "trix"})
        while match.phase == "playing":
            seat = match.to_act[0]
            view = match.view(seat)
            if view["legal_actions"] == [{"type": "pass"}]:
                screen = check_screen(table("trix_complex", "en"), view)
                assert [(b.action, b.enabled) for b in screen.buttons()] == [
                    ({"type": "pass"}, True)
                ]
                return
            match.apply(seat, HEURISTIC.decide(view))
    raise AssertionError("no forced pass found")


def test_a_whole_suit_fits_in_the_rows() -> None:
    """13 cards of one suit while playing: three rows of 5, 5 and 3, all shown."""
    match = engine.new_match(
        "syrian41", seed=1, options={"first_dealer": 0}, decks=[one_suit_deck(0, 1)]
    )
    bid_round(match, [2, 13, 2, 2])
    seat = match.to_act[0]
    screen = check_screen(table("syrian41", "en"), match.view(seat))
    assert [len(row) for row in screen.rows] == [5, 5, 3]


def test_buttons_carry_the_table_and_version() -> None:
    match = engine.new_match("trix_complex", seed=10)
    for info in (
        table("trix_complex", "en", table_id=123456, version=0),
        table("trix_complex", "ar", table_id=1, version=987654),
    ):
        buttons: list[Button] = hand_screen(info, match.view(match.to_act[0])).buttons()
        assert buttons and {(b.table_id, b.version) for b in buttons} == {(info.id, info.version)}
