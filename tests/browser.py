"""A real browser for the web table's tests: Debian's Chromium driven by Playwright.

Playwright's pip wheel carries its driver but no browser; ``playwright install`` needs the
internet, so the system's Chromium is used (``apt-get install chromium``). Without it the
browser tests skip on a developer's machine and fail in CI (``SAHRA_BROWSER_REQUIRED``,
set by ``.ci/run``): a missing browser must never pass for a tested page.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page, WebSocket

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def _missing(what: str) -> None:
    if os.environ.get("SAHRA_BROWSER_REQUIRED"):
        pytest.fail(f"the browser tests need {what}, and this run requires them")
    pytest.skip(f"no {what} here (CI installs it)")


def chromium_path() -> str:
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    _missing("Chromium (apt-get install chromium)")
    raise AssertionError("unreachable")


@asynccontextmanager
async def chromium(args: list[str] | None = None) -> AsyncIterator[Browser]:
    """Chromium, headless, with ``args`` besides the usual flags."""
    path = chromium_path()
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _missing("Playwright (pip install playwright)")
        raise
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(
            executable_path=path,
            headless=True,
            args=["--disable-gpu", "--mute-audio", *(args or [])],
        )
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class Frames:
    """Every WebSocket frame one page received, parsed, in order (what its seat was
    sent: the place to prove no frame carries another seat's card)."""

    received: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # the page's console errors

    def attach(self, page: Page) -> None:
        page.on("websocket", self._socket)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _socket(self, socket: WebSocket) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        text = payload.decode() if isinstance(payload, bytes) else payload
        self.received.append(json.loads(text))

    def states(self) -> list[dict[str, Any]]:
        return [f["state"] for f in self.received if f.get("type") == "state"]
