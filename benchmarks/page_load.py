"""Opening the web table on a slow phone: how long until the table is drawn, how many bytes
it costs, and the longest main-thread task while a move is made.

Debian's Chromium (through Playwright, as the browser tests drive it) plays a phone: a
360×640 viewport at device scale 2, touch and the mobile viewport's layout, its network held
to 150 ms of latency and 1.6 Mbit/s each way (``Network.emulateNetworkConditions``) and its
CPU slowed four times (``Emulation.setCPUThrottlingRate``). The real web table serves one
Syrian 41 table of four humans (``benchmarks/web_latency.py``'s tables) in this process.

Each open loads the page from a personal link (as Discord opens it: every request is to
Sahra's own server, none to Telegram's script), for the seat whose turn it is, and counts:

- drawn: from the navigation's start to the first state drawn (the page sets
  ``document.body.dataset.version`` when it has drawn one, seen by a MutationObserver:
  the state is in the DOM, its paint follows), by the page's own clock;
- KB: every HTTP response's bytes on the wire, headers included, up to then
  (``Network.loadingFinished``); requests: the responses that came over the network (a
  304 is one, a copy from the cache is not);
- move: the page taps the first enabled button in its hand or its decisions (on a page
  with neither, any enabled button that is no table command); the time from the tap until
  the next state is drawn, the main thread's time in tasks meanwhile (Chrome's
  ``TaskDuration``, to two frames after the drawing) and its longest task (``longtask``
  entries, 50 ms and over: 0 means none was that long). Chromium's network emulation
  holds HTTP back but not WebSocket frames (Chromium 156 here: moves are drawn well
  within the emulated 150 ms), so a move's time is the server's answer and the drawing.

Cold: each open in a fresh browser context (an empty cache). Warm: opens in one context
after a first one filled its cache: the modules and the style sheet, pinned to their hash,
come from the cache unasked; the index and the favicon are revalidated (304). Printed
as p50 and max per kind; ``--json`` ends with one JSON line.

Run ``python -m benchmarks.page_load`` from the repository root (``make bench`` does). It
needs Chromium (``apt-get install chromium``) and says so when it is missing. Figures are
printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.web_latency import TOKEN, open_tables, user_of

PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 640},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
NETWORK = {  # Chrome DevTools' units: ms, bytes a second
    "offline": False,
    "latency": 150,
    "downloadThroughput": 200_000,
    "uploadThroughput": 200_000,
}
CPU_SLOWDOWN = 4
# Installed before the page's own scripts: when each version was first drawn (by the
# page's clock, whose zero is the navigation's start; told to this process too, as the
# page's policy allows no string evaluated as script, which Playwright's own wait for a
# condition in the page needs), when the last tap was, and every long task since.
PROBE = """
(() => {
  window.sahraDrawn = {};
  window.sahraLong = [];
  const note = (list) => { for (const e of list.getEntries()) sahraLong.push(e.duration); };
  try {
    window.sahraObserver = new PerformanceObserver(note);
    sahraObserver.observe({type: "longtask"});
  } catch (e) {}
  new MutationObserver(() => {
    const v = document.body ? document.body.dataset.version : undefined;
    if (v === undefined || v in sahraDrawn) return;
    sahraDrawn[v] = performance.now();
    window.sahraTold(Number(v));
  }).observe(document, {subtree: true, childList: true, attributes: true,
                        attributeFilter: ["data-version"]});
  addEventListener("pointerdown", () => { window.sahraTapped = performance.now(); }, true);
})();
"""
# The long tasks so far, the ones not yet handed to the observer's callback too (an entry
# is queued when its task ends; the callback runs later), read after two frames so the
# drawing's own rendering work has been done.
LONGEST = """
() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
  if (window.sahraObserver) sahraObserver.takeRecords().forEach((e) => sahraLong.push(e.duration));
  done(Math.max(0, ...sahraLong));
})))
"""
MOVES = "#hand button:enabled, #decisions button:enabled"


@dataclass
class Open:
    cache: str
    drawn_ms: float
    kb: float
    requests: int
    move_ms: float | None = None
    longest_task_ms: float | None = None
    busy_ms: float | None = None


@dataclass
class Drawn:
    """The versions the page has drawn, as it tells them."""

    versions: list[int] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def told(self, version: int) -> None:
        self.versions.append(version)
        self.changed.set()

    async def after(self, version: int, timeout: float = 60.0) -> None:
        """Until the page has drawn a version later than ``version``."""
        while not any(v > version for v in self.versions):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), timeout)


@dataclass
class Served:
    """The web table of this process and its one table."""

    web: Any
    manager: Any
    table_id: int

    def link(self, base: str) -> str | None:
        """A personal link for the seat to act now (None: the match has ended)."""
        from bot.tables import PlayerRef

        table = self.manager.table(self.table_id)
        if table.match is None or not table.match.to_act:
            return None
        seat = table.match.to_act[0]
        who = PlayerRef(user_id=str(user_of(0, seat)), name=f"P{seat}", language="en")
        link: str = self.web.personal_link("telegram", table, who)
        return base + "/#" + link.partition("#")[2]


def command_names(frames: list[dict[str, Any]]) -> set[str]:
    """What a tap must not be: a table command or one of the page's own controls (the
    language switch, the last trick), by the names the server gave them."""
    names: set[str] = set()
    for frame in frames:
        if frame.get("type") == "welcome":
            names |= {str(text) for text in frame.get("strings", {}).values()}
        elif frame.get("type") == "state":
            names |= {str(c.get("label")) for c in frame["state"].get("commands") or []}
    return names


async def a_move(page: Any, frames: list[dict[str, Any]]) -> Any:
    """The button of the move to make: the first enabled one in the hand or the decisions;
    on a page with neither, any enabled button that is no table command."""
    if await page.locator("#hand, #decisions").count():
        await page.wait_for_selector(MOVES, timeout=30_000)
        return page.locator(MOVES).first
    not_moves = command_names(frames)
    for button in await page.get_by_role("button").all():
        label = await button.get_attribute("aria-label") or await button.inner_text()
        if await button.is_enabled() and await button.is_visible() and label not in not_moves:
            return button
    raise RuntimeError("the page offers no move")


async def task_seconds(cdp: Any) -> float:
    """The main thread's time in tasks so far (Chrome's own count, every task however
    short: long tasks alone say nothing of a move made of short ones)."""
    metrics = (await cdp.send("Performance.getMetrics"))["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


async def measure_open(context: Any, served: Served, base: str, cache: str) -> Open | None:
    url = served.link(base)
    if url is None:
        return None
    page = await context.new_page()
    frames: list[dict[str, Any]] = []  # what the page's socket received

    def socket(ws: Any) -> None:
        ws.on("framereceived", lambda text: frames.append(json.loads(text)))

    page.on("websocket", socket)
    drawn = Drawn()
    await page.expose_function("sahraTold", drawn.told)
    await page.add_init_script(PROBE)
    # Emulation is set on this origin's page first: a navigation that changes process
    # could otherwise start before it is applied.
    await page.goto(base + "/healthz")
    cdp = await context.new_cdp_session(page)
    wire = {"bytes": 0.0, "requests": 0}
    # Only requests sent once the page is on its way: the /healthz page's own favicon
    # request may still be finishing.
    ours: set[str] = set()
    counting = False

    def sent(event: dict[str, Any]) -> None:
        if counting:
            ours.add(event["requestId"])

    def finished(event: dict[str, Any]) -> None:
        if event["requestId"] in ours:  # a revalidated copy counts: its 304 crossed the wire
            wire["bytes"] += float(event.get("encodedDataLength", 0))
            wire["requests"] += event.get("encodedDataLength", 0) > 0

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.loadingFinished", finished)
    await cdp.send("Network.enable")
    await cdp.send("Performance.enable")
    await cdp.send("Network.emulateNetworkConditions", NETWORK)
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    counting = True
    await page.goto(url, wait_until="commit")
    await drawn.after(-1)
    at = float(await page.evaluate("Math.min(...Object.values(sahraDrawn))"))
    figures = Open(cache, at, wire["bytes"] / 1024, int(wire["requests"]))
    version = int(await page.evaluate("Number(document.body.dataset.version)"))
    button = await a_move(page, frames)
    await page.evaluate("sahraLong.length = 0")
    busy = await task_seconds(cdp)
    await button.tap()
    await drawn.after(version)
    figures.longest_task_ms = float(await page.evaluate(LONGEST))
    figures.busy_ms = 1000 * (await task_seconds(cdp) - busy)
    figures.move_ms = float(
        await page.evaluate(
            f"Math.min(...Object.entries(sahraDrawn).filter(([v]) => Number(v) > {version})"
            ".map(([, at]) => at)) - sahraTapped"
        )
    )
    await cdp.detach()
    await page.close()
    return figures


async def measure(opens: int, pace: float = 1.0) -> list[Open]:
    from bot.delivery.router import PlatformRouter
    from bot.tables import TableManager
    from bot.tables.pace import Pace
    from bot.web.app import web_table
    from storage.database import Database
    from tests.browser import chromium

    results: list[Open | None] = []
    with tempfile.TemporaryDirectory() as folder:
        async with Database.open(Path(folder) / "bench.sqlite") as db:
            router = PlatformRouter()
            manager = TableManager(db, router)
            await manager.start()
            web = await web_table(
                manager,
                router,
                public_url="http://127.0.0.1:9",
                pace=Pace(scale=pace),
                telegram_token=TOKEN,
            )
            [table_id] = await open_tables(manager, 1)
            base = f"http://127.0.0.1:{await web.start('127.0.0.1', 0)}"
            served = Served(web, manager, table_id)
            try:
                async with chromium() as browser:
                    for _ in range(opens):
                        context = await browser.new_context(**PHONE)
                        results.append(await measure_open(context, served, base, "cold"))
                        await context.close()
                    context = await browser.new_context(**PHONE)
                    results.append(await measure_open(context, served, base, "cold"))
                    for _ in range(opens):
                        results.append(await measure_open(context, served, base, "warm"))
                    await context.close()
            finally:
                await web.stop()
                await manager.close()
    return [result for result in results if result is not None]


def summary(results: list[Open]) -> list[dict[str, Any]]:
    rows = []
    for cache in ("cold", "warm"):
        mine = [r for r in results if r.cache == cache]
        if not mine:
            continue
        row: dict[str, Any] = {"cache": cache, "opens": len(mine)}
        for key in ("drawn_ms", "kb", "requests", "move_ms", "longest_task_ms", "busy_ms"):
            values = [float(v) for r in mine if (v := getattr(r, key)) is not None]
            row[f"{key}_p50"] = round(statistics.median(values), 1) if values else None
            row[f"{key}_max"] = round(max(values), 1) if values else None
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=5, help="opens per cache state")
    parser.add_argument(
        "--pace", type=float, default=1.0, help="the table's SAHRA_WEB_PACE (a move's showing)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from tests.browser import CANDIDATES

    if not any(shutil.which(name) for name in CANDIDATES):
        print("page_load: skipped, no Chromium here (apt-get install chromium)")
        return 0
    rows = summary(asyncio.run(measure(args.opens, args.pace)))
    print(
        "Web table opened on a phone (360×640 @2x, touch; 150 ms latency, 1.6 Mbit/s,"
        f" CPU ÷{CPU_SLOWDOWN}): p50 / max"
    )
    columns = ("drawn_ms", "kb", "move_ms", "busy_ms", "longest_task_ms")
    titles = ("drawn ms", "KB", "move ms", "move busy ms", "long task ms")
    print(f"{'cache':<5} {'opens':>5} {'requests':>8}" + "".join(f" {t:>15}" for t in titles))
    for row in rows:
        pairs = "".join(
            f" {str(row[c + '_p50']) + ' / ' + str(row[c + '_max']):>15}" for c in columns
        )
        print(f"{row['cache']:<5} {row['opens']:>5} {row['requests_p50']:>8}" + pairs)
    print(
        "drawn: navigation start → first state drawn; KB: HTTP on the wire; move: tap →"
        " next state drawn; busy: main-thread task time from the tap to two frames after;"
        " long task: the longest then, of 50 ms or more (0: none)"
    )
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
