"""Operator commands: ``sahra doctor``, ``sahra tables``, ``sahra export``, ``sahra ratings``,
``sahra backup``.

They read the same SQLite file the bot writes (WAL lets them run while it does), and an
export holds everything needed to replay a match: variant, options, seed, stacked decks
and the action log in order.
"""

from __future__ import annotations

import dataclasses
import json
import socket
from typing import Any

import aiohttp

from bot.activity_doctor import activity_checks
from bot.league.service import League
from bot.settings import Settings
from bot.tables.config import TableConfig
from storage.backend import Backend
from storage.opening import open_backend
from storage.postgres import redacted
from storage.store import Store

Check = tuple[str, bool, str]


async def live_tables(db: Backend) -> list[dict[str, Any]]:
    return [dataclasses.asdict(summary) for summary in await Store(db).table_summaries()]


async def ratings(db: Backend, *, rebuild: bool = False) -> tuple[int, int]:
    """Count the finished matches not counted yet (``rebuild``: forget the league and
    count every one again, in the order they finished); (matches counted, ratings)."""
    league = League(Store(db))
    counted = await (league.rebuild() if rebuild else league.catch_up())
    return counted, len(await league.games.all_ratings())


async def export_table(db: Backend, table_id: int) -> dict[str, Any]:
    """The match log as JSON-ready data; ``KeyError`` if there is no such table."""
    store = Store(db)
    stored = await store.load_table(table_id)
    if stored is None:
        raise KeyError(table_id)
    row = stored.table
    config = TableConfig.model_validate_json(row.config)
    result = await store.result(table_id)
    return {
        "table": table_id,
        "platform": row.platform,
        "variant": row.variant,
        "options": config.engine_options(),
        "config": json.loads(row.config),
        "seed": row.seed,
        "decks": row.decks,
        "status": row.status,
        "actions": [
            {
                "seq": action.seq,
                "seat": action.seat,
                "action": action.action,
                "source": action.source,
                "at": action.at,
            }
            for action in stored.actions
        ],
        "result": (
            {"winners": result.winners, "draw": result.draw, "scores": result.scores}
            if result is not None
            else None
        ),
    }


async def doctor(settings: Settings, timeout: float = 10.0) -> list[Check]:
    """Settings (already valid if we got here), the database, each token's API, and with
    an Activity its OAuth2 client and application (``bot/activity_doctor.py``)."""
    checks: list[Check] = [("settings", True, "valid")]
    url = settings.database_address()
    where = redacted(url) if url else str(settings.database)
    try:
        async with open_backend(settings.database, url) as db:
            store = Store(db)
            version = await store.schema_version()
            integrity = await store.integrity()
            tables = len(await store.table_summaries())
            expected = store.current_schema()
        ok = version == expected and integrity == "ok"
        checks.append(("database", ok, f"{where}: schema {version}, {integrity}, {tables} live"))
    except Exception as error:  # any failure is a finding to report, not a crash
        checks.append(("database", False, f"{where}: {error}"))
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http:
        if settings.telegram_token is not None:
            base = settings.telegram_api_url or "https://api.telegram.org/bot"
            url = f"{base}{settings.telegram_token.get_secret_value()}/getMe"
            checks.append(await _probe(http, "telegram", url, {}))
        if settings.discord_token is not None:
            url = f"{settings.discord_api_url}/users/@me"
            headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value()}"}
            checks.append(await _probe(http, "discord", url, headers))
        if settings.discord_activity:
            checks += await activity_checks(http, settings)
        if settings.web_url:
            checks.append(await _web_check(http, settings))
    return checks


async def _web_check(http: aiohttp.ClientSession, settings: Settings) -> Check:
    """The web table: its page ships with the package, and its port is free to listen on
    (or already serves a running Sahra's page)."""
    from bot.web.server import STATIC

    if not (STATIC / "index.html").is_file():
        return ("web", False, f"the page is missing from the package ({STATIC})")
    host, port = settings.web_listen, settings.web_port
    try:
        with socket.create_server((host, port)):
            pass
    except OSError:
        try:
            # a local port answers at once when it answers at all
            local = aiohttp.ClientTimeout(total=2)
            async with http.get(f"http://{host}:{port}/healthz", timeout=local) as response:
                served = response.status == 200 and await response.text() == "ok"
        except (TimeoutError, aiohttp.ClientError):
            served = False
        if not served:
            return ("web", False, f"{host}:{port} is taken by another program")
        return ("web", True, f"{settings.web_url} served on {host}:{port} (running)")
    return ("web", True, f"{settings.web_url} will be served on {host}:{port}")


async def _probe(
    http: aiohttp.ClientSession, name: str, url: str, headers: dict[str, str]
) -> Check:
    try:
        async with http.get(url, headers=headers) as response:
            body = await response.json(content_type=None)
    except (TimeoutError, aiohttp.ClientError, ValueError) as error:
        return (name, False, f"unreachable: {type(error).__name__}")
    if response.status != 200:
        return (name, False, f"HTTP {response.status} (is the token right?)")
    user = body.get("result", body) if isinstance(body, dict) else {}
    return (name, True, f"reachable as {user.get('username', '?')}")
