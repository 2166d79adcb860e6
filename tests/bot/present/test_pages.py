"""Seats playing on the web table: the platform spends no per-move write on their hands,
and a group whose players are all on pages is written at a trick's end (or once a round of
Trix rows), a deal's result and a new deal, never per card or per bid, while every card
still reaches it (issue 26, item 8): 14 writes for a whole Syrian 41 deal, at Telegram's
pace as at Discord's."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.present.mailbox import Mailbox
from bot.render import Screen
from bot.render.common import plays
from tests.bot.present.support import GROUP, PACES, PLAYERS, Tee, running_table
from tests.bot.present.test_presenter import scored

EVERYONE = frozenset(range(4))


async def test_a_seat_on_a_page_gets_no_private_write_until_its_page_closes(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path, humans=4) as run:
        await run.outbox.flush()
        run.presenter.pages_changed(run.table, frozenset({0}))
        chat = PLAYERS[0].user_id
        before = len(run.recorder.to(chat))
        await run.play(scored(run))
        assert len(run.recorder.to(chat)) == before  # the page was the hand
        others = [len(run.recorder.to(p.user_id)) for p in PLAYERS[1:]]
        assert min(others) > before
        run.presenter.pages_changed(run.table, frozenset())
        await run.outbox.flush()
        written = run.recorder.to(chat)
        assert len(written) == before + 1  # brought up to date once
        assert written[-1].screen == run.presenter.hand(run.table, 0)


async def test_a_page_for_some_seats_leaves_the_group_written_per_move(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path, humans=4) as run:
        run.presenter.pages_changed(run.table, frozenset({0, 1, 2}))
        await run.play(scored(run))
        assert not run.presenter.all_on_pages(run.table)
        paged = len(run.recorder.to(GROUP))
    async with running_table(tmp_path / "plain", humans=4) as run:
        await run.play(scored(run))
        plain = len(run.recorder.to(GROUP))
    assert paged == plain


@pytest.mark.parametrize("variant", ["syrian41", "trix_complex"])
async def test_a_group_whose_players_are_all_on_pages_gets_a_write_per_round_and_every_card(
    tmp_path: Path, variant: str
) -> None:
    async with running_table(tmp_path / "plain", variant, humans=4) as run:
        await run.play(scored(run))
        plain = len(run.recorder.to(GROUP))
    async with running_table(tmp_path, variant, humans=4) as run:
        run.presenter.pages_changed(run.table, EVERYONE)
        assert run.presenter.all_on_pages(run.table)
        await run.play(scored(run))
        group = run.recorder.to(GROUP)
        info = run.presenter.info(run.table)
        played = [e for e in run.tee.events if e["type"] == "play"]
        private = run.recorder.private()
    texts = "\n".join(w.screen.text for w in group)
    assert len(played) >= 52
    assert [e for e in played if plays(info, [e]) not in texts] == []
    # A trick (or four moves) per write at most, the deal's start and result besides.
    assert len(group) <= len(played) // 4 + len(played) // 13 + 4
    assert len(group) < plain
    starts = 4  # the hands of the first deal, drawn before the pages opened
    assert len(private) <= starts


@dataclass
class Spy:
    """The presenter's mailbox, noting the commit behind every group write it queues."""

    outbox: Mailbox
    tee: Tee
    causes: list[set[str]] = field(default_factory=list)

    def post(self, chat: str, key: Hashable, screen: Screen, **options: Any) -> None:
        self._note(options)
        self.outbox.post(chat, key, screen, **options)

    def show(self, chat: str, key: Hashable, screen: Screen, **options: Any) -> None:
        self._note(options)
        self.outbox.show(chat, key, screen, **options)

    def message_id(self, chat: str, key: Hashable) -> str | None:
        return self.outbox.message_id(chat, key)

    def _note(self, options: dict[str, Any]) -> None:
        if options["group"]:
            self.causes.append({event["type"] for event in self.tee.last})


@pytest.mark.parametrize("pace", sorted(PACES))
async def test_all_on_pages_a_syrian41_deal_writes_the_group_at_trick_ends_result_next_deal(
    tmp_path: Path, pace: str
) -> None:
    async with running_table(tmp_path, humans=4, outbox_options=PACES[pace]) as run:
        run.presenter.pages_changed(run.table, EVERYONE)
        await run.play(scored(run, 1))  # the lobby and the first hands are not a deal's bill
        spy = Spy(run.presenter.outbox, run.tee)
        run.presenter.outbox = spy
        first, before = len(run.tee.events), len(run.recorder.writes)
        await run.play(scored(run, 2))
        events, writes = run.tee.events[first:], run.recorder.writes[before:]
        info = run.presenter.info(run.table)
    assert sum(e["type"] == "bid" for e in events) == 4
    assert sum(e["type"] == "trick_won" for e in events) == 13
    # The bids wait for the first trick's end; the last trick's end is the result.
    assert all(cause & {"trick_won", "hand_scored", "deal"} for cause in spy.causes)
    group = [w for w in writes if w.chat == GROUP]
    assert [w.kind for w in group] == ["edit"] * 12 + ["edit", "send"]  # 12 tricks, result, next
    assert len(writes) == len(group) == 14  # the hands are on the pages: no private write
    texts = "\n".join(w.screen.text for w in group)
    assert [e for e in events if e["type"] == "play" and plays(info, [e]) not in texts] == []
