"""Launching Sahra inside Discord: how long from the launch until the table is drawn.

The Activity as the tests run it offline (``tests/bot/web/activity_pages.py``): the real
discord.py bot against the fake Discord, the real web table serving the page as the
Activity, Discord's proxy with TLS at the application's discordsays.com origin, and a
harness page playing the Discord client around the page's real vendored SDK. Each launch is
a person already seated at a running Syrian 41 table opening the Activity in a fresh tab:

- drawn: from the harness's navigation to the first state the page has drawn, by the
  harness tab's clock; it covers loading the page and the SDK (about 150 KB) through the
  proxy, the SDK's handshake and READY, AUTHORIZE (a one-time code), the socket's hello,
  the server's code exchange, the user and the activity instance read from (fake) Discord,
  the session and the first state.

The fake Discord answers on loopback; Discord's real endpoints add their round trips
(three sequential calls). Printed as p50 and max over ``--launches`` (cold: every tab in
a fresh browser context; warm: tabs of one context, its cache filled); ``--json`` ends
with one JSON line. Run ``python -m benchmarks.activity_launch`` from the repository root
(``make bench`` does); it needs Chromium. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bot.discord.fake_activities import Instance
from tests.bot.discord.test_e2e import open_table
from tests.bot.support import until
from tests.bot.web.activity_pages import discord
from tests.bot.web.discord_proxy import launch_path

SEATED = [401, 402, 403, 404]

# When the page drew its first state, by the tab's own clock (performance.now is
# relative to the navigation's start, so it is the whole launch).
DRAWN = """
(() => {
  new MutationObserver((_, observer) => {
    if (document.getElementById("felt") && document.body.dataset.version !== undefined) {
      window.parent.postMessage({ sahraDrawn: performance.timeOrigin + performance.now() }, "*");
      observer.disconnect();
    }
  }).observe(document, { subtree: true, attributes: true, childList: true });
})();
"""
LISTEN = """
window.addEventListener("message", (event) => {
  if (event.data && event.data.sahraDrawn) window.sahraDrawn = event.data.sahraDrawn;
});
"""


async def launch_once(context: Any, run: Any, user: int) -> float:
    """Milliseconds from the harness's navigation to the table drawn in its iframe."""
    tab = await context.new_page()
    await tab.add_init_script(LISTEN + DRAWN)
    started = time.time() * 1000
    await tab.goto(launch_path(user, "i-1"))

    async def drawn() -> bool:
        return bool(await tab.evaluate("window.sahraDrawn !== undefined"))

    await until(drawn, "the table drawn", timeout=30)
    at = float(await tab.evaluate("window.sahraDrawn"))
    await tab.close()
    return at - started


async def measure(launches: int) -> dict[str, Any]:
    figures: dict[str, list[float]] = {"cold": [], "warm": []}
    with tempfile.TemporaryDirectory() as folder:
        async with discord(Path(folder)) as run:
            await open_table(run.guild, "syrian41", SEATED)
            run.activities.instances["i-1"] = Instance(users=set(SEATED))
            browser = run.context.browser
            for index in range(launches):
                context = await browser.new_context(
                    viewport={"width": 360, "height": 640}, ignore_https_errors=True
                )
                figures["cold"].append(await launch_once(context, run, SEATED[index % 4]))
                await context.close()
            warm = run.context
            await launch_once(warm, run, SEATED[0])  # fills its cache
            for index in range(launches):
                figures["warm"].append(await launch_once(warm, run, SEATED[index % 4]))
    return {
        kind: {
            "p50_ms": round(statistics.median(values)),
            "max_ms": round(max(values)),
            "launches": len(values),
        }
        for kind, values in figures.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=6, help="launches per cache state")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = asyncio.run(measure(args.launches))
    print("launch to table drawn, inside Discord (harness, proxy, SDK, OAuth2 on loopback)")
    for kind, figure in result.items():
        print(
            f"  {kind:5}  p50 {figure['p50_ms']:5d} ms  max {figure['max_ms']:5d} ms"
            f"  ({figure['launches']} launches)"
        )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
