"""The fit (issue 33, items 1 and 10): the phone table is one screen that never scrolls, at
the sizes Telegram gives a Mini App and on a tablet and a desktop, in Arabic and English, in
every phase a person meets (``tests/bot/web/phases.py``): all four seats, the trick or Trix's
rows, the whole hand, the decision controls, trump or the contract, the scores, and a deal's
result or the match's end with their buttons are inside the viewport at once; every card
of the hand takes a tap on the strip of it that shows, and shows its whole index there;
every control offered takes a tap; Arabic reads right to left with the seats in their
physical places.

A test per phase: an in-process web table with a table at that phase in each language (its
page opens in the table's language) and one Chromium; each page is resized through the six
viewports and looked at once its layout has settled (``#app`` the viewport's size and the
felt's boxes unchanged from one frame to the next, never a fixed sleep). Each check below is
one of the facts, named for it; a test lists every failure of every check: the check, the
viewport, the language, the phase, the element and its box. (A test per phase, not one
module fixture shared by tests per fact: the phases run side by side on the suite's
workers, and no group mark is needed to keep a shared fixture on one worker.)"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.bot.web.phases import DRAWN, PHASES, Site, finish_deal, reach, site
from tests.browser import chromium

# Telegram's Mini App sizes (a phone, its compact height, a tall phone, the smallest
# phone), a tablet and a desktop.
VIEWPORTS = ((360, 640), (390, 664), (390, 844), (320, 568), (768, 1024), (1280, 800))
LANGUAGES = ("ar", "en")
SLACK = 1.0  # px: a box may pass the viewport's edge by subpixel rounding, no more

# Once the page has the viewport's size: true when the felt's boxes and the sizes
# layout.js gave them are the same as at the previous frame.
SETTLED = """
([width, height]) => {
  const app = document.getElementById("app");
  if (innerWidth !== width || innerHeight !== height) return false;
  if (app.clientWidth !== width || app.clientHeight !== height) return false;
  const parts = ["bar", "felt", "middle", "hand", "cards", "panel"].map((id) => {
    const box = document.getElementById(id).getBoundingClientRect();
    return [box.left, box.top, box.width, box.height];
  });
  const now = JSON.stringify([app.style.cssText, app.dataset.size, parts]);
  const same = window.sahraFitLast === now;
  window.sahraFitLast = now;
  return same;
}
"""

# Everything the fit is judged by, measured at once: the document's scroll sizes; every
# needed element shown, with its box and the part of it no ancestor clips away; the hand's
# cards and what a tap on each one's visible strip lands on; the seats' places.
MEASURE = """
() => {
  const round = (value) => Math.round(value * 10) / 10;
  const rect = (box) => [round(box.left), round(box.top), round(box.right), round(box.bottom)];
  // Drawn, not hidden by the page, and not made invisible (a card played from the hand
  // fades before it is gone).
  const shown = (element) => {
    if (element === null || element.closest("[hidden]") !== null) return false;
    if (element.getClientRects().length === 0) return false;
    const style = getComputedStyle(element);
    return style.visibility !== "hidden" && style.opacity !== "0";
  };
  // The box of an element once every ancestor that clips (overflow other than visible)
  // has cut it: what of it can be seen, before the viewport's own edge.
  const visible = (element) => {
    let [left, top, right, bottom] = rect(element.getBoundingClientRect());
    for (let up = element.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const box = up.getBoundingClientRect();
      left = Math.max(left, box.left); top = Math.max(top, box.top);
      right = Math.min(right, box.right); bottom = Math.min(bottom, box.bottom);
    }
    return [round(left), round(top), round(right), round(bottom)];
  };
  const label = (element) =>
    (element.getAttribute("aria-label") || element.textContent || "").trim().slice(0, 24);
  // What a tap landed on, for a failure's message.
  const landed = (hit) => {
    if (hit === null) return "nothing";
    if (hit.id) return `#${hit.id}`;
    const owner = hit.closest("[id]");
    const name = hit.tagName.toLowerCase() + (hit.classList.length ? `.${hit.classList[0]}` : "");
    return owner ? `${name} in #${owner.id}` : name;
  };
  const needed = [];
  const need = (name, element) => {
    if (shown(element)) {
      needed.push({name, box: rect(element.getBoundingClientRect()), seen: visible(element)});
    }
  };
  const all = (selector) => [...document.querySelectorAll(selector)];
  for (const seat of all(".seat[data-place]")) need(`seat ${seat.dataset.place}`, seat);
  need("#trick", document.getElementById("trick"));
  all("#trick .played .card").forEach((card) => need(`#trick card ${label(card)}`, card));
  need("#rows", document.getElementById("rows"));
  all("#rows .card").forEach((card) => need(`#rows card ${label(card)}`, card));
  for (const id of ["decisions", "doubling", "commands"]) {
    all(`#${id} button`).forEach((button) => need(`#${id} button "${label(button)}"`, button));
  }
  need("#badge", document.getElementById("badge"));
  need("#bidding", document.getElementById("bidding"));
  need("#scores", document.getElementById("scores"));
  all("#scores li").forEach((item) => need(`#scores li "${label(item)}"`, item));
  const overlay = document.getElementById("overlay");
  const panel = overlay.hidden ? null : document.getElementById("panel");
  if (panel) {
    need(`#panel[data-kind=${panel.dataset.kind}]`, panel);
    need("#panel-title", document.getElementById("panel-title"));
    for (const part of all("#panel-body > *")) {
      need(`#panel-body ${part.tagName.toLowerCase()}`, part);
    }
    for (const button of all("#panel-actions button")) {
      need(`#panel button "${label(button)}"`, button);
    }
  }
  const cards = all("#cards .card").filter(shown);
  const hand = cards.map((card, index) => {
    const box = card.getBoundingClientRect();
    const last = index === cards.length - 1;
    const x = last ? box.left + box.width / 2 : box.left + 6;
    const y = last ? box.top + box.height / 2 : box.top + 12;
    const hit = document.elementFromPoint(x, y);
    const next = last ? null : cards[index + 1].getBoundingClientRect();
    return {
      name: `#cards card ${index + 1}/${cards.length} ${label(card)}`,
      box: rect(box),
      seen: visible(card),
      point: [round(x), round(y)],
      hit: hit !== null && card.contains(hit),
      landed: landed(hit),
      strip: round(last ? box.width : next.left - box.left),
      // The card's index (rank and suit) and how much of its width the next card leaves.
      index: rect(card.querySelector(".index").getBoundingClientRect()),
      shows: round((last ? box.right : next.left) - box.left),
    };
  });
  needed.push(...hand.map(({name, box, seen}) => ({name, box, seen})));
  // Every control offered, tapped at its centre (those on the felt are under a panel
  // while one is open: the test leaves them out then).
  const offered = "#decisions button, #doubling button, #commands button, #panel-actions button";
  const controls = all(offered)
    .filter(shown)
    .map((button) => {
      const box = button.getBoundingClientRect();
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
      const hit = document.elementFromPoint(x, y);
      return {
        name: `#${button.parentElement.closest("[id]").id} button "${label(button)}"`,
        box: rect(box),
        point: [round(x), round(y)],
        hit: hit !== null && button.contains(hit),
        landed: landed(hit),
        felt: button.closest("#overlay") === null,
      };
    });
  // Parts the page hid (the hidden attribute) that a style draws all the same.
  const ghosts = all("[hidden]")
    .filter((element) => element.getClientRects().length > 0)
    .map((element) => `${element.id ? `#${element.id}` : element.tagName.toLowerCase()} at ${
      JSON.stringify(rect(element.getBoundingClientRect()))}`);
  const index = document.querySelector("#cards .card .index");
  const seats = {};
  for (const seat of all(".seat[data-place]")) {
    const box = rect(seat.getBoundingClientRect());
    seats[seat.dataset.place] = {seat: Number(seat.dataset.seat), box};
  }
  const root = document.documentElement;
  return {
    width: innerWidth,
    height: innerHeight,
    scroll: {
      html: [root.scrollWidth, root.scrollHeight],
      body: [document.body.scrollWidth, document.body.scrollHeight],
    },
    dir: root.dir,
    lang: root.lang,
    phase: document.body.dataset.phase,
    panel: panel ? panel.dataset.kind : null,
    needed,
    hand,
    controls,
    ghosts,
    index: index ? parseFloat(getComputedStyle(index).fontSize) : null,
    seats,
  };
}
"""


@dataclass(frozen=True)
class Look:
    """What one page showed at one viewport; ``held``: the cards the person holds, by the
    table (None where a panel covers the hand)."""

    phase: str
    language: str
    held: int | None
    measured: dict[str, Any]

    @property
    def where(self) -> str:
        m = self.measured
        return f"{m['width']}×{m['height']} {self.language} {self.phase}"


async def settle(page: Any, width: int, height: int) -> None:
    await page.set_viewport_size({"width": width, "height": height})
    await page.wait_for_function(SETTLED, arg=[width, height], polling="raf", timeout=10_000)


async def look_at(page: Any, phase: str, language: str, held: int | None) -> list[Look]:
    looks = []
    for width, height in VIEWPORTS:
        await settle(page, width, height)
        looks.append(Look(phase, language, held, await page.evaluate(MEASURE)))
    return looks


async def open_page(browser: Any, url: str) -> Any:
    """A page of its own (a window of its own: it paints), once it has drawn the table
    (its first state is the table as it is: nothing moves while the person is to act)."""
    width, height = VIEWPORTS[0]
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector("body[data-version]", timeout=10_000)
    return page


async def phase_looks(served: Site, browser: Any, phase: str, language: str) -> list[Look]:
    """The page of a table at ``phase`` opened in ``language`` (the table's own: a table
    per language, so the match's end, whose panel covers the language button, is seen in
    both), at every viewport."""
    table = await reach(served, phase, language)
    held = None
    if table.match is not None and phase not in ("result", "over"):
        held = len(table.match.view(0)["hand"])
    page = await open_page(browser, served.url(table, language))
    try:
        if phase == "result":  # the deal ends while the page looks
            await finish_deal(served, table)
        await page.wait_for_selector(DRAWN[phase], timeout=10_000)
        return await look_at(page, phase, language, held)
    finally:
        await page.context.close()


def outside(box: list[float], width: float, height: float) -> bool:
    left, top, right, bottom = box
    return left < -SLACK or top < -SLACK or right > width + SLACK or bottom > height + SLACK


def clipped(box: list[float], seen: list[float]) -> bool:
    return any(abs(a - b) > SLACK for a, b in zip(box, seen, strict=True))


PANELS = {"result": "result", "over": "over"}


def drawn_as_meant(look: Look) -> list[str]:
    """The look is of the phase meant (the fit is not judged on an empty table): four
    seats, every card the person holds, something offered (the play aside: the cards are
    the offer), the panel of a result or of the match's end, the page's language."""
    m = look.measured
    wrong = []
    if sorted(m["seats"]) != ["bottom", "left", "right", "top"]:
        wrong.append(f"seats {sorted(m['seats'])}")
    if look.held is not None and len(m["hand"]) != look.held:
        wrong.append(f"{len(m['hand'])} cards shown of {look.held} held")
    if look.phase != "play" and not m["controls"]:
        wrong.append("nothing offered")
    if look.phase == "play" and not any(i["name"].startswith("#trick card") for i in m["needed"]):
        wrong.append("no card on the trick")
    if m["panel"] != PANELS.get(look.phase):
        wrong.append(f"panel {m['panel']}")
    if m["lang"] != look.language:
        wrong.append(f"lang {m['lang']}")
    return wrong


def scrolls(look: Look) -> list[str]:
    """The document does not scroll: neither it nor its body is larger than the viewport,
    either way."""
    m = look.measured
    wrong = []
    for part in ("html", "body"):
        width, height = m["scroll"][part]
        if height > m["height"] or width > m["width"]:
            wrong.append(f"{part} scrolls to {width}×{height}")
    return wrong


def outside_or_cut(look: Look) -> list[str]:
    """Every needed element is inside the viewport at once, and no part that clips it cuts
    it: the seats, the trick or Trix's rows, every card of the hand, the decision controls,
    the badge, the running bid total, the scores; a result or end panel, its contents and
    its buttons."""
    m = look.measured
    wrong = []
    for item in m["needed"]:
        box, seen = item["box"], item["seen"]
        if outside(box, m["width"], m["height"]):
            wrong.append(f"{item['name']} at {box} is outside the viewport")
        elif clipped(box, seen):
            wrong.append(f"{item['name']} at {box} is cut to {seen}")
    return wrong


def cards_missed(look: Look) -> list[str]:
    """Every card of the hand takes a tap on its visible strip: a tap at its index (6 px
    in, 12 px down; the last card at its centre) lands on that card's button. Under a
    result or end panel the felt is not meant to take taps."""
    if look.measured["panel"]:
        return []
    return [
        f"{card['name']} at {card['box']}: a tap at {card['point']} lands on {card['landed']}"
        for card in look.measured["hand"]
        if not card["hit"]
    ]


def controls_missed(look: Look) -> list[str]:
    """Every control offered (bids, trump, contracts, doubling marks and their
    confirmation, table commands, a panel's buttons) takes a tap at its centre: nothing
    lies over it. Under an open panel the felt's controls are not meant to."""
    m = look.measured
    return [
        f"{control['name']} at {control['box']}: a tap at {control['point']} lands on"
        f" {control['landed']}"
        for control in m["controls"]
        if not control["hit"] and not (m["panel"] and control["felt"])
    ]


def hidden_yet_drawn(look: Look) -> list[str]:
    """What the page hides (a part with the hidden attribute: no badge, no decisions) is
    not drawn: no style's display overrides the attribute, leaving an empty box."""
    return [f"{ghost} is hidden yet drawn" for ghost in look.measured["ghosts"]]


def indexes_covered(look: Look) -> list[str]:
    """Every card of the hand shows its whole index (rank and suit) from under the next
    card: each card of the fan can be read."""
    wrong = []
    for card in look.measured["hand"]:
        start, right = card["box"][0], card["index"][2]
        if right > start + card["shows"] + SLACK:
            wrong.append(
                f"{card['name']}: its index ends {right - start:.1f} px into the card,"
                f" {card['shows']} px of it show"
            )
    return wrong


def seats_misplaced(look: Look) -> list[str]:
    """Arabic reads right to left (English left to right), and the seats keep their
    physical places in both: the next player (you + 1) sits on the right."""
    m = look.measured
    wrong = []
    expected = "rtl" if look.language == "ar" else "ltr"
    if m["dir"] != expected:
        wrong.append(f"dir {m['dir']}")
    seats = m["seats"]
    you = seats["bottom"]["seat"]
    if seats["right"]["seat"] != (you + 1) % 4 or seats["left"]["seat"] != (you + 3) % 4:
        wrong.append(f"seat {seats['right']['seat']} on the right of seat {you}")
    right, left = seats["right"]["box"], seats["left"]["box"]
    if not right[0] > left[0]:
        wrong.append(f"the right seat at {right} is not right of the left one at {left}")
    return wrong


CHECKS = (
    drawn_as_meant,
    scrolls,
    outside_or_cut,
    cards_missed,
    controls_missed,
    hidden_yet_drawn,
    indexes_covered,
    seats_misplaced,
)


@pytest.mark.parametrize("phase", PHASES)
async def test_the_table_fits_one_screen_and_takes_every_tap(phase: str, tmp_path: Path) -> None:
    """At every viewport in both languages, each check holds (see each one's docstring);
    every failure is listed: the check, the viewport, the language, the element and its
    box. One web table and one browser per phase: the phases run side by side on the
    suite's workers."""
    async with site(tmp_path) as served, chromium() as browser:
        looked = await asyncio.gather(
            *(phase_looks(served, browser, phase, language) for language in LANGUAGES)
        )
    looks = [look for some in looked for look in some]
    assert len(looks) == len(LANGUAGES) * len(VIEWPORTS)
    failures = [
        f"{check.__name__}: {look.where}: {failure}"
        for check in CHECKS
        for look in looks
        for failure in check(look)
    ]
    assert not failures, "\n".join(failures)
