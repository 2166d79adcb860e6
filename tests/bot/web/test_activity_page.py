"""A Discord table played inside Discord, as an Activity, in Chromium: the real vendored SDK
in the page, a harness playing the Discord client around it over postMessage, Discord's
proxy (TLS, the application's discordsays.com origin, the page under ``/.proxy/`` and
``/``), the real discord.py bot against the fake Discord with its OAuth2 and
activity-instance endpoints, and the real web table.

Four people in the channel's Activity play a whole Syrian 41 deal from their pages while a
fifth watches; no page is ever sent another seat's card; the channel's table message
changes only per trick and at the deal's result. A channel with no table is offered one.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlsplit

from tests.bot.discord.conftest import Guild
from tests.bot.discord.fake_activities import Instance
from tests.bot.discord.fake_discord import CHANNEL
from tests.bot.discord.test_e2e import open_table
from tests.bot.support import until
from tests.bot.web.activity_pages import InFrame, discord
from tests.bot.web.discord_proxy import HOST
from tests.bot.web.pages import caught_up, hidden_cards_seen, play_until, tap

SEATED = [401, 402, 403, 404]
WATCHER = 405


def deal_over(guild: Guild) -> bool:
    table = guild.table()
    return table.match is None or table.match.deal_number > 1 or table.match.result is not None


async def test_four_players_play_a_deal_inside_discord_while_a_fifth_watches(
    tmp_path: Path,
) -> None:
    async with discord(tmp_path) as run:
        guild = run.guild
        await open_table(guild, "syrian41", SEATED)
        table = guild.table()
        run.activities.instances["i-1"] = Instance(users={*SEATED, WATCHER})
        launched = time.monotonic()
        players = []
        for index, user in enumerate(SEATED):
            # One page through the proxy's prefix, the others at the root, as Discord may.
            player = await run.launch(user, prefix="/" if index == 0 else "/.proxy/")
            player.seat = table.seat_of(str(user)) or 0
            players.append(player)
        for player in players:
            state = await caught_up(player)
            assert state["you"] == player.seat and len(state["hand"]) == 13
        print(f"launch to four tables drawn: {time.monotonic() - launched:.2f} s")
        watcher = await run.launch(WATCHER)
        seen = await caught_up(watcher)
        assert seen["you"] is None and seen["hand"] == []
        # Each page signed in through the SDK with the server's token, and was let in by
        # Discord's origin only (the proxy forwarded the page's own Origin).
        for player in [*players, watcher]:
            client = await player.page.tab.evaluate("window.discordClient.authenticated")
            assert client is True
        assert run.proxy.html_cache_stripped > 0 and run.proxy.sockets >= 5

        writes_before = len(guild.fake.writes())
        taps = await play_until(players, lambda: deal_over(guild), guild.settle)
        await guild.settle()
        writes = guild.fake.writes()[writes_before:]
        assert taps >= 13 * 4
        assert not hidden_cards_seen([*players, watcher], guild.path, table.id)
        channel = [w for w in writes if w[1].startswith(f"/channels/{CHANNEL}/")]
        print(f"Discord writes in the deal: {len(writes)} ({len(channel)} in the channel)")
        assert len(writes) <= 15, [(m, p) for m, p, _ in writes]
        for player in [*players, watcher]:
            assert not player.frames.errors, player.frames.errors
        # No host but the Activity's own was asked for anything (Discord's CSP would block
        # it): the SDK is vendored, the socket goes through the proxy.
        hosts = {urlsplit(url).netloc for url in run.requested}
        assert hosts == {HOST}, hosts


async def test_the_app_launcher_in_a_channel_without_a_table_offers_to_start_one(
    tmp_path: Path,
) -> None:
    async with discord(tmp_path) as run:
        host, guest = SEATED[0], SEATED[1]
        run.activities.instances["i-9"] = Instance(users={host, guest})
        player = await run.launch(host, "i-9", platform="mobile")
        frame = player.page
        # Offered in the operator's language (Arabic), the table started in English.
        english = frame.get_by_role("button", name="English", exact=True)
        await english.click()
        assert await english.get_attribute("aria-pressed") == "true"
        await frame.get_by_role("button", name="طرنيب سوري 41").click()
        manager = run.guild.bot.manager
        await until(lambda: manager.table_at(Guild.table_place()) is not None, "the table")
        table = manager.table_at(Guild.table_place())
        assert table.config.language == "en" and table.variant == "syrian41"
        assert (await caught_up(player))["you"] == 0
        # The lobby from the pages: a guest takes a seat, computers fill the rest, start.
        other = await run.launch(guest, "i-9")
        await tap(other, "command", "Join")
        await until(lambda: table.seat_of(str(guest)) is not None, "the guest seated")
        for filled in (3, 4):
            await caught_up(player)
            await tap(player, "command", "Add computer")
            await until(lambda f=filled: 4 - len(table.free_seats()) == f, "a computer seated")
        await caught_up(player)
        await tap(player, "command", "Start")
        await until(lambda: table.status == "running", "the table started")
        await until(lambda: len(player.state().get("hand") or []) == 13, "the hand dealt")
        await caught_up(player)
        said = await frame.tab.evaluate("window.discordClient.log.map(([command]) => command)")
        assert said[:3] == ["HANDSHAKE", "AUTHORIZE", "AUTHENTICATE"]
        assert "SET_ORIENTATION_LOCK_STATE" in said  # a phone: held upright
        subscribed = await frame.tab.evaluate("[...window.discordClient.subscribed]")
        assert "ACTIVITY_LAYOUT_MODE_UPDATE" in subscribed
        # Picture-in-picture: the compact view; focused again: the whole table.
        await frame.tab.evaluate("window.discordClient.setLayout(1)")
        await until_layout(frame, "compact")
        assert await frame.locator("#hand").is_hidden()  # the tile shows the trick only
        await frame.tab.evaluate("window.discordClient.setLayout(0)")
        await until_layout(frame, "focused")
        assert await frame.locator("#hand").is_visible()


async def until_layout(frame: InFrame, layout: str) -> None:
    async def shows() -> bool:
        return bool(
            await frame.evaluate(f"document.documentElement.dataset.layout === '{layout}'")
        )

    await until(shows, f"the {layout} layout")
