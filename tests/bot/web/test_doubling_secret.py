"""TX.7's doubling answers are secret, also in their timing: a seat's answer redraws only
that seat's page; the other seats and the watchers see nothing until the window closes
and every double is revealed together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import engine
from tests.bot.web.support import GROUP, Page, Site, player, site

HUMANS = [701, 702, 703, 704]
WATCHER = 799  # not seated: the public view


def shared_window() -> tuple[int, list[int]]:
    """A seed whose first Trix deal, played as Complex, asks at least two seats (so one
    answers while another is still to answer), and the seats it asks."""
    for seed in range(1, 500):
        match = engine.new_match("trix_complex", seed=seed)
        owner = match.to_act[0]
        match.apply(owner, {"type": "contract", "contract": "complex"})
        if match.phase == "doubling" and len(match.to_act) >= 2:
            return seed, sorted(match.to_act)
    raise AssertionError("no seed opens a shared doubling window")


class Watch:
    """One page's states, as read from its socket, in order."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.seen: list[dict[str, Any]] = []

    async def until(self, done: Any) -> dict[str, Any]:
        while True:
            state = await self.page.state()
            self.seen.append(state)
            if done(state):
                return state

    async def send(self, version: int, action: dict[str, Any]) -> None:
        await self.page.ws.send_json({"type": "move", "version": version, "action": action})


async def opened(run: Site, user: int, table: int) -> Watch:
    page = await run.open({"init_data": run.launch(user, table)})
    await page.until("welcome")
    return Watch(page)


NO_DOUBLE = {"type": "double", "cards": []}


async def test_a_secret_answer_redraws_only_the_page_of_the_seat_that_gave_it(
    tmp_path: Path,
) -> None:
    seed, asked = shared_window()
    async with site(tmp_path) as run:
        first, *others = HUMANS
        options = {"variant": "trix_complex"}
        table = await run.manager.create(GROUP, player(first, "P701"), options, seed=seed)
        for user in others:
            await run.manager.join(table.id, player(user, f"P{user}"))
        await run.manager.begin(table.id, str(first))
        seats = [await opened(run, user, table.id) for user in HUMANS]
        watcher = await opened(run, WATCHER, table.id)
        states = [await watch.until(lambda s: s["status"] == "running") for watch in seats]
        await watcher.until(lambda s: s["status"] == "running")
        owner = next(i for i, state in enumerate(states) if state["decisions"])
        version = states[owner]["version"]
        await seats[owner].send(version, {"type": "contract", "contract": "complex"})

        # The first asked seat answers: its own page is redrawn, at the window's version
        # plus its own answer.
        window = version + 1
        for watch in [*seats, watcher]:  # the window opens on every page
            await watch.until(lambda s: s["phase"] == "doubling")
        await seats[asked[0]].send(window, NO_DOUBLE)
        mine = await seats[asked[0]].until(lambda s: s["version"] == window + 1)
        assert mine["phase"] == "doubling" and not mine.get("doubling")
        for seat in asked[1:]:  # the others answer in turn: the last one closes the window
            await seats[seat].send(window, NO_DOUBLE)
        for watch in [*seats, watcher]:
            await watch.until(lambda s: s["phase"] == "playing")

        for index, watch in enumerate([*seats, watcher]):
            during = [s for s in watch.seen if s["phase"] == "doubling"]
            own = 1 if index in asked[:-1] else 0  # the last answer is the reveal itself
            # The window's opening, then the page's own answer: no state for another
            # seat's answer, and no version that counts the others' answers.
            assert [s["version"] for s in during] == [window] + [window + 1] * own, index
