"""The presenter's decisions, proved on whole deals in virtual time: a steady group
cadence, every card shown in the group, results before the next deal, only the screens
that matter written, one live hand per player, secrecy of TX.7's window, redeals said."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from bot.present.mailbox import TABLE
from bot.render.common import plays
from bot.tables import LiveTable, Press, Refusal
from tests.bot.present.support import GROUP, PLAYERS, running_table


def deal_over(number: int) -> Any:
    def done(table: LiveTable) -> bool:
        return table.match is not None and table.match.deal_number > number

    return done


def scored(run: Any, number: int = 1) -> Any:
    """Until ``number`` deals were played out and scored (a redeal does not count)."""

    def done(table: LiveTable) -> bool:
        return bool(sum(e["type"] == "hand_scored" for e in run.tee.events) >= number)

    return done


def windows(times: list[float], span: float) -> int:
    """The most writes in any ``span`` seconds."""
    best = start = 0
    for end, at in enumerate(times):
        while times[start] <= at - span:
            start += 1
        best = max(best, end - start + 1)
    return best


async def test_the_group_is_written_at_a_steady_pace_never_twenty_a_minute(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path, humans=4) as run:
        await run.play(deal_over(2))
        times = [w.at for w in run.recorder.to(GROUP)]
    assert len(times) > 10
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= 3.5 - 1e-9  # one write every 3.5 s at most
    assert windows(times, 60.0) < 20  # headroom under Telegram's 20 a minute


@pytest.mark.parametrize("variant", ["syrian41", "tarneeb41_double", "tarneeb_solo"])
@pytest.mark.parametrize("humans", [1, 4])
async def test_every_played_card_appears_in_the_group(
    tmp_path: Path, variant: str, humans: int
) -> None:
    async with running_table(tmp_path, variant, humans) as run:
        await run.play(scored(run))
        info = run.presenter.info(run.table)
        texts = "\n".join(w.screen.text for w in run.recorder.to(GROUP))
        played = [e for e in run.tee.events if e["type"] == "play"]
    assert len(played) >= 52
    missing = [e for e in played if plays(info, [e]) not in texts]
    assert missing == []


def laid(code: str, texts: str) -> bool:
    """A Trix contract's card as the group sees it: its rank in its column of its row
    (TX.9's strips run 2 … A)."""
    rank, letter = code[:-1], code[-1]
    slot = "23456789TJQKA".index(rank)
    shown = "10" if rank == "T" else rank
    symbol = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[letter]
    for line in texts.splitlines():
        parts = line.split()
        if len(parts) == 14 and parts[0] == symbol and parts[1 + slot] == shown:
            return True
    return False


@pytest.mark.parametrize("humans", [1, 4])
async def test_every_played_card_of_both_trix_contracts_appears_in_the_group(
    tmp_path: Path, humans: int
) -> None:
    """Complex tricks as trick lines; the Trix contract's cards in their rows (TX.9),
    the last ones in the deal's sheet."""
    async with running_table(tmp_path, "trix_complex", humans) as run:
        await run.play(scored(run, 2))
        info = run.presenter.info(run.table)
        texts = "\n".join(w.screen.text for w in run.recorder.to(GROUP))
        events = list(run.tee.events)
    contracts = [e["contract"] for e in events if e["type"] == "hand_scored"][:2]
    assert sorted(contracts) == ["complex", "trix"]
    played = [e for e in events if e["type"] == "play"]
    assert len(played) >= 52 + 40  # a Complex deal, then the Trix layout (TX.9, TX.10)
    missing = [e for e in played if plays(info, [e]) not in texts and not laid(e["card"], texts)]
    assert missing == []


async def test_a_deal_result_replaces_its_table_before_the_next_deal_is_posted(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path, humans=1) as run:
        await run.play(deal_over(1))
        group = run.recorder.to(GROUP)
    sends = [w for w in group if w.kind == "send"]
    first, second = sends[0].message, sends[1].message
    last_of_first = max(i for i, w in enumerate(group) if w.message == first)
    assert group[last_of_first].screen.buttons() == []  # the old copy has no live button
    assert last_of_first < group.index(sends[1])  # the result comes first
    assert second != first


async def test_after_a_move_only_the_mover_and_the_players_to_act_are_written(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path, humans=4) as run:
        await run.play(scored(run))
        moves = sum(1 for e in run.tee.events if e["type"] in ("bid", "play", "trump"))
        private = run.recorder.private()
        starts = sum(1 for e in run.tee.events if e["type"] in ("deal", "table_started"))
    # Two private screens per move at most (the mover's and the next player's), besides
    # the four new hands of each deal (benchmarks/delivery.py measures the whole bill).
    assert len(private) <= 2 * moves + 4 * starts


async def test_one_hand_message_per_player_edited_from_deal_to_deal(tmp_path: Path) -> None:
    async with running_table(tmp_path, humans=4) as run:
        await run.play(deal_over(2))
        for player in PLAYERS:
            sends = [w for w in run.recorder.to(player.user_id) if w.kind == "send"]
            assert len(sends) == 1


async def test_asking_for_the_hand_again_retires_the_old_copy(tmp_path: Path) -> None:
    async with running_table(tmp_path, humans=4) as run:
        await run.outbox.flush()
        seat = run.table.match.to_act[0]  # type: ignore[union-attr]
        chat = PLAYERS[seat].user_id
        old = run.outbox.message_id(chat, ("hand", run.table.id))
        assert run.presenter.show_hand(run.table, seat, new=True)
        await run.outbox.flush()
        writes = run.recorder.to(chat)
    new = writes[-2] if writes[-1].message == old else writes[-1]
    retired = [w for w in writes if w.message == old][-1]
    assert new.kind == "send" and new.message != old and new.screen.enabled()
    assert retired.kind == "edit" and retired.screen.buttons() == []


def choose_complex(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for action in legal:
        if action.get("contract") == "complex":
            return action
    return legal[0]


async def test_a_secret_doubling_answer_changes_no_group_screen(tmp_path: Path) -> None:
    """TX.7: answers stay hidden, so the group screen changes only when the window closes."""
    async with running_table(tmp_path, "trix_complex", humans=4) as run:

        def doubling(table: LiveTable) -> bool:
            return table.match is not None and table.match.phase == "doubling"

        await run.play(doubling, choose_complex)
        table = run.table
        assert table.match is not None and table.match.phase == "doubling"
        before = len(run.recorder.to(GROUP))
        asked = list(table.match.to_act)
        seat = asked[0]
        await run.manager.press(
            Press(
                table_id=table.id,
                version=table.seq,
                action={"type": "double", "cards": []},
                player=PLAYERS[seat],
            )
        )
        await run.outbox.flush()
        writes = run.recorder.writes[-5:]
        assert len(run.recorder.to(GROUP)) == before
        # Nor did anyone else's private screen move: only the one who answered.
        assert {w.chat for w in writes if w.at >= run.time()} <= {PLAYERS[seat].user_id}


async def test_a_doubling_toggle_is_checked_once_for_every_frontend(tmp_path: Path) -> None:
    """TX.7's marks are the presenter's: a seat may mark only cards it may double, only in
    its own window; a refused mark changes nothing."""
    async with running_table(tmp_path, "trix_complex", humans=4) as run:

        def doubling(table: LiveTable) -> bool:
            return table.match is not None and table.match.phase == "doubling"

        table = run.table
        user = PLAYERS[0].user_id
        with pytest.raises(Refusal) as early:
            run.presenter.pick(table, user, [])
        assert early.value.code == "stale"  # no window open yet
        await run.play(doubling, choose_complex)
        match = table.match
        assert match is not None
        seat = sorted(match.to_act)[0]
        user = PLAYERS[seat].user_id
        doublable = max((a["cards"] for a in match.legal_actions(seat)), key=len)
        assert doublable, "the window asks only seats holding a doublable card"
        assert run.presenter.pick(table, user, doublable[:1]) == seat
        assert run.presenter.picked[(table.id, seat)] == tuple(doublable[:1])
        held = match.view(seat)["hand"]
        other = next(code for code in held if code not in doublable)
        for cards, code in (([other], "illegal"), (["ZZ"], "illegal")):
            with pytest.raises(Refusal) as refused:
                run.presenter.pick(table, user, cards)
            assert refused.value.code == code
        with pytest.raises(Refusal) as stranger:
            run.presenter.pick(table, "nobody", doublable[:1])
        assert stranger.value.code == "not_seated"
        assert run.presenter.picked[(table.id, seat)] == tuple(doublable[:1])  # unchanged


async def test_a_redealt_deal_says_so_in_the_group(tmp_path: Path) -> None:
    async with running_table(tmp_path, humans=4) as run:

        def two(legal: list[dict[str, Any]]) -> dict[str, Any]:
            return (
                {"type": "bid", "value": 2} if {"type": "bid", "value": 2} in legal else legal[0]
            )

        await run.play(deal_over(1), two)
        cancelled = [e for e in run.tee.events if e["type"] == "deal_cancelled"]
        texts = [w.screen.text for w in run.recorder.to(GROUP)]
    assert cancelled, "every seat bid 2: under T41.6's minimum"
    sheet = next(text for text in texts if "11" in text and "8" in text)
    assert sheet.count("2") >= 4  # each seat's bid of 2


async def test_group_edits_wait_for_the_cadence_and_carry_the_newest_state(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path, humans=1) as run:
        await run.play(deal_over(1))
        last = run.recorder.to(GROUP)[-1]
        assert last.screen.text == run.presenter.group_screen(run.table).text
        assert run.outbox.message_id(GROUP, ("table", run.table.id, 2)) == last.message
        assert TABLE == 1
