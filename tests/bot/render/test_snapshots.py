"""Screen snapshots: every variant, every phase, Arabic and English.

Each position is reached deterministically — a fixed seed, the heuristic computer player
at every seat, and a few scripted actions — and each screen is compared exactly with
``snapshots/<scene>.<language>.txt`` (the text, a ``---buttons---`` line, then one line
per button row; ``[x]`` marks a disabled button). Direction marks are kept in the files.

After a deliberate change to a screen, rewrite the files and read the diff::

    SAHRA_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/bot/render/test_snapshots.py
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.render import (
    DOUBLE_PICK,
    Screen,
    SeatInfo,
    deal_sheet,
    hand_screen,
    lobby_screen,
    result_screen,
    score_sheet,
    table_screen,
)
from tests.bot.render.support import (
    HEURISTIC,
    LANGUAGES,
    SEATS,
    drive,
    finish,
    mid_trick,
    screen_text,
    step,
    table,
)

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("SAHRA_UPDATE_SNAPSHOTS") == "1"

View = dict[str, Any]
Scene = Callable[[str], Screen]

# Seeds picked so that the heuristic players reach every position below early on.
T41_SEED = 2  # deal 1 is cancelled (bids total under 11)
T41D_SEED = 0  # deal 1 has a bid of 7 (counts double, T41D.4)
SOLO_SEED = 4  # deal 1: declarer makes 7; deal 2: declarer fails 7 with 6
TRIX_SEED = 10  # deal 1 is Complex with three doubles; deal 3 is Trix with a forced pass
TRIX_DRAW_SEED = 52  # the team totals end equal: a draw (TX.11)


def clone(match: engine.Match) -> engine.Match:
    return engine.Match.from_json(match.to_json())


def first_entry(match: engine.Match, wanted: Callable[[View], bool]) -> View:
    drive(match, lambda m: any(wanted(e) for e in m.view(None)["history"]), limit=20_000)
    return next(e for e in match.view(None)["history"] if wanted(e))


# ------------------------------------------------------------------ positions per variant


@functools.cache
def tarneeb(variant: str, seed: int) -> dict[str, Any]:
    """Bidding, play and sheets of a partnership Tarneeb match."""
    out: dict[str, Any] = {}
    match = engine.new_match(variant, seed=seed)
    drive(match, lambda m: sum(b is not None for b in m.view(None)["bids"]) == 2)
    out["bidding"] = match.view(None), match.view(match.to_act[0])
    bid = next(s for s in range(4) if match.view(None)["bids"][s] is not None)
    out["bidding_waiting"] = match.view(bid)  # has bid: its own bid, no one else's
    out["cancelled"] = first_entry(clone(match), lambda e: e["cancelled"])
    drive(match, lambda m: mid_trick(m, 4, 2))
    out["playing"] = match.view(None), match.view(match.to_act[0])
    out["playing_waiting"] = match.view((match.to_act[0] + 1) % 4)
    out["sheet"] = first_entry(clone(match), lambda e: not e["cancelled"])
    out["deal_end"] = deal_end(clone(match))
    out["high"] = first_entry(clone(match), lambda e: not e["cancelled"] and max(e["bids"]) >= 7)
    out["high_teams"] = team_scores_after(out["high"])
    out["sheet_teams"] = team_scores_after(out["sheet"])
    if variant == "tarneeb41_double":
        # T41D.2: a bidder with 30 points or more is offered no 2 (and never a 6).
        no_two = clone(match)
        drive(
            no_two,
            lambda m: m.phase == "bidding" and m.scores[m.to_act[0]] >= 30,
            limit=20_000,
        )
        out["no_two"] = no_two.view(no_two.to_act[0])
    drive(match, lambda m: m.deal_number >= 6)
    out["stopped"] = match.view(None)  # stopped by an admin mid-match: no result
    finish(match)
    out["result"] = match.view(None)
    return out


def deal_end(match: engine.Match, tricks: int = 3) -> tuple[dict[str, Any], list[View]]:
    """The ``hand_scored`` event of the deal in play, and its last ``tricks`` tricks (as
    the presenter collects them from the ``trick_won`` events)."""
    done: list[View] = list(match.view(None)["deal_tricks"])
    while True:
        for event in step(match):
            if event["type"] == "trick_won":
                done.append(
                    {"leader": event["leader"], "winner": event["seat"], "cards": event["cards"]}
                )
            if event["type"] == "hand_scored":
                return event, done[-tricks:]


def team_scores_after(entry: View) -> list[int]:
    scores = entry["scores"]
    return [scores[0] + scores[2], scores[1] + scores[3]]


@functools.cache
def solo() -> dict[str, Any]:
    out: dict[str, Any] = {}
    match = engine.new_match("tarneeb_solo", seed=SOLO_SEED)
    forced = clone(match)
    for _ in range(3):  # TS.5: three passes, and the dealer must bid
        forced.apply(forced.to_act[0], {"type": "pass"})
    out["forced"] = forced.view(forced.to_act[0])
    bids = clone(match)
    bids.apply(bids.to_act[0], {"type": "bid", "value": 7})
    bids.apply(bids.to_act[0], {"type": "pass"})
    out["auction"] = bids.view(None), bids.view(bids.to_act[0])
    drive(match, lambda m: m.phase == "trump")
    out["trump"] = match.view(None), match.view(match.to_act[0])
    drive(match, lambda m: mid_trick(m, 3, 3))
    out["playing"] = match.view(None), match.view(match.to_act[0])
    out["playing_waiting"] = match.view((match.to_act[0] + 1) % 4)
    out["deal_end"] = deal_end(clone(match), 2)
    out["made"] = first_entry(clone(match), lambda e: e["made"])
    out["failed"] = first_entry(clone(match), lambda e: not e["made"])
    finish(match)
    out["result"] = match.view(None)
    return out


@functools.cache
def trix() -> dict[str, Any]:
    out: dict[str, Any] = {}
    match = engine.new_match("trix_complex", seed=TRIX_SEED)
    out["contract"] = match.view(None), match.view(match.to_act[0])
    drive(match, lambda m: m.phase == "doubling")
    holders = match.to_act  # seat 0 may double 2 cards, seat 2 three
    big = max(holders, key=lambda s: len(doublable(match.view(s))))
    out["doubling"] = match.view(None), match.view(big)
    outside = next(s for s in range(4) if s not in holders)  # holds no K♥ and no queen
    out["not_asked"] = match.view(outside)
    first = next(s for s in holders if s != big)
    step_seat(match, first)
    out["answered"] = match.view(None), match.view(first), match.view(big)
    drive(match, lambda m: mid_trick(m, 2, 2))
    out["complex"] = match.view(None), match.view(match.to_act[0])
    out["complex_waiting"] = match.view((match.to_act[0] + 1) % 4)
    out["complex_sheet"] = first_entry(clone(match), lambda e: e["contract"] == "complex")
    out["trix_sheet"] = first_entry(clone(match), lambda e: e["contract"] == "trix")

    def forced_pass(m: engine.Match) -> bool:
        view = m.view(None)
        return (
            view["contract"] == "trix"
            and m.phase == "playing"
            and bool(view["finished_order"])
            and m.legal_actions(m.to_act[0]) == [{"type": "pass"}]
        )

    drive(match, forced_pass)
    out["trix"] = match.view(None), match.view(match.to_act[0])
    out["trix_waiting"] = match.view((match.to_act[0] + 1) % 4)
    finish(match)
    out["result"] = match.view(None)
    draw = finish(engine.new_match("trix_complex", seed=TRIX_DRAW_SEED))
    assert draw.result == {"winners": [], "draw": True}
    out["draw"] = draw.view(None)
    return out


def doublable(view: View) -> list[str]:
    """The cards this seat may double (its largest doubling answer)."""
    return list(max((a["cards"] for a in view["legal_actions"]), key=len))


def step_seat(match: engine.Match, seat: int) -> None:
    match.apply(seat, HEURISTIC.decide(match.view(seat)))


# ------------------------------------------------------------------ scenes


def public(variant: str, views: Callable[[], Any], index: int = 0, **kw: Any) -> Scene:
    return lambda lang: table_screen(table(variant, lang, **kw), views()[index])


def private(variant: str, views: Callable[[], Any], index: int = 1) -> Scene:
    return lambda lang: hand_screen(table(variant, lang), views()[index])


def sheet(variant: str, entry: Callable[[], View], teams: Callable[[], Any]) -> Scene:
    return lambda lang: score_sheet(table(variant, lang), entry(), teams())


def waiting(variant: str, view: Callable[[], View]) -> Scene:
    return lambda lang: hand_screen(table(variant, lang), view())


def live_timer(language: str, deadline: float) -> str:
    """A platform's own live timestamp (Discord's ``<t:…:R>``) in place of a countdown."""
    return f"<t:{int(deadline)}:R>"


def recent(variant: str, views: Callable[[], Any], count: int) -> Scene:
    """The table with the last ``count`` tricks passed as the unseen ones."""

    def scene(lang: str) -> Screen:
        view = views()[0]
        return table_screen(
            table(variant, lang),
            view,
            timer=live_timer,
            recent_tricks=view["deal_tricks"][-count:],
        )

    return scene


def final_tricks(variant: str, end: Callable[[], Any]) -> Scene:
    def scene(lang: str) -> Screen:
        event, tricks = end()
        screen = deal_sheet(table(variant, lang), event, recent_tricks=tricks)
        assert screen is not None
        return screen

    return scene


def cancelled_event(variant: str, seed: int) -> Scene:
    """The sheet of a ``deal_cancelled`` event (the presenter's path): bids by seat."""

    def scene(lang: str) -> Screen:
        match = engine.new_match(variant, seed=seed)
        while True:
            for event in step(match):
                if event["type"] == "deal_cancelled":
                    screen = deal_sheet(table(variant, lang), event)
                    assert screen is not None
                    return screen

    return scene


def lobby(variant: str, seats: Any, **config: Any) -> Scene:
    return lambda lang: lobby_screen(table(variant, lang, seats=seats, status="lobby", **config))


LOBBY_SEATS = (
    SeatInfo("Ali"),
    None,
    SeatInfo("Badr", computer=True),
    SeatInfo("Dina", dm_pending=True),
)
AWAY_SEATS = (*SEATS[:3], SeatInfo("Dina", away=True))


def t41(key: str) -> Callable[[], Any]:
    return lambda: tarneeb("syrian41", T41_SEED)[key]


def t41d(key: str) -> Callable[[], Any]:
    return lambda: tarneeb("tarneeb41_double", T41D_SEED)[key]


def ts(key: str) -> Callable[[], Any]:
    return lambda: solo()[key]


def tx(key: str) -> Callable[[], Any]:
    return lambda: trix()[key]


def no_teams() -> None:
    return None


SCENES: dict[str, Scene] = {
    # lobbies: an empty seat, a computer, a player who still has to open a DM
    "lobby_syrian41": lobby("syrian41", LOBBY_SEATS),
    "lobby_tarneeb41_double": lobby("tarneeb41_double", LOBBY_SEATS),
    "lobby_tarneeb_solo": lobby("tarneeb_solo", LOBBY_SEATS),
    "lobby_trix_complex": lobby("trix_complex", LOBBY_SEATS),
    "lobby_full_solo": lobby("tarneeb_solo", SEATS, target=51, difficulty="hard"),
    # Syrian Tarneeb 41
    "t41_bidding_table": public("syrian41", t41("bidding")),
    "t41_bidding_hand": private("syrian41", t41("bidding")),
    "t41_playing_table": public("syrian41", t41("playing"), seats=AWAY_SEATS),
    "t41_playing_hand": private("syrian41", t41("playing")),
    "t41_bidding_waiting_hand": waiting("syrian41", t41("bidding_waiting")),
    "t41_playing_waiting_hand": waiting("syrian41", t41("playing_waiting")),
    "t41_playing_table_recent": recent("syrian41", t41("playing"), 3),
    "t41_deal_sheet_tricks": final_tricks("syrian41", t41("deal_end")),
    "t41_deal_sheet_cancelled": cancelled_event("syrian41", T41_SEED),
    "t41_sheet": sheet("syrian41", t41("sheet"), t41("sheet_teams")),
    "t41_sheet_cancelled": sheet("syrian41", t41("cancelled"), no_teams),
    "t41_sheet_high": sheet("syrian41", t41("high"), t41("high_teams")),  # no ×2 in T41
    "t41_result": lambda lang: result_screen(
        table("syrian41", lang, status="finished"), t41("result")()
    ),
    "t41_stopped": lambda lang: result_screen(
        table("syrian41", lang, status="stopped"), t41("stopped")()
    ),
    # Tarneeb 41 doubled
    "t41d_bidding_table": public("tarneeb41_double", t41d("bidding")),
    "t41d_bidding_hand": private("tarneeb41_double", t41d("bidding")),
    "t41d_bidding_no_two_hand": lambda lang: hand_screen(
        table("tarneeb41_double", lang), t41d("no_two")()
    ),
    "t41d_playing_table": public("tarneeb41_double", t41d("playing")),
    "t41d_playing_hand": private("tarneeb41_double", t41d("playing")),
    "t41d_sheet_double": sheet("tarneeb41_double", t41d("high"), t41d("high_teams")),
    "t41d_sheet_cancelled": sheet("tarneeb41_double", t41d("cancelled"), no_teams),
    "t41d_result": lambda lang: result_screen(
        table("tarneeb41_double", lang, status="finished"), t41d("result")()
    ),
    # Solo Tarneeb
    "solo_auction_table": public("tarneeb_solo", ts("auction")),
    "solo_auction_hand": private("tarneeb_solo", ts("auction")),
    "solo_forced_dealer_hand": lambda lang: hand_screen(
        table("tarneeb_solo", lang), ts("forced")()
    ),
    "solo_trump_table": public("tarneeb_solo", ts("trump")),
    "solo_trump_hand": private("tarneeb_solo", ts("trump")),
    "solo_playing_table": public("tarneeb_solo", ts("playing")),
    "solo_playing_hand": private("tarneeb_solo", ts("playing")),
    "solo_playing_waiting_hand": waiting("tarneeb_solo", ts("playing_waiting")),
    "solo_deal_sheet_tricks": final_tricks("tarneeb_solo", ts("deal_end")),
    "solo_sheet_made": sheet("tarneeb_solo", ts("made"), no_teams),
    "solo_sheet_failed": sheet("tarneeb_solo", ts("failed"), no_teams),
    "solo_result": lambda lang: result_screen(
        table("tarneeb_solo", lang, status="finished"), ts("result")()
    ),
    # Trix Complex Partnership
    "tx_contract_table": public("trix_complex", tx("contract")),
    "tx_contract_hand": private("trix_complex", tx("contract")),
    "tx_doubling_table": public("trix_complex", tx("doubling")),
    "tx_doubling_hand": private("trix_complex", tx("doubling")),
    "tx_doubling_hand_picked": lambda lang: hand_screen(
        table("trix_complex", lang),
        tx("doubling")()[1],
        (doublable(tx("doubling")()[1])[-1],),
    ),
    "tx_doubling_not_asked_hand": lambda lang: hand_screen(
        table("trix_complex", lang), tx("not_asked")()
    ),
    "tx_doubling_answered_table": public("trix_complex", tx("answered")),
    "tx_doubling_answered_hand": private("trix_complex", tx("answered")),
    "tx_complex_table": public("trix_complex", tx("complex")),
    "tx_complex_hand": private("trix_complex", tx("complex")),
    "tx_complex_waiting_hand": waiting("trix_complex", tx("complex_waiting")),
    "tx_complex_sheet": sheet(
        "trix_complex", tx("complex_sheet"), lambda: team_scores_after(tx("complex_sheet")())
    ),
    "tx_trix_table": public("trix_complex", tx("trix")),
    "tx_trix_pass_hand": private("trix_complex", tx("trix")),
    "tx_trix_waiting_hand": waiting("trix_complex", tx("trix_waiting")),
    "tx_trix_sheet": sheet(
        "trix_complex", tx("trix_sheet"), lambda: team_scores_after(tx("trix_sheet")())
    ),
    "tx_result": lambda lang: result_screen(
        table("trix_complex", lang, status="finished"), tx("result")()
    ),
    "tx_draw": lambda lang: result_screen(
        table("trix_complex", lang, status="finished"), tx("draw")()
    ),
}


def path_of(scene: str, language: str) -> Path:
    return SNAPSHOTS / f"{scene}.{language}.txt"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", sorted(SCENES))
def test_snapshot(scene: str, language: str) -> None:
    text = screen_text(SCENES[scene](language))
    path = path_of(scene, language)
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no snapshot {path.name}: run with SAHRA_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs"


def test_no_stale_snapshots() -> None:
    wanted = {path_of(scene, language).name for scene in SCENES for language in LANGUAGES}
    stale = sorted(p.name for p in SNAPSHOTS.glob("*.txt") if p.name not in wanted)
    if UPDATE:
        for name in stale:
            (SNAPSHOTS / name).unlink()
        return
    assert not stale, f"snapshots of no scene: {stale}"


def test_snapshots_stay_small() -> None:
    """They are committed: keep the whole set modest."""
    assert sum(p.stat().st_size for p in SNAPSHOTS.glob("*.txt")) < 150_000


def test_positions_are_the_intended_ones() -> None:
    """The seeds still lead where the scene names say (guards against engine or player
    changes silently moving a scene elsewhere)."""
    bidding_public, bidding_hand = tarneeb("syrian41", T41_SEED)["bidding"]
    assert bidding_public["phase"] == "bidding" and bidding_hand["legal_actions"]
    playing, _ = tarneeb("syrian41", T41_SEED)["playing"]
    assert playing["trick"] and playing["last_trick"]
    assert tarneeb("syrian41", T41_SEED)["cancelled"]["cancelled"]
    assert max(tarneeb("tarneeb41_double", T41D_SEED)["high"]["bids"]) >= 7
    no_two = tarneeb("tarneeb41_double", T41D_SEED)["no_two"]
    assert no_two["scores"][no_two["seat"]] >= 30
    assert solo()["made"]["made"] and not solo()["failed"]["made"]
    assert {"type": "pass"} in solo()["auction"][1]["legal_actions"]
    assert {"type": "pass"} not in solo()["forced"]["legal_actions"]
    doubling_public, doubling_hand = trix()["doubling"]
    assert doubling_public["doubling"] and len(doubling_hand["legal_actions"]) >= 4
    _, answered, pending = trix()["answered"]
    assert answered["my_answer"] is not None and pending["my_answer"] is None
    assert trix()["complex"][0]["doubled"]
    assert any(trix()["complex_sheet"]["doubles"])
    trix_public, trix_hand = trix()["trix"]
    assert trix_public["finished_order"] and trix_hand["legal_actions"] == [{"type": "pass"}]
    assert trix()["result"]["result"]["winners"]
    assert trix()["draw"]["result"]["draw"]


def test_doubling_toggle_marks_the_picked_card() -> None:
    view = trix()["doubling"][1]
    picked = doublable(view)[-1]
    screen = hand_screen(table("trix_complex", "en"), view, (picked,))
    toggles = [b for b in screen.buttons() if b.action["type"] == DOUBLE_PICK]
    assert [b.label.startswith("☑") for b in toggles] == [c == picked for c in doublable(view)]
    confirm = screen.rows[0][0]  # the confirm button comes first
    assert confirm.action == {"type": "double", "cards": [picked]}
