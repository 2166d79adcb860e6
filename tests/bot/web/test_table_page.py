"""The phone table in Chromium, played as a person plays it (issue 33): a whole deal played
by keyboard, every seat showing the latest state after every frame, every trick seen whole
with its winner before it goes, the hand's first touch raising a card, and an illegal card
saying why. A web table in this process (the real server, hub and manager on SQLite) with
one person and three computers, whose answers come folded together."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.tables import LiveTable
from bot.tables.pace import Pace
from tests.bot.support import until
from tests.bot.web.phases import Site, site
from tests.bot.web.support import logged
from tests.browser import Frames, chromium

# Quick, but every move still plays: a trick stays 50 ms, long enough to be seen whole.
QUICK = Pace(scale=0.05)

# Told by the page at every drawn version: what each seat shows; and every trick the felt
# held whole (four cards, the winner marked).
WATCH = """
(() => {
  window.sahraSeen = []; window.sahraTricks = []; let last = null;
  const chip = (box, name) => {
    const element = box.querySelector(".chip." + name);
    return !element || element.hidden ? null : element.textContent;
  };
  new MutationObserver(() => {
    const body = document.body;
    if (!body) return;
    const spots = [...document.querySelectorAll("#trick .played")];
    if (spots.length === 4 && spots.some((s) => s.classList.contains("winner"))) {
      const key = spots.map((s) => s.dataset.key).sort().join(" ");
      if (!window.sahraTricks.includes(key)) window.sahraTricks.push(key);
    }
    const version = body.dataset.version;
    if (version === undefined || version === last) return;
    last = version;
    window.sahraSeen.push({
      version: Number(version),
      focus: document.activeElement ? document.activeElement.tagName : "",
      seats: [...document.querySelectorAll(".seat")].map((box) => ({
        seat: Number(box.dataset.seat), name: box.getAttribute("aria-label"),
        current: box.getAttribute("aria-current") === "true",
        bid: chip(box, "bid"), tricks: chip(box, "tricks"), cards: chip(box, "cards"),
      })),
    });
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""


@dataclass
class Table:
    site: Site
    table: LiveTable

    def url(self) -> str:
        return self.site.url(self.table, "en")


@asynccontextmanager
async def served(folder: Path, pace: Pace = QUICK) -> AsyncIterator[Table]:
    """A running Syrian 41 table of the person and three computers, served in this process."""
    async with site(folder, pace) as served_site:
        yield Table(served_site, await served_site.table("syrian41", "en"))


def tricks_after(database: Path, table_id: int, version: int) -> set[str]:
    """Every trick completed after ``version``, as its four cards, from the match log."""
    match, moves = logged(database, table_id)
    won = set()
    for move in moves:
        for event in match.apply(move.seat, move.action):
            if event["type"] == "trick_won" and move.seq > version:
                won.add(" ".join(sorted(event["cards"])))
    return won


def scored(table: LiveTable) -> int:
    """Deals played to their end (a deal cancelled by T41.6 is not)."""
    if table.match is None:
        return 0
    return sum(not deal.get("cancelled") for deal in table.match.view(None)["history"])


def shown_number(text: str | None) -> int | None:
    if text is None:
        return None
    found = re.findall(r"-?\d+", text.replace("−", "-"))
    return int(found[-1]) if found else None


def offered(state: dict[str, Any]) -> tuple[str, str] | None:
    """The person's move: a bid of 3 where offered, else the first decision; else the first
    legal card (by its name in words)."""
    decisions = state.get("decisions") or []
    if decisions:
        three = [d for d in decisions if d["action"] == {"type": "bid", "value": 3}]
        return "decision", (three or decisions)[0]["name"]
    legal = [card for card in state.get("hand") or [] if card["legal"]]
    return ("card", legal[0]["name"]) if legal else None


async def drawn(page: Any) -> int:
    """The version of the state the page has drawn (-1: none yet)."""
    return int(await page.evaluate("Number(document.body.dataset.version ?? -1)"))


async def drawn_after(page: Any, version: int) -> bool:
    return await drawn(page) > version


async def test_a_whole_deal_by_keyboard_every_seat_true_to_its_frame_every_trick_seen_whole(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as site, chromium() as browser:
        context = await browser.new_context(viewport={"width": 360, "height": 640})
        page = await context.new_page()
        frames = Frames()
        frames.attach(page)
        await page.add_init_script(WATCH)
        await page.goto(site.url())
        await until(lambda: drawn_after(page, -1), "the table drawn")
        table, keys = site.table, 0
        while scored(table) < 1 and table.status == "running":
            states = frames.states()
            at = await drawn(page)
            state = next((s for s in reversed(states) if s["version"] == at), None)
            move = offered(state) if state and at == states[-1]["version"] else None
            if move is None:
                await until(lambda a=at: drawn_after(page, a), "the next state drawn")
                continue
            button = page.get_by_role("button", name=move[1], exact=True).first
            await button.focus()  # as Tab would: the card or the bid, then Enter
            await page.keyboard.press("Enter")
            keys += 1
            await until(lambda a=at: drawn_after(page, a), "the move answered")
        last = frames.states()[-1]["version"]
        await until(lambda: drawn_after(page, last - 1), "the page caught up")
        assert keys >= 14  # a whole deal: its bid and thirteen cards
        seen = await page.evaluate("window.sahraSeen")
        by_version = {s["version"]: s for s in frames.states()}
        compared = 0
        for snapshot in seen:
            state = by_version.get(snapshot["version"])
            if state is None:
                continue
            compared += 1
            for shown in snapshot["seats"]:
                entry = state["seats"][shown["seat"]]
                assert shown["current"] == bool(entry["to_act"]), (snapshot["version"], shown)
                if entry["bid"] is None:
                    assert shown["bid"] is None, (snapshot["version"], shown)
                else:
                    assert shown["bid"].endswith(entry["bid"]), (snapshot["version"], shown)
                assert shown_number(shown["tricks"]) == entry["tricks"], (
                    snapshot["version"],
                    shown,
                )
                expected_cards = None if entry["you"] else entry["cards"]
                assert shown_number(shown["cards"]) == expected_cards, (snapshot["version"], shown)
        assert compared >= 20
        # Keyboard focus stays on a control from the first key on, never falls to the page.
        keyed = [snapshot["focus"] for snapshot in seen[1:]]
        assert keyed.count("BUTTON") >= len(keyed) - 1, keyed
        # Every trick completed while the page was open, the last of each deal too.
        tricks = set(await page.evaluate("window.sahraTricks"))
        first = frames.states()[0]["version"]
        won = tricks_after(tmp_path / "phases.sqlite", table.id, first)
        assert len(won) >= 13 and won <= tricks, sorted(won - tricks)
        assert frames.errors == []
        await context.close()


async def test_a_first_touch_raises_a_card_a_second_plays_it_and_an_illegal_one_says_why(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as site, chromium() as browser:
        context = await browser.new_context(
            viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
        )
        page = await context.new_page()
        frames = Frames()
        frames.attach(page)
        await page.goto(site.url())
        await until(lambda: drawn_after(page, -1), "the table drawn")
        while True:  # by keyboard until a card turn with a card that may not be played
            at = await drawn(page)
            states = frames.states()
            state = next((s for s in reversed(states) if s["version"] == at), None)
            if state and state["your_turn"] and any(card["why"] for card in state["hand"]):
                break
            move = offered(state) if state and at == states[-1]["version"] else None
            if move is None:
                await until(lambda a=at: drawn_after(page, a), "the next state drawn")
                continue
            await page.get_by_role("button", name=move[1], exact=True).first.focus()
            await page.keyboard.press("Enter")
            await until(lambda a=at: drawn_after(page, a), "the move answered")
        wrong = next(card for card in state["hand"] if card["why"])
        right = next(card for card in state["hand"] if card["legal"])
        strip = {"x": 6, "y": 12}
        illegal = page.get_by_role("button", name=wrong["name"], exact=True)
        assert await illegal.get_attribute("aria-disabled") == "true"
        await illegal.tap(position=strip, force=True)
        toast = page.locator("#toast")
        await until(toast.is_visible, "the reason shown")
        assert await toast.text_content() == wrong["why"]
        legal = page.get_by_role("button", name=right["name"], exact=True)
        await legal.tap(position=strip)
        await until(lambda: pressed(legal), "the card raised")
        assert await drawn(page) == at  # raised, not played
        await legal.tap(position={"x": 6, "y": 30})
        await until(lambda: drawn_after(page, at), "the raised card played")
        assert right["card"] not in [card["card"] for card in frames.states()[-1]["hand"]]
        await context.close()


async def pressed(button: Any) -> bool:
    return await button.get_attribute("aria-pressed") == "true"
