"""A finished deal's replay: every hand as dealt, every card in play order with its trick
and its taker, the bidding as steps, and the result card the table showed after it."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.render.i18n import card_label, card_words
from bot.render.page import page_state
from bot.render.replay import replay_view
from engine.records import replay
from tests.bot.render.support import HEURISTIC, LANGUAGES, VARIANTS, table

PENDING = {"status": "pending"}
DEALS = 4


def played_match(variant: str, language: str) -> tuple[Any, dict[int, Any], int | None]:
    """The first deals of a match of heuristic players (kept short: a few deals show every
    kind of step); its record, and the result card the page showed right after each deal
    ended."""
    match = engine.new_match(variant, seed=5)
    info = table(variant, language, status="running")
    moves: list[tuple[int, dict[str, Any]]] = []
    shown: dict[int, Any] = {}
    while match.result is None and len(shown) < DEALS:
        seat = match.to_act[0]
        action = HEURISTIC.decide(match.view(seat))
        events = match.apply(seat, action)
        moves.append((seat, action))
        if any(event["type"] in ("hand_scored", "deal_cancelled") for event in events):
            state = page_state(info, match.view(None), you=None, now=0.0, commands=[])
            shown[state["deal_result"]["deal"]] = state["deal_result"]
    target = match.view(None).get("target")
    return replay(variant, {}, 5, None, moves), shown, target


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_replay_holds_the_deal_as_dealt_and_played_and_ends_on_its_result_card(
    variant: str, language: str
) -> None:
    record, shown, target = played_match(variant, language)
    info = table(variant, language, status="finished")
    assert set(shown) == {deal.number for deal in record.deals}
    for deal in record.deals:
        assert deal.finished
        view = replay_view(info, deal, target=target, analysis=PENDING)
        assert view["deal"] == deal.number and view["analysis"] == PENDING
        # The four hands as dealt, each card with its label and its name in words.
        for seat in range(4):
            cards = view["hands"][seat]
            assert sorted(c["card"] for c in cards) == sorted(deal.hands[seat])
            for c in cards:
                assert c["label"] == card_label(c["card"])
                assert c["name"] == card_words(language, c["card"])
        # Every turn in the order it was played: cards (and Trix's passes).
        turns = [(p["seat"], p["card"] or "pass") for p in view["plays"]]
        expected = [turn for trick in deal.tricks for turn in trick.plays] + list(deal.layout)
        assert turns == expected
        # A trick's last card names who took it; no other card does.
        takers = [(p["trick"], p["winner"]) for p in view["plays"] if p["winner"] is not None]
        assert takers == [(n, trick.winner) for n, trick in enumerate(deal.tricks, 1)]
        # The same result card the table showed when the deal ended.
        assert view["result"] == shown[deal.number]
        assert view["note"] and view["auction"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_cancelled_deal_replays_its_bids_and_says_it_was_redealt(language: str) -> None:
    record, _, target = played_match("syrian41", language)
    info = table("syrian41", language, status="finished")
    cancelled = [deal for deal in record.deals if deal.cancelled]
    if not cancelled:
        pytest.skip("this seed cancels no deal")
    view = replay_view(info, cancelled[0], target=target, analysis={"status": "none"})
    assert view["plays"] == [] and view["result"]["cancelled"]
    kinds = [step["kind"] for step in view["auction"]]
    assert kinds[-1] == "cancelled" and kinds.count("bid") + kinds.count("pass") == 4
