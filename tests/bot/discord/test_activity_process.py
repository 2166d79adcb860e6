"""``sahra run`` with the Activity on, as an operator starts it from the settings alone,
against the fake Discord: the start-up sync gives the application its Entry Point command,
the table message's button launches the Activity, and a page in the Activity's instance is
seated from a code Discord issued, through the proxy's ``/.proxy/`` prefix and Discord's
origin; the client secret never reaches the log."""

from __future__ import annotations

import os
from pathlib import Path

import aiohttp

from tests.bot.discord.conftest import buttons
from tests.bot.discord.fake_activities import BOT_TOKEN, CLIENT_SECRET, FakeActivities, Instance
from tests.bot.discord.fake_discord import APP_ID, CHANNEL, FakeDiscord
from tests.bot.test_failover import show_logs, spawn, stop_all, text, until
from tests.bot.web.pages import free_port

ALI = 301


async def test_sahra_run_serves_the_activity_from_its_settings(tmp_path: Path) -> None:
    fake, activities = FakeDiscord(), FakeActivities()
    fake.routes.append(activities.route)
    await fake.start()
    port = free_port()
    env = {
        **os.environ,
        "SAHRA_DISCORD_TOKEN": BOT_TOKEN,
        "SAHRA_DISCORD_API_URL": fake.base,
        "SAHRA_DISCORD_ACTIVITY": "1",
        "SAHRA_DISCORD_CLIENT_ID": str(APP_ID),
        "SAHRA_DISCORD_CLIENT_SECRET": CLIENT_SECRET,
        "SAHRA_WEB_URL": "https://table.example.org",
        "SAHRA_WEB_PORT": str(port),
        "SAHRA_WEB_PACE": "0",
        "SAHRA_DATABASE": str(tmp_path / "sahra.sqlite"),
        "SAHRA_LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("SAHRA_TELEGRAM_TOKEN", "SAHRA_DATABASE_URL"):
        env.pop(name, None)
    log = tmp_path / "sahra.log"
    processes = [spawn(env, log)]
    try:
        await until(lambda: "event=bots_started" in text(log), "sahra runs")
        assert [c["type"] for c in fake.commands if c.get("type") == 4] == [4]  # Entry Point
        await fake.answered(await fake.slash(ALI, "new", variant="syrian41"), 15)
        await until(lambda: any(buttons(m) for m in fake.in_channel(CHANNEL)), "the lobby")
        lobby = max(fake.in_channel(CHANNEL), key=lambda m: m.id)
        web = next(c for c, a in buttons(lobby) if a["type"] == "web")
        reply = await fake.answered(await fake.click(ALI, lobby, web), 15)
        assert reply["type"] == 12  # LAUNCH_ACTIVITY: the table opens inside Discord

        activities.instances["i-1"] = Instance(users={ALI})
        hello = {
            "type": "hello",
            "discord": {"code": activities.issue_code(ALI), "instance": "i-1"},
        }
        origin = {"Origin": f"https://{APP_ID}.discordsays.com"}
        async with (
            aiohttp.ClientSession() as http,
            http.ws_connect(f"http://127.0.0.1:{port}/.proxy/ws", headers=origin) as ws,
        ):
            await ws.send_json(hello)
            frames = [await ws.receive_json(timeout=10) for _ in range(2)]
        assert [f["type"] for f in frames] == ["authenticate", "welcome"]
        assert frames[1]["seat"] == 0
        assert CLIENT_SECRET not in text(log) and frames[0]["access_token"] not in text(log)
    finally:
        await stop_all(processes)
        await fake.close()
        show_logs([log])
