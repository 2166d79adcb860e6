"""Pictures of the web table: each game family, in Arabic and English, at phone and desktop
size, from a scripted match served by the real web table (Chromium through Playwright).

    python -m tools.screenshots docs/screenshots      # make screenshots

A table per family (Syrian 41 for team Tarneeb, Solo Tarneeb, Trix Complex) is played by
one person and three computers on a SQLite file of its own until the person has cards on
the table in front of them and must play; the person's page is then photographed. Needs
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
from bot.web.app import web_table
from bot.web.socket import Visitor
from storage.database import Database

FAMILIES = {"tarneeb": "syrian41", "solo": "tarneeb_solo", "trix": "trix_complex"}
SIZES = {"phone": (360, 780), "desktop": (1280, 800)}  # the narrowest phone we serve
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
        web = await web_table(manager, router, public_url="http://127.0.0.1:9")
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
                    for language in ("ar", "en"):
                        visitor = Visitor("telegram", PERSON.user_id, "Layla", language, table.id)
                        session = web.gate.session(visitor, table.id)
                        for size, (width, height) in SIZES.items():
                            context = await browser.new_context(
                                viewport={"width": width, "height": height},
                                device_scale_factor=2 if size == "phone" else 1,
                            )
                            page = await context.new_page()
                            await page.goto(f"http://127.0.0.1:{port}/#session={session}")
                            switch = page.get_by_role("button", name="العربية", exact=True)
                            await page.wait_for_selector("[data-seat]", timeout=10_000)
                            if language == "ar" and await switch.count():
                                await switch.first.click()
                            await page.wait_for_timeout(400)
                            path = out / f"{family}-{language}-{size}.png"
                            await page.screenshot(path=str(path), full_page=True)
                            written.append(path)
                            await context.close()
                await browser.close()
        finally:
            await web.stop()
            await manager.close()
    return written


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
