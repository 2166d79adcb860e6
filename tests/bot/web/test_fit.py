"""The fit (issue 33, items 1 and 10): the phone table is one screen that never scrolls, at
the sizes Telegram gives a Mini App and on a tablet and a desktop, in Arabic and English, in
every phase a person meets (``tests/bot/web/phases.py``): all four seats, the trick or Trix's
rows, the whole hand, the decision controls, trump or the contract, the scores, and a deal's
result or the match's end with their buttons are inside the viewport at once; every card
of the hand takes a tap on the strip of it that shows, and shows its whole index there;
every control offered takes a tap; Arabic reads right to left with the seats in their
physical places.

One in-process web table serves every phase, a table per phase and language (its pages open
in the table's language); its page is opened in Chromium and resized through the six
viewports, each looked at once its layout has settled (``#app`` the viewport's size and the
felt's boxes unchanged from one frame to the next). The tests below each check one fact
over all the looks and list every look that fails it: the viewport, the language, the
phase, the element and its box."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.bot.web.phases import DRAWN, PHASES, Site, finish_deal, reach, site
from tests.browser import chromium, chromium_path

# The tests share one module fixture: on one worker, it is made once.
pytestmark = pytest.mark.xdist_group("test_fit")

# Telegram's Mini App sizes (a phone, its compact height, a tall phone, the smallest
# phone), a tablet and a desktop.
VIEWPORTS = ((360, 640), (390, 664), (390, 844), (320, 568), (768, 1024), (1280, 800))
LANGUAGES = ("ar", "en")
PAGES_AT_ONCE = 4
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
  const shown = (element) =>
    element !== null && element.getClientRects().length > 0 &&
    getComputedStyle(element).visibility !== "hidden";
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


async def every_look(folder: Path) -> list[Look]:
    """Every phase in both languages, a few pages at a time (the tables wait on the person:
    nothing moves while the pages are looked at)."""
    async with site(folder) as served, chromium() as browser:
        at_once = asyncio.Semaphore(PAGES_AT_ONCE)

        async def one(phase: str, language: str) -> list[Look]:
            async with at_once:
                return await phase_looks(served, browser, phase, language)

        looked = await asyncio.gather(
            *(one(phase, language) for phase in PHASES for language in LANGUAGES)
        )
        return [look for some in looked for look in some]


@pytest.fixture(scope="module")
def looks(tmp_path_factory: pytest.TempPathFactory) -> list[Look]:
    """Every phase in both languages at every viewport (the module's one browser run)."""
    chromium_path()  # no browser: skip (or fail where required) before any table is set up
    return asyncio.run(every_look(tmp_path_factory.mktemp("fit")))


def outside(box: list[float], width: float, height: float) -> bool:
    left, top, right, bottom = box
    return left < -SLACK or top < -SLACK or right > width + SLACK or bottom > height + SLACK


def clipped(box: list[float], seen: list[float]) -> bool:
    return any(abs(a - b) > SLACK for a, b in zip(box, seen, strict=True))


def test_every_phase_is_drawn_with_what_the_person_must_see(looks: list[Look]) -> None:
    """The looks are of the phases meant (the fit is not judged on an empty table): four
    seats always, the hand whenever the person holds cards, the panel of a result or of the
    match's end, each in the page's language."""
    assert {(look.phase, look.language) for look in looks} == {
        (phase, language) for phase in PHASES for language in LANGUAGES
    }
    assert len(looks) == len(PHASES) * len(LANGUAGES) * len(VIEWPORTS)
    panels = {"result": "result", "over": "over"}
    wrong = []
    for look in looks:
        m = look.measured
        names = [item["name"] for item in m["needed"]]
        if sorted(m["seats"]) != ["bottom", "left", "right", "top"]:
            wrong.append(f"{look.where}: seats {sorted(m['seats'])}")
        if look.held is not None and len(m["hand"]) != look.held:
            wrong.append(f"{look.where}: {len(m['hand'])} cards shown of {look.held} held")
        if look.phase != "play" and not m["controls"]:
            wrong.append(f"{look.where}: nothing offered")
        if m["panel"] != panels.get(look.phase):
            wrong.append(f"{look.where}: panel {m['panel']}")
        if m["lang"] != look.language:
            wrong.append(f"{look.where}: lang {m['lang']}")
        if look.phase == "play" and not any(n.startswith("#trick card") for n in names):
            wrong.append(f"{look.where}: no card on the trick")
    assert not wrong, "\n".join(wrong)


def test_the_page_never_scrolls_at_any_size_in_any_phase_or_language(looks: list[Look]) -> None:
    """Neither the document nor its body is larger than the viewport, either way."""
    scrolling = []
    for look in looks:
        m = look.measured
        for part in ("html", "body"):
            width, height = m["scroll"][part]
            if height > m["height"] or width > m["width"]:
                scrolling.append(f"{look.where}: {part} scrolls to {width}×{height}")
    assert not scrolling, "\n".join(scrolling)


def test_every_needed_element_is_inside_the_viewport_at_once(looks: list[Look]) -> None:
    """Seats, the trick or Trix's rows, every card of the hand, the decision controls, the
    badge, the running bid total and the scores; the result or end panel and its buttons:
    each wholly inside the viewport, none cut off by a part that clips it."""
    missing = []
    for look in looks:
        m = look.measured
        for item in m["needed"]:
            box, seen = item["box"], item["seen"]
            if outside(box, m["width"], m["height"]):
                missing.append(f"{look.where}: {item['name']} at {box} is outside the viewport")
            elif clipped(box, seen):
                missing.append(f"{look.where}: {item['name']} at {box} is cut to {seen}")
    assert not missing, "\n".join(missing)


def test_every_card_of_the_hand_takes_a_tap_on_its_visible_strip(looks: list[Look]) -> None:
    """A tap at the index of a card (6 px in, 12 px down; the last card at its centre)
    lands on that card's button. Under a result or end panel nothing on the felt is meant
    to take a tap: those looks are left out."""
    tapped = 0
    missed = []
    for look in looks:
        if look.measured["panel"]:
            continue
        for card in look.measured["hand"]:
            tapped += 1
            if not card["hit"]:
                missed.append(
                    f"{look.where}: {card['name']} at {card['box']}: a tap at {card['point']}"
                    f" lands on {card['landed']}"
                )
    assert tapped > 0
    assert not missed, "\n".join(missed)


def test_every_offered_control_takes_a_tap_at_its_centre(looks: list[Look]) -> None:
    """Bids, trump, contracts, doubling marks and their confirmation, table commands, and
    the buttons of a result or end panel: a tap at the centre lands on the button (nothing
    of the felt lies over it). Under an open panel the felt's controls are left out."""
    tapped = 0
    missed = []
    for look in looks:
        for control in look.measured["controls"]:
            if look.measured["panel"] and control["felt"]:
                continue
            tapped += 1
            if not control["hit"]:
                missed.append(
                    f"{look.where}: {control['name']} at {control['box']}: a tap at"
                    f" {control['point']} lands on {control['landed']}"
                )
    assert tapped > 0
    assert not missed, "\n".join(missed)


def test_every_card_of_the_hand_shows_its_whole_index(looks: list[Look]) -> None:
    """The rank and suit in a card's corner are not covered by the next card: each card of
    the fan can be read."""
    covered = []
    for look in looks:
        for card in look.measured["hand"]:
            start = card["box"][0]
            right = card["index"][2]
            if right > start + card["shows"] + SLACK:
                covered.append(
                    f"{look.where}: {card['name']}: its index ends {right - start:.1f} px into"
                    f" the card, {card['shows']} px of it show"
                )
    assert not covered, "\n".join(covered)


def test_arabic_reads_right_to_left_and_the_seats_keep_their_physical_places(
    looks: list[Look],
) -> None:
    """The next player (you + 1) sits on the right in both languages: Arabic turns the
    texts, not the table."""
    wrong = []
    for look in looks:
        m = look.measured
        expected = "rtl" if look.language == "ar" else "ltr"
        if m["dir"] != expected:
            wrong.append(f"{look.where}: dir {m['dir']}")
        seats = m["seats"]
        you = seats["bottom"]["seat"]
        if seats["right"]["seat"] != (you + 1) % 4 or seats["left"]["seat"] != (you + 3) % 4:
            wrong.append(f"{look.where}: right {seats['right']['seat']}, you {you}")
        if not seats["right"]["box"][0] > seats["left"]["box"][0]:
            wrong.append(
                f"{look.where}: right seat at {seats['right']['box']}, left at "
                f"{seats['left']['box']}"
            )
    assert not wrong, "\n".join(wrong)
