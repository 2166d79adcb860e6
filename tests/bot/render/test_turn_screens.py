"""The two private screens, the deadline styles and the tricks in the group.

- The DECISION screen (the seat has legal actions) holds everything needed to decide:
  the trick so far, the last trick with its four cards and winner, every bid and trick
  count, the scores and the target, the partner, and in Trix the rows.
- The WAITING screen (no legal actions) shows nothing that others' moves change, so the
  presenter never has to send it again while the others play.
- No frozen countdown: a ``TimerStyle`` decides what follows a turn line (``no_timer``:
  nothing).
- The group sees every completed trick (``recent_tricks``), also in the deal's sheet; a
  cancelled deal's sheet (T41.6 / T41D.3) gives the bids, their total and the minimum.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import engine
from bot.render import (
    TimerStyle,
    deal_sheet,
    hand_screen,
    no_timer,
    score_sheet,
    table_screen,
)
from bot.render.i18n import card_label, number, signed, t, variant_name
from bot.render.model import TableInfo
from bot.render.table import rows_strip
from engine.params import PARTNERSHIP_PARAMS, TARNEEB_SOLO
from tests.bot.render.support import (
    LANGUAGES,
    NOW,
    SEATS,
    VARIANTS,
    drive,
    mid_trick,
    plain,
    step,
    table,
)

View = dict[str, Any]
NAMES = [plain(s.name) for s in SEATS if s is not None]
COUNTDOWN = re.compile(r"\d+:\d\d")


def name(seat: int) -> str:
    """A seat's name as the plain text shows it (a computer with its mark)."""
    return NAMES[seat] + (" 🤖" if SEATS[seat] is not None and SEATS[seat].computer else "")


def decision(variant: str, language: str, match: engine.Match) -> tuple[View, str]:
    seat = match.to_act[0]
    view = match.view(seat)
    assert view["legal_actions"]
    return view, plain(hand_screen(table(variant, language), view).text)


def line_of(text: str, start: str) -> str:
    found = [line for line in text.splitlines() if line.startswith(start)]
    assert len(found) == 1, (start, text)
    return found[0]


def seat_line(text: str, seat: int) -> str:
    """The seat's line in the decision screen's list of players."""
    found = [
        line
        for line in text.splitlines()
        if line[:2] in ("• ", "▶ ")
        and (line[2:].startswith(f"{name(seat)}:") or line[2:].startswith(f"{name(seat)} ("))
    ]
    assert len(found) == 1, (seat, text)
    return found[0]


def played(trick: View) -> list[str]:
    """A completed trick's plays as the text shows them: "Ali K♣", … in play order."""
    leader = trick["leader"]
    return [f"{name((leader + i) % 4)} {card_label(c)}" for i, c in enumerate(trick["cards"])]


# ------------------------------------------------------------------ the decision screen


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", ["syrian41", "tarneeb41_double"])
def test_decision_screen_has_the_tricks_bids_scores_target_and_partner(
    variant: str, language: str
) -> None:
    match = drive(
        engine.new_match(variant, seed=1),
        lambda m: any(m.scores) and mid_trick(m, 2, 2),  # a later deal: scores to show
    )
    view, text = decision(variant, language, match)
    seat = view["seat"]
    # The trick so far, in play order.
    on_table = line_of(text, plain(t(language, "trick_line", plays="")))
    assert on_table.endswith(
        " · ".join(f"{name(p['seat'])} {card_label(p['card'])}" for p in view["trick"])
    )
    # The last completed trick: its four cards and its winner (the deal's last trick).
    last = view["deal_tricks"][-1]
    last_line = line_of(
        text, plain(t(language, "last_trick_line", plays="", winner="")).split(":")[0]
    )
    assert " · ".join(played(last)) in last_line
    assert last_line.endswith(name(last["winner"]))
    # Every seat's bid and tricks.
    for other in range(4):
        line = seat_line(text, other)
        assert plain(t(language, "bid_value", bid=view["bids"][other])) in line
        assert plain(t(language, "tricks_value", tricks=view["tricks_won"][other])) in line
        score = plain(number(language, view["scores"][other]))
        assert plain(t(language, "score_value", score=score)) in line
    assert plain(t(language, "you_mark")) in seat_line(text, seat)
    # The team scores and the target (T41.9).
    a, b = view["team_scores"]
    assert (a, b) != (0, 0)
    standing = t(
        language,
        "team_scores",
        team_a=t(language, "team_a"),
        team_b=t(language, "team_b"),
        a=number(language, a),
        b=number(language, b),
        target=PARTNERSHIP_PARAMS[variant].target,
    )
    assert plain(standing) in text
    # The partner sits opposite (T41.1).
    partner_line = plain(
        t(
            language,
            "partner_line",
            team=t(language, "team_a" if seat % 2 == 0 else "team_b"),
            partner=name((seat + 2) % 4),
        )
    )
    assert partner_line in text.splitlines()


def test_decision_screen_while_bidding_shows_each_bid_and_the_needed_total() -> None:
    match = engine.new_match("syrian41", seed=1, options={"first_dealer": 0})
    match.apply(1, {"type": "bid", "value": 3})
    match.apply(2, {"type": "bid", "value": 4})
    _, text = decision("syrian41", "en", match)
    assert "bid 3" in seat_line(text, 1) and "bid 4" in seat_line(text, 2)
    assert "bid —" in seat_line(text, 3) and "bid —" in seat_line(text, 0)
    assert "Bids so far total 7 (the deal needs 11)" in text  # T41.6


def test_solo_decision_screen_has_the_contract_tricks_scores_and_target() -> None:
    match = drive(engine.new_match("tarneeb_solo", seed=4), lambda m: mid_trick(m, 3, 1))
    view, text = decision("tarneeb_solo", "en", match)
    declarer = view["declarer"]
    assert f"Declarer: {name(declarer)} · bid {view['contract_bid']}" in text  # TS.6
    for other in range(4):
        line = seat_line(text, other)
        assert f"tricks {view['tricks_won'][other]}" in line
        assert f"score {view['scores'][other]}" in line
    assert f"First to {TARNEEB_SOLO.default_target} wins" in text
    assert "partner" not in text  # TS.1: each for themselves
    assert "Last trick:" in text and "On the table:" in text


def test_trix_decision_screens_have_doubles_deal_points_and_the_rows() -> None:
    match = engine.new_match("trix_complex", seed=10)
    drive(match, lambda m: mid_trick(m, 2, 1))
    view, text = decision("trix_complex", "en", match)
    assert "Kingdom 1 of 4" in text and "Complex" in text
    assert view["doubled"] and "Doubled: " in text  # TX.7: revealed, with ×2 marks
    assert all(f"{card_label(d['card'])}×2" in text for d in view["doubled"])
    for other in range(4):
        points = plain(signed("en", view["deal_points"][other]))
        assert f"this deal {points}" in seat_line(text, other)
    assert "Last trick:" in text
    drive(match, lambda m: m.view(None)["contract"] == "trix" and m.phase == "playing")
    drive(match, lambda m: sum(m.view(None)["hand_sizes"]) <= 40)
    view, text = decision("trix_complex", "en", match)
    assert "Rows:" in text
    for letter in "SHDC":
        assert rows_strip(view["rows"][letter]) in text  # TX.9, drawn as on the table
    assert f"cards {view['hand_sizes'][0]}" in seat_line(text, 0)
    assert f"Team A: {plain(number('en', view['team_scores'][0]))}" in text
    assert f"deal {view['deal_number']} of 8" in text  # TX.3: how far the match has gone


def test_decision_screen_fits_a_phone() -> None:
    """About 14 short lines besides the hand (15 with a hint such as a forced pass), in
    every variant and phase met."""
    for variant in VARIANTS:
        match = engine.new_match(variant, seed=3)
        for _ in range(400):
            if match.result is not None:
                break
            seat = match.to_act[0]
            view = match.view(seat)
            text = hand_screen(table(variant, "en"), view).text
            hand = len({code[1] for code in view["hand"]}) or 1
            lines = [line for line in text.splitlines() if line.strip()]
            assert len(lines) - hand <= 15, text
            step(match)


# ------------------------------------------------------------------ the waiting screen


def waiting_texts(match: engine.Match, info: TableInfo) -> dict[int, str]:
    return {
        seat: hand_screen(info, match.view(seat)).text
        for seat in range(4)
        if not match.view(seat)["legal_actions"]
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_waiting_screen_is_identical_before_and_after_another_seat_moves(language: str) -> None:
    """Syrian 41, a whole match's worth of moves: every seat that neither moved nor is
    to act keeps exactly the same text (bids and cards alike)."""
    match = engine.new_match("syrian41", seed=1)
    info = table("syrian41", language)
    compared = 0
    while match.result is None and match.deal_number <= 3:
        deal = match.deal_number
        before = waiting_texts(match, info)
        mover = match.to_act[0]
        step(match)
        if match.deal_number != deal:
            continue  # a new deal: new cards
        after = waiting_texts(match, info)
        for seat in set(before) & set(after) - {mover}:
            assert after[seat] == before[seat], f"seat {seat} changed"
            compared += 1
    assert compared > 200


@pytest.mark.parametrize("variant", VARIANTS)
def test_waiting_screen_does_not_change_during_card_play(variant: str) -> None:
    match = drive(engine.new_match(variant, seed=2), lambda m: m.phase == "playing")
    info = table(variant, "en")
    deal, compared = match.deal_number, 0
    while match.phase == "playing" and match.deal_number == deal:
        before = waiting_texts(match, info)
        mover = match.to_act[0]
        step(match)
        if match.phase != "playing" or match.deal_number != deal:
            break
        after = waiting_texts(match, info)
        for seat in set(before) & set(after) - {mover}:
            assert after[seat] == before[seat]
            compared += 1
    assert compared > 10


@pytest.mark.parametrize("language", LANGUAGES)
def test_waiting_screen_shows_title_trump_partner_hand_and_the_waiting_line(
    language: str,
) -> None:
    match = drive(engine.new_match("syrian41", seed=1), lambda m: mid_trick(m, 2, 2))
    seat = next(s for s in range(4) if s not in match.to_act)
    view = match.view(seat)
    screen = hand_screen(table("syrian41", language, deadline=NOW + 30), view)
    text = plain(screen.text)
    assert screen.rows == ()
    assert text.startswith(
        plain(
            t(
                language,
                "hand_title",
                variant=variant_name(language, "syrian41"),
                deal=view["deal_number"],
            )
        )
    )
    assert (
        plain(t(language, "shown_line", card=card_label(view["shown_card"]), suit="♦"))[:5] in text
    )
    assert name((seat + 2) % 4) in text  # the partner
    assert text.endswith(plain(t(language, "waiting_line")))
    # Nothing live: no trick, no other seat's bid or tricks, no score, no countdown.
    assert plain(t(language, "trick_line", plays="")).strip() not in text
    assert plain(t(language, "last_trick_line", plays="", winner="")).split(":")[0] not in text
    for other in (s for s in range(4) if s not in (seat, (seat + 2) % 4)):
        assert name(other) not in text
    assert plain(t(language, "score_value", score="")).strip() not in text
    assert not COUNTDOWN.search(text)
    assert plain(t(language, "your_bid", bid=view["bids"][seat])) in text  # its own, fixed


def test_waiting_screen_in_the_doubling_window_shows_the_answer_only() -> None:
    """TX.7: after answering, the answer and that the others' answers are awaited; no
    countdown, no button."""
    match = drive(engine.new_match("trix_complex", seed=10), lambda m: m.phase == "doubling")
    seat = match.to_act[0]
    doublable = max((a["cards"] for a in match.view(seat)["legal_actions"]), key=len)
    match.apply(seat, {"type": "double", "cards": [doublable[0]]})
    screen = hand_screen(table("trix_complex", "en", deadline=NOW + 30), match.view(seat))
    text = plain(screen.text)
    assert f"Your answer: {card_label(doublable[0])}" in text
    assert t("en", "doubles_awaited") in text
    assert t("en", "waiting_line") in text
    assert screen.rows == () and not COUNTDOWN.search(text)


def test_waiting_screen_never_carries_the_timer() -> None:
    match = drive(engine.new_match("syrian41", seed=1), lambda m: mid_trick(m, 1, 1))
    seat = next(s for s in range(4) if s not in match.to_act)
    text = hand_screen(table("syrian41", "en"), match.view(seat), timer=marked).text
    assert "⏰" not in text


# ------------------------------------------------------------------ deadlines


def marked(language: str, deadline: float) -> str:
    return f"⏰<{language}:{int(deadline)}>"


def test_no_countdown_on_the_turn_line_with_no_timer() -> None:
    info = table("syrian41", "en", deadline=NOW + 45)
    match = drive(engine.new_match("syrian41", seed=1), lambda m: mid_trick(m, 1, 1))
    for screen in (table_screen(info, match.view(None), timer=no_timer),):
        turn = plain(screen.text).splitlines()[-1]
        assert turn == f"▶ {name(match.to_act[0])} to play"
        assert not COUNTDOWN.search(screen.text) and "left" not in screen.text
    private = hand_screen(info, match.view(match.to_act[0])).text
    assert plain(private).splitlines()[-1] == "▶ Your turn: play."
    assert no_timer("en", NOW) == ""


def test_the_doubling_line_has_no_countdown_either() -> None:
    match = drive(engine.new_match("trix_complex", seed=10), lambda m: m.phase == "doubling")
    info = table("trix_complex", "en", deadline=NOW + 45)
    text = table_screen(info, match.view(None)).text
    assert "▶ Waiting for the doubling answers" in text.splitlines()
    assert not COUNTDOWN.search(text)
    timed = table_screen(info, match.view(None), timer=marked).text
    assert f"▶ Waiting for the doubling answers ⏰<en:{int(NOW + 45)}>" in timed.splitlines()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_custom_timer_style_follows_the_turn_lines(language: str) -> None:
    info = table("syrian41", language, deadline=NOW + 45)
    match = drive(engine.new_match("syrian41", seed=1), lambda m: mid_trick(m, 1, 1))
    mark = marked(language, NOW + 45)
    public = table_screen(info, match.view(None), timer=marked).text
    assert plain(public).splitlines()[-1].endswith(f" {mark}")
    private = hand_screen(info, match.view(match.to_act[0]), timer=marked).text
    assert plain(private).splitlines()[-1].endswith(f" {mark}")


def test_no_deadline_no_timer_text() -> None:
    calls: list[float] = []

    def style(language: str, deadline: float) -> str:
        calls.append(deadline)
        return "never"

    timer: TimerStyle = style
    match = drive(engine.new_match("syrian41", seed=1), lambda m: mid_trick(m, 1, 1))
    text = table_screen(table("syrian41", "en", deadline=None), match.view(None), timer=timer).text
    assert "never" not in text and calls == []


# ------------------------------------------------------------------ tricks in the group


def played_match(tricks: int) -> engine.Match:
    return drive(engine.new_match("syrian41", seed=1), lambda m: mid_trick(m, tricks, 1))


def test_recent_tricks_are_drawn_oldest_first_one_line_each_with_their_numbers() -> None:
    match = played_match(4)
    view = match.view(None)
    recent = view["deal_tricks"][1:4]
    text = plain(table_screen(table("syrian41", "en"), view, recent_tricks=recent).text)
    lines = [line for line in text.splitlines() if line.startswith("Trick ")]
    assert lines == [
        f"Trick {n}: {' · '.join(played(trick))} → {name(trick['winner'])}"
        for n, trick in zip((2, 3, 4), recent, strict=True)
    ]
    assert "Last trick:" not in text
    # Chronological: the completed tricks, then the trick in play, then the turn.
    assert text.index(lines[-1]) < text.index("On the table:") < text.rindex("▶ ")


def test_one_recent_trick_is_the_last_trick() -> None:
    match = played_match(2)
    view = match.view(None)
    last = view["deal_tricks"][-1]
    text = plain(table_screen(table("syrian41", "en"), view, recent_tricks=[last]).text)
    assert f"Last trick: {' · '.join(played(last))} → {name(last['winner'])}" in text


def test_without_recent_tricks_the_table_shows_the_views_last_trick() -> None:
    match = played_match(3)
    view = match.view(None)
    last = view["deal_tricks"][-1]
    for recent in (None, []):
        text = plain(table_screen(table("syrian41", "en"), view, recent_tricks=recent).text)
        assert f"Last trick: {' · '.join(played(last))} → {name(last['winner'])}" in text
        assert "Trick " not in text


def final_tricks(variant: str, seed: int, count: int) -> tuple[View, list[View]]:
    """A deal's ``hand_scored`` event and its last ``count`` tricks (as the presenter
    collects them from the ``trick_won`` events)."""
    match = engine.new_match(variant, seed=seed)
    done: list[View] = []
    while True:
        for event in step(match):
            if event["type"] == "trick_won":
                done.append(
                    {"leader": event["leader"], "winner": event["seat"], "cards": event["cards"]}
                )
            # a Trix contract has no tricks: wait for a deal with tricks
            if event["type"] == "hand_scored" and done:
                return event, done[-count:]
            if event["type"] == "deal":
                done = []


@pytest.mark.parametrize("variant", ["syrian41", "tarneeb_solo", "trix_complex"])
def test_deal_sheet_shows_the_final_tricks_above_the_scores(variant: str) -> None:
    event, tricks = final_tricks(variant, 5, 2)
    sheet = deal_sheet(table(variant, "en"), event, recent_tricks=tricks)
    assert sheet is not None
    text = plain(sheet.text)
    lines = text.splitlines()
    assert lines[1] == f"Trick 12: {' · '.join(played(tricks[0]))} → {name(tricks[0]['winner'])}"
    assert lines[2] == f"Trick 13: {' · '.join(played(tricks[1]))} → {name(tricks[1]['winner'])}"
    scores = next(i for i, line in enumerate(lines) if line.startswith(f"{name(0)}:"))
    assert scores > 2
    # Without the tricks the sheet is as before.
    bare = deal_sheet(table(variant, "en"), event)
    assert bare is not None and "Trick" not in bare.text
    assert bare.text == score_sheet(table(variant, "en"), event, event.get("team_scores")).text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", ["syrian41", "tarneeb41_double"])
def test_cancelled_sheet_lists_the_bids_their_total_and_the_minimum(
    variant: str, language: str
) -> None:
    """T41.6 / T41D.3: the three first bid the lowest and the dealer too: cancelled."""
    match = engine.new_match(variant, seed=1, options={"first_dealer": 0})
    params = PARTNERSHIP_PARAMS[variant]
    bids = {1: 2, 2: 3, 3: 2, 0: 2}
    events: list[View] = []
    for seat, bid in bids.items():
        events += match.apply(seat, {"type": "bid", "value": bid})
    (cancelled,) = [e for e in events if e["type"] == "deal_cancelled"]
    sheet = deal_sheet(table(variant, language), cancelled)
    assert sheet is not None and sheet.rows == ()
    text = plain(sheet.text)
    assert plain(t(language, "sheet_cancelled", deal=1, total=9, needed=params.min_total)) in text
    for seat, bid in bids.items():
        line = plain(
            t(language, "sheet_line", name=name(seat), details=t(language, "bid_value", bid=bid))
        )
        assert line in text.splitlines()
    assert text.splitlines()[-1] == plain(t(language, "sheet_redeal"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_trix_contract_sheet_shows_the_final_rows_tx_9(language: str) -> None:
    """The cards laid after the group's last table screen reach it in the sheet: the
    final layout, every laid card in its column (TX.9)."""
    match = engine.new_match("trix_complex", seed=3)
    while True:
        events = step(match)
        scored = [e for e in events if e["type"] == "hand_scored" and e["contract"] == "trix"]
        if scored:
            break
    (event,) = scored
    sheet = deal_sheet(table("trix_complex", language), event)
    assert sheet is not None
    text = plain(sheet.text)
    for letter, row in event["rows"].items():
        if row is not None:
            assert rows_strip(row) in text, (letter, text)
    # A Complex contract has no rows to show.
    complex_event, _ = final_tricks("trix_complex", 5, 1)
    bare = deal_sheet(table("trix_complex", language), complex_event)
    assert bare is not None and plain(t(language, "rows_title")) not in plain(bare.text)
