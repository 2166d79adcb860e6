"""Pictures of the web table: each game family, in Arabic and English, at phone and desktop
size, from a scripted match served by the real web table (Chromium through Playwright).

    python -m tools.screenshots docs/screenshots      # make screenshots

A table per family (Syrian 41 for team Tarneeb, Solo Tarneeb, Trix Complex) is played by
one person and three computers on a SQLite file of its own until the person has cards on
the table in front of them and must play; the person's page is then photographed. The
Syrian 41 deal is then played to its end and its replay photographed on a phone (at the
first card the double-dummy analysis marks, and at the result). Needs
Chromium (``apt-get install chromium``) and Playwright (the dev extras); names carry emoji
(🤖 for a computer), so install ``fonts-noto-color-emoji`` too or they print as boxes. Only
the picture the README shows is kept in git; the others are written for the asking.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path
from typing import Any

from bot.delivery.router import PlatformRouter
from bot.tables import LiveTable, PlayerRef, Press, TableManager
from bot.tables.live import Place
from bot.tables.reviews import deal_analysis
from bot.web.app import web_table
from bot.web.socket import Visitor
from storage.database import Database

FAMILIES = {"tarneeb": "syrian41", "solo": "tarneeb_solo", "trix": "trix_complex"}
SIZES = {"phone": (360, 640), "desktop": (1280, 800)}  # a small phone, a laptop
# Telegram's dark theme as its script sets it on the page (--tg-theme-*): the chrome
# (panels, the bar's texts) takes it, the felt and the cards keep their own colours.
TELEGRAM_DARK = """
document.addEventListener("DOMContentLoaded", () => {
  const root = document.documentElement.style;
  for (const [name, value] of Object.entries({
    "bg-color": "#17212b", "secondary-bg-color": "#232e3c", "text-color": "#f5f5f5",
    "hint-color": "#708499", "button-color": "#5288c1", "button-text-color": "#ffffff",
  })) root.setProperty(`--tg-theme-${name}`, value);
  document.documentElement.classList.add("telegram");
  document.documentElement.dataset.scheme = "dark";
});
"""
PERSON = PlayerRef(user_id="1", name="Layla", language="en")


def chromium_path() -> str:
    import shutil

    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("Chromium is needed: apt-get install chromium")


async def ready_to_play(manager: TableManager, table: LiveTable, *, moves: int = 400) -> None:
    """Play the person's first legal move (a bid of 3 where there is one) until they must
    play a card with some already on the table."""
    for _ in range(moves):
        await manager.settle()
        match = table.match
        assert match is not None
        view = match.view(0)
        legal: list[dict[str, Any]] = view["legal_actions"]
        if not legal:
            await asyncio.sleep(0.05)
            continue
        if legal[0]["type"] == "play" and view["trick"]:
            return
        three = {"type": "bid", "value": 3}
        action = three if three in legal else legal[0]
        await manager.press(
            Press(table_id=table.id, version=table.seq, action=action, player=PERSON)
        )


async def photograph(folder: Path, out: Path) -> list[Path]:
    from playwright.async_api import async_playwright

    written: list[Path] = []
    async with Database.open(folder / "pictures.sqlite") as db:
        router = PlatformRouter()
        manager = TableManager(db, router)
        await manager.start()
        web = await web_table(
            manager, router, public_url="http://127.0.0.1:9", analyse=deal_analysis
        )
        port = await web.start("127.0.0.1", 0)
        try:
            async with async_playwright() as driver:
                browser = await driver.chromium.launch(
                    executable_path=chromium_path(), headless=True
                )
                for family, variant in FAMILIES.items():
                    place = Place("telegram", f"-{len(written) + 1}", "")
                    table = await manager.create(
                        place, PERSON, {"variant": variant, "language": "en"}
                    )
                    for _ in range(3):
                        await manager.add_computer(table.id, PERSON.user_id)
                    await manager.begin(table.id, PERSON.user_id)
                    await ready_to_play(manager, table)
                    shots = [(lang, size, False) for lang in ("ar", "en") for size in SIZES]
                    shots.append(("ar", "phone", True))  # inside Telegram, its dark theme
                    for language, size, dark in shots:
                        visitor = Visitor("telegram", PERSON.user_id, "Layla", language, table.id)
                        session = web.gate.session(visitor, table.id)
                        width, height = SIZES[size]
                        context = await browser.new_context(
                            viewport={"width": width, "height": height},
                            device_scale_factor=2 if size == "phone" else 1,
                            is_mobile=size == "phone",
                            has_touch=size == "phone",
                            color_scheme="dark" if dark else "light",
                        )
                        if dark:
                            await context.add_init_script(TELEGRAM_DARK)
                        page = await context.new_page()
                        await page.goto(f"http://127.0.0.1:{port}/#session={session}")
                        await page.wait_for_selector("body[data-version]", timeout=10_000)
                        if await page.evaluate("document.documentElement.lang") != language:
                            switch = "العربية" if language == "ar" else "English"
                            await page.get_by_role("button", name=switch, exact=True).click()
                        for _ in range(200):  # the page's CSP allows no evaluated predicate
                            if await page.evaluate("document.documentElement.lang") == language:
                                break
                            await asyncio.sleep(0.02)
                        await asyncio.sleep(0.3)  # the last card's travel settles
                        # As the player sees it: the viewport, never the whole document.
                        name = f"{family}-{language}-{size}{'-telegram-dark' if dark else ''}"
                        path = out / f"{name}.png"
                        await page.screenshot(path=str(path), full_page=False)
                        written.append(path)
                        await context.close()
                written += await photograph_replay(browser, web, port, manager, out)
                await browser.close()
        finally:
            await web.stop()
            await manager.close()
    return written


async def photograph_replay(
    browser: Any, web: Any, port: int, manager: TableManager, out: Path
) -> list[Path]:
    """A Syrian 41 table per language played by the person's first legal moves until a deal
    is scored, then that deal's replay on a phone (issue 35): at the first card the
    analysis marks (or halfway), and at the result."""
    written = []
    for index, language in enumerate(("ar", "en")):
        place = Place("telegram", f"-{100 + index}", "")
        table = await manager.create(place, PERSON, {"variant": "syrian41", "language": language})
        for _ in range(3):
            await manager.add_computer(table.id, PERSON.user_id)
        await manager.begin(table.id, PERSON.user_id)
        deal = await play_a_scored_deal(manager, table)
        await web.replays.reviews.settle()
        visitor = Visitor("telegram", PERSON.user_id, "Layla", language, table.id)
        session = web.gate.session(visitor, table.id)
        context = await browser.new_context(
            viewport={"width": 360, "height": 640}, device_scale_factor=2, is_mobile=True
        )
        page = await context.new_page()
        await page.goto(f"http://127.0.0.1:{port}/?review={deal}#session={session}")
        await page.wait_for_selector("#replay:not([hidden])", timeout=10_000)
        steps = int(await page.evaluate("Number(document.getElementById('replay-slider').max)"))
        forward = "ArrowLeft" if language == "ar" else "ArrowRight"
        for step in range(steps):
            await page.keyboard.press(forward)
            mark = await page.evaluate("document.getElementById('replay-mark').textContent")
            if "−" in mark or step >= steps // 2:
                break
        for moment in ("card", "result"):
            if moment == "result":
                await page.keyboard.press("End")
            path = out / f"replay-{language}-phone-{moment}.png"
            await page.screenshot(path=str(path), full_page=False)
            written.append(path)
        await context.close()
    return written


async def play_a_scored_deal(manager: TableManager, table: LiveTable) -> int:
    """The person's first legal move until a deal is scored; its number."""
    for _ in range(5000):
        await manager.settle()
        match = table.match
        assert match is not None
        view = match.view(0)
        scored = [entry for entry in view["history"] if not entry.get("cancelled")]
        if scored:
            return int(scored[0]["deal_number"])
        legal = view["legal_actions"]
        if not legal:
            await asyncio.sleep(0.02)
            continue
        press = Press(table_id=table.id, version=table.seq, action=legal[0], player=PERSON)
        await manager.press(press)
    raise AssertionError("no deal was scored")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=Path("docs/screenshots"))
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        written = asyncio.run(photograph(Path(scratch), args.folder))
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
