"""A finished deal replayed on the page, in Chromium (issue 35): opened from the deal's
result card, stepped through by keyboard from the hands as dealt to the result, each step
what the match log says, on one phone screen in both languages with nothing scrolling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.render.i18n import card_words
from bot.tables.reviews import deal_analysis
from engine.records import replay
from engine.review import review_deal
from tests.bot.support import until
from tests.bot.web.phases import finish_deal, reach, site
from tests.bot.web.support import logged
from tests.browser import chromium

SCREENS = [(360, 640), (320, 568)]
SHOWN = """() => {
  const replay = document.getElementById("replay");
  const name = (element) => element.getAttribute("aria-label");
  const off = (r) => r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5
    || r.top < -0.5 || r.left < -0.5;
  return {
    open: !replay.hidden,
    step: Number(replay.dataset.step ?? -1),
    kind: replay.dataset.kind || "",
    said: document.getElementById("replay-said").textContent,
    mark: document.getElementById("replay-mark").textContent,
    trick: [...replay.querySelectorAll(".replay-trick [role=img]")].map(name),
    hands: [...replay.querySelectorAll(".replay-hand")].map(name),
    steps: Number(document.getElementById("replay-slider").max) + 1,
    scrolls: document.scrollingElement.scrollHeight > innerHeight,
    outside: [...replay.querySelectorAll("button, input, .replay-hand, .replay-trick")]
      .filter((element) => off(element.getBoundingClientRect()))
      .map((element) => element.id || element.className),
  };
}"""


async def shown(page: Any) -> dict[str, Any]:
    """What the replay shows now: its step, what was said, the trick's cards, the
    diagram's hands (their accessible names: the cards still held, in words)."""
    found: dict[str, Any] = await page.evaluate(SHOWN)
    return found


@pytest.mark.parametrize("language", ["en", "ar"])
async def test_a_deal_is_reviewed_from_its_result_card_step_by_step(
    language: str, tmp_path: Path
) -> None:
    async with site(tmp_path, analyse=deal_analysis) as served, chromium() as browser:
        table = await reach(served, "result", language)
        width, height = SCREENS[0] if language == "en" else SCREENS[1]
        context = await browser.new_context(viewport={"width": width, "height": height})
        page = await context.new_page()
        await page.goto(served.url(table, language))
        await until(lambda: page.evaluate("document.body.dataset.version !== undefined"), "drawn")
        await finish_deal(served, table)
        review = page.locator("#panel-actions button").first
        await review.wait_for()
        assert "🔁" in (await review.text_content() or "")
        await review.click()
        await until(lambda: page.evaluate("!document.getElementById('replay').hidden"), "opened")
        first = await shown(page)
        assert first["step"] == 0 and first["kind"] == "dealt" and first["trick"] == []
        assert not first["scrolls"] and first["outside"] == [], first["outside"]

        _, moves = logged(tmp_path / "phases.sqlite", table.id)
        cards = [m.action["card"] for m in moves if m.action.get("type") == "play"]
        assert first["steps"] > len(cards) >= 52
        # Step by step with the arrow of reading order, to the result: every card of the
        # log in its turn, a trick shown whole on its last card.
        forward = "ArrowLeft" if language == "ar" else "ArrowRight"
        played: list[str] = []
        marked: list[bool] = []
        for step in range(1, first["steps"]):
            await page.keyboard.press(forward)
            now = await shown(page)
            assert now["step"] == step
            if now["kind"] == "play":
                played.append(now["trick"][-1] if now["trick"] else "")
                marked.append("−" in now["mark"])
                assert 1 <= len(now["trick"]) <= 4
        assert played == [card_words(language, code) for code in cards]
        # The double-dummy marks, card by card, as the engine's review of the logged deal.
        options = table.config.engine_options()
        plays = [(move.seat, move.action) for move in moves]
        record = replay("syrian41", options, table.seed, None, plays)
        review = review_deal("syrian41", [deal for deal in record.deals if deal.scored][-1])
        assert marked == [bool(card.cost) for card in review.cards]
        assert now["kind"] == "result" and not now["scrolls"]
        assert "double dummy" in now["mark"] or "المكشوفة" in now["mark"]  # each side's
        await page.keyboard.press("Home")
        assert (await shown(page))["step"] == 0
        await page.keyboard.press("Escape")
        await until(lambda: page.evaluate("document.getElementById('replay').hidden"), "closed")
        await context.close()
