"""The page inside Telegram (bot/web/static/telegram.js), in Chromium against the real web
table, with Telegram's script stood in for by its faithful double
(``tests/bot/web/telegram_double.js``): like the real one it reads the launch data from the
address's fragment once, when it runs, and refuses calls the launch's version lacks.

Issue 33, item 7: the page used to clear the fragment before Telegram's script had run, so
the script saw no launch data (version "6.0", every newer call refused). These tests check
that the script sees the launch, what the page asks of Telegram at each version and
platform, that Telegram's viewport and safe areas reach the page's CSS variables, and that
the page goes on when the script never comes."""

from __future__ import annotations

import re
import time
import urllib.parse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.bot.web.pages import (
    TELEGRAM_SCRIPT,
    launch_url,
    open_page,
    players_context,
)
from tests.bot.web.support import TOKEN, site
from tests.browser import chromium

USER = 501
FELT = "#0b3d2e"
# What a page asks of Telegram when it starts, in order (8.0 on a phone).
STARTUP = ["ready", "expand", "disableVerticalSwipes", "requestFullscreen"]
COLOURS = ["setHeaderColor", "setBackgroundColor"]
# Everything newer than 6.0 that the page may use.
NEWER = {
    "BackButton.onClick",
    "BackButton.offClick",
    "BackButton.show",
    "BackButton.hide",
    "HapticFeedback.impactOccurred",
    "HapticFeedback.notificationOccurred",
    "HapticFeedback.selectionChanged",
    "enableClosingConfirmation",
    "disableClosingConfirmation",
    "disableVerticalSwipes",
    "requestFullscreen",
    "setHeaderColor",
    "setBackgroundColor",
}
QUESTIONS = {"isVersionAtLeast", "onEvent", "offEvent"}  # asking, not doing

# The platform object the page uses, taken from the page's own module (the same instance
# app.js imported: startTelegram() resolves to one platform per page).
# The page's own instance of the module: the address it was loaded from (with its
# ``?v=`` hash), or another copy of it would start a second time.
PLATFORM = (
    'import(performance.getEntriesByType("resource").map((entry) => entry.name)'
    '.find((name) => name.includes("/static/telegram.js")))'
    ".then((module) => module.startTelegram())"
)


@dataclass
class MiniApp:
    page: Any
    url: str

    async def status(self, status: str) -> None:
        await self.page.wait_for_function(
            "status => document.body.dataset.status === status", arg=status, timeout=20_000
        )

    async def drawn(self) -> None:
        """Once the page has drawn a state of its table (render.js has run once)."""
        await self.page.wait_for_function(
            "document.body.dataset.version !== undefined", timeout=20_000
        )

    async def calls(self) -> list[dict[str, Any]]:
        """What the page did through Telegram's API, in order (questions left out)."""
        recorded = await self.page.evaluate("window.__telegramCalls")
        return [call for call in recorded if call["name"] not in QUESTIONS]

    async def refusals(self) -> list[dict[str, Any]]:
        recorded = await self.page.evaluate("window.__telegramCalls")
        return [call for call in recorded if call["refused"]]

    async def root_style(self, name: str) -> str:
        value = await self.page.evaluate(
            "name => document.documentElement.style.getPropertyValue(name)", name
        )
        return str(value)


@asynccontextmanager
async def mini_app(
    tmp_path: Path,
    version: str = "8.0",
    platform: str = "tdesktop",
    script: Any = None,
    expected_errors: str = "",
    theme: dict[str, str] | None = None,
) -> AsyncIterator[MiniApp]:
    """A seated player's page opened as Telegram opens the Mini App, connected to its table;
    ``script``, when given, answers the request for Telegram's script instead of the double.
    The page logs no error but ``expected_errors`` (a pattern)."""
    async with site(tmp_path) as run, chromium() as browser:
        run.clock.now = time.time()  # launch data is signed at the real time
        table = await run.table([USER])
        context = await players_context(browser)
        url = launch_url(run.url, TOKEN, USER, table.id, version, platform, theme)
        player = await open_page(context, "about:blank", 0)
        if script is not None:
            await player.page.route(TELEGRAM_SCRIPT, script)
        # Not its load event: a script that never comes holds that up, not the page.
        await player.page.goto(url, wait_until="domcontentloaded")
        app = MiniApp(player.page, url)
        await app.status("connected")
        yield app
        errors = player.frames.errors
        assert [e for e in errors if not (expected_errors and re.search(expected_errors, e))] == []


def launch_of(url: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).fragment))


async def test_the_script_reads_the_launch_before_the_page_clears_the_address(
    tmp_path: Path,
) -> None:
    async with mini_app(tmp_path, "8.0", "tdesktop") as app:
        sent = launch_of(app.url)
        seen = await app.page.evaluate(
            """() => ({
                initData: Telegram.WebApp.initData,
                user: Telegram.WebApp.initDataUnsafe.user,
                version: Telegram.WebApp.version,
                platform: Telegram.WebApp.platform,
                load: window.__telegramLoad,
                hash: location.hash,
            })"""
        )
        assert seen["initData"] == sent["tgWebAppData"]
        assert seen["user"]["id"] == USER
        assert (seen["version"], seen["platform"]) == ("8.0", "tdesktop")
        # The page cleared the address only after the script had read it.
        assert seen["hash"] == "" and "#" not in app.page.url
        # The regression: what the script found when it ran. The old page removed the
        # fragment before the script ran, and the script read "" here.
        assert seen["load"]["hash"] == "#" + urllib.parse.urlsplit(app.url).fragment
        assert "tgWebAppData=" in seen["load"]["hash"]
        assert seen["load"]["version"] == "8.0"
        assert await app.refusals() == []


async def test_telegrams_dark_theme_from_the_launch_reaches_the_page(tmp_path: Path) -> None:
    theme = {"bg_color": "#17212b", "text_color": "#f5f5f5", "button_color": "#5288c1"}
    async with mini_app(tmp_path, "8.0", "android", theme=theme) as app:
        seen = await app.page.evaluate(
            f"""async () => {{
                const platform = await {PLATFORM};
                const root = document.documentElement;
                return {{
                    scheme: Telegram.WebApp.colorScheme,
                    theme: Telegram.WebApp.themeParams,
                    dark: platform.dark,
                    data: root.dataset.scheme,
                    css: root.style.getPropertyValue("--tg-theme-bg-color"),
                }};
            }}"""
        )
        assert seen == {
            "scheme": "dark",
            "theme": theme,
            "dark": True,
            "data": "dark",
            "css": "#17212b",
        }


@pytest.mark.parametrize(
    ("platform", "fullscreen"), [("ios", True), ("android", True), ("tdesktop", False)]
)
async def test_what_the_page_asks_of_telegram_8_0_on_each_platform(
    tmp_path: Path, platform: str, fullscreen: bool
) -> None:
    async with mini_app(tmp_path, "8.0", platform) as app:
        want = [name for name in STARTUP if fullscreen or name != "requestFullscreen"]
        calls = await app.calls()
        started = calls[: len(want) + len(COLOURS)]
        assert [call["name"] for call in started] == want + COLOURS
        assert [call["args"] for call in started[-2:]] == [[FELT], [FELT]]
        assert await app.refusals() == []
        # What the double posted to the app, as Telegram's script would have.
        posted = await app.page.evaluate("window.__telegramPosted")
        told = [(p["eventType"], p["eventData"]) for p in posted]
        assert ("web_app_setup_swipe_behavior", {"allow_vertical_swipe": False}) in told
        assert ("web_app_set_header_color", {"color": FELT}) in told
        assert ("web_app_set_background_color", {"color": FELT}) in told
        assert any(p["eventType"] == "web_app_request_fullscreen" for p in posted) == fullscreen
        root = await app.page.evaluate(
            "[document.documentElement.classList.contains('telegram'),"
            " document.documentElement.dataset.scheme]"
        )
        assert root == [True, "light"]


async def test_a_telegram_of_6_0_is_never_asked_for_what_it_lacks(tmp_path: Path) -> None:
    # The test's own call of requestFullscreen below is refused with an error, as Telegram's.
    refusal = r"^\[Telegram\.WebApp\] Method requestFullscreen is not supported in version 6\.0$"
    async with mini_app(tmp_path, "6.0", "android", expected_errors=refusal) as app:
        await app.drawn()  # render.js has asked for its haptics and closing confirmation
        # Everything the page can ask for, asked again.
        await app.page.evaluate(
            f"""async () => {{
                const platform = await {PLATFORM};
                for (const kind of ["turn", "illegal", "trick", "tap"]) platform.haptic(kind);
                platform.setBack(() => {{}});
                platform.setBack(null);
                platform.confirmClose(true);
                platform.confirmClose(false);
            }}"""
        )
        calls = await app.calls()
        assert [call["name"] for call in calls] == ["ready", "expand"]
        assert not {call["name"] for call in calls} & NEWER
        assert await app.refusals() == []
        assert await app.page.evaluate("Telegram.WebApp.version") == "6.0"
        assert await app.page.evaluate("Telegram.WebApp.initData") != ""
        assert await app.root_style("--sahra-inset-top") == ""  # no safe areas before 8.0
        # The double does refuse these at 6.0, as Telegram does: a warning, or a throw.
        refused = await app.page.evaluate(
            """() => {
                Telegram.WebApp.HapticFeedback.impactOccurred("medium");
                Telegram.WebApp.BackButton.show();
                Telegram.WebApp.enableClosingConfirmation();
                Telegram.WebApp.disableVerticalSwipes();
                try { Telegram.WebApp.requestFullscreen(); } catch (error) {}
                return window.__telegramCalls.filter((call) => call.refused)
                    .map((call) => [call.name, call.refused]);
            }"""
        )
        assert refused == [
            ["HapticFeedback.impactOccurred", "warn"],
            ["BackButton.show", "warn"],
            ["enableClosingConfirmation", "warn"],
            ["disableVerticalSwipes", "warn"],
            ["requestFullscreen", "throw"],
        ]
        posted = await app.page.evaluate("window.__telegramPosted.map((p) => p.eventType)")
        assert "web_app_trigger_haptic_feedback" not in posted


async def test_haptics_back_button_closing_and_activation_reach_telegram(tmp_path: Path) -> None:
    async with mini_app(tmp_path, "8.0", "ios") as app:
        await app.drawn()
        seen = await app.page.evaluate(
            f"""async () => {{
                const platform = await {PLATFORM};
                const app = Telegram.WebApp;
                const from = window.__telegramCalls.length;
                const done = () => window.__telegramCalls.slice(from)
                    .filter((call) => call.name.includes("."))
                    .map((call) => [call.name, call.args]);
                const seen = {{inside: platform.inside, platform: platform.platform,
                               version: platform.version, dark: platform.dark}};
                for (const kind of ["turn", "illegal", "trick", "tap"]) platform.haptic(kind);
                seen.haptics = done();

                let backs = 0;
                const back = window.__telegramCalls.length;
                platform.setBack(() => {{ backs += 1; }});
                window.__telegramEmit("back_button_pressed");
                seen.shown = [app.BackButton.isVisible, backs];
                platform.setBack(null);
                window.__telegramEmit("back_button_pressed");
                seen.hidden = [app.BackButton.isVisible, backs];
                seen.back = window.__telegramCalls.slice(back).map((call) => call.name)
                    .filter((name) => name.startsWith("BackButton."));

                const closing = app.isClosingConfirmationEnabled;
                const mark = window.__telegramCalls.length;
                platform.confirmClose(!closing);
                platform.confirmClose(!closing);  // told once
                platform.confirmClose(closing);
                const asked = window.__telegramCalls.slice(mark).map((call) => call.name)
                    .filter((name) => name.endsWith("ClosingConfirmation"));
                seen.closing = [closing, asked];

                let active = 0;
                platform.onActivated(() => {{ active += 1; }});
                window.__telegramEmit("visibility_changed", {{is_visible: false}});
                window.__telegramEmit("visibility_changed", {{is_visible: true}});
                seen.active = active;
                return seen;
            }}"""
        )
        assert seen["inside"] is True
        assert (seen["platform"], seen["version"], seen["dark"]) == ("ios", "8.0", False)
        assert seen["haptics"] == [
            ["HapticFeedback.impactOccurred", ["medium"]],
            ["HapticFeedback.notificationOccurred", ["error"]],
            ["HapticFeedback.notificationOccurred", ["success"]],
            ["HapticFeedback.selectionChanged", []],
        ]
        assert seen["shown"] == [True, 1]
        assert seen["hidden"] == [False, 1]  # hidden, and its handler gone
        assert seen["back"] == [
            "BackButton.onClick",
            "BackButton.show",
            "BackButton.offClick",
            "BackButton.hide",
        ]
        closing, asked = seen["closing"]
        on, off = "enableClosingConfirmation", "disableClosingConfirmation"
        assert asked == ([off, on] if closing else [on, off])
        assert seen["active"] == 1
        assert await app.refusals() == []


async def test_telegram_viewport_and_safe_areas_reach_the_sahra_variables(tmp_path: Path) -> None:
    async with mini_app(tmp_path, "8.0", "ios") as app:
        # Until Telegram says otherwise its script gives the window's height.
        assert await app.root_style("--sahra-height") == "844px"
        for side in ("top", "right", "bottom", "left"):
            assert await app.root_style(f"--sahra-inset-{side}") == "0px"

        emit = "([type, data]) => window.__telegramEmit(type, data)"
        stable = {"height": 700, "is_state_stable": True, "is_expanded": True}
        await app.page.evaluate(emit, ["viewport_changed", stable])
        assert await app.root_style("--sahra-height") == "700px"
        assert await app.root_style("--tg-viewport-stable-height") == "700px"
        # The sheet being dragged: the height moves, the stable height does not.
        moving = {"height": 560, "is_state_stable": False, "is_expanded": True}
        await app.page.evaluate(emit, ["viewport_changed", moving])
        assert await app.root_style("--tg-viewport-height") == "560px"
        assert await app.root_style("--sahra-height") == "700px"

        safe = {"top": 59, "bottom": 34, "left": 0, "right": 0}
        await app.page.evaluate(emit, ["safe_area_changed", safe])
        assert await app.root_style("--sahra-inset-top") == "59px"
        assert await app.root_style("--sahra-inset-bottom") == "34px"
        content = {"top": 46, "bottom": 0, "left": 2, "right": 3}
        await app.page.evaluate(emit, ["content_safe_area_changed", content])
        insets = [
            await app.root_style(f"--sahra-inset-{side}")
            for side in ("top", "right", "bottom", "left")
        ]
        assert insets == ["105px", "3px", "34px", "2px"]
        assert await app.root_style("--tg-content-safe-area-inset-top") == "46px"

        await app.page.evaluate(emit, ["fullscreen_changed", {"is_fullscreen": True}])
        assert await app.page.evaluate("Telegram.WebApp.isFullscreen") is True
        assert await app.root_style("--sahra-inset-top") == "105px"

        scheme = "document.documentElement.dataset.scheme"
        await app.page.evaluate(emit, ["theme_changed", {"theme_params": {"bg_color": "#17212b"}}])
        assert await app.page.evaluate(scheme) == "dark"
        await app.page.evaluate(emit, ["theme_changed", {"theme_params": {"bg_color": "#ffffff"}}])
        assert await app.page.evaluate(scheme) == "light"


async def test_outside_telegram_the_page_sets_nothing_of_telegram(tmp_path: Path) -> None:
    async with site(tmp_path) as run, chromium() as browser:
        context = await players_context(browser)
        asked: list[str] = []
        context.on("request", lambda request: asked.append(request.url))
        player = await open_page(context, f"{run.url}/?table=1", 0)
        app = MiniApp(player.page, run.url)
        await app.status("failed")  # no launch data: the page says to open it from the chat
        assert not [url for url in asked if "telegram.org" in url]
        assert await app.page.evaluate("window.Telegram === undefined")
        assert (
            await app.page.evaluate("document.documentElement.classList.contains('telegram')")
            is False
        )
        assert await app.root_style("--sahra-height") == ""
        assert await app.root_style("--sahra-inset-top") == ""


async def test_the_page_goes_on_when_telegrams_script_fails_to_load(tmp_path: Path) -> None:
    async def unreachable(route: Any) -> None:
        await route.abort("internetdisconnected")

    failed = "ERR_INTERNET_DISCONNECTED"  # the browser's note of the failed request
    async with mini_app(tmp_path, "8.0", "ios", unreachable, failed) as app:
        assert await app.page.evaluate("window.Telegram === undefined")
        assert (
            await app.page.evaluate("document.documentElement.classList.contains('telegram')")
            is False
        )
        assert await app.root_style("--sahra-height") == ""
        assert "#" not in app.page.url


async def test_the_page_goes_on_when_telegrams_script_never_answers(tmp_path: Path) -> None:
    held: list[Any] = []  # the request for the script, never answered

    async def hang(route: Any) -> None:
        held.append(route)

    async with mini_app(tmp_path, "8.0", "ios", script=hang) as app:
        assert held  # asked for, never answered: the page waited its 4 s and went on
        assert await app.page.evaluate("window.Telegram === undefined")
        assert "#" not in app.page.url
