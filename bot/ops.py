"""Operator commands: ``sahra doctor``, ``sahra tables``, ``sahra export``, ``sahra backup``.

They read the same SQLite file the bot writes (WAL lets them run while it does), and an
export holds everything needed to replay a match: variant, options, seed, stacked decks
and the action log in order.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp

from bot.settings import Settings
from bot.tables.config import TableConfig
from storage.database import Database
from storage.schema import SCHEMA_VERSION

Check = tuple[str, bool, str]


async def live_tables(db: Database) -> list[dict[str, Any]]:
    rows = await db.fetchall(
        "SELECT id, platform, chat, thread, variant, status, seq, created_at, updated_at"
        " FROM tables WHERE status IN ('lobby', 'running') ORDER BY id"
    )
    return [dict(row) for row in rows]


async def export_table(db: Database, table_id: int) -> dict[str, Any]:
    """The match log as JSON-ready data; ``KeyError`` if there is no such table."""
    rows = await db.fetchall("SELECT * FROM tables WHERE id = ?", (table_id,))
    if not rows:
        raise KeyError(table_id)
    row = rows[0]
    config = TableConfig.model_validate_json(row["config"])
    actions = await db.fetchall(
        "SELECT seq, seat, action, source, at FROM actions WHERE table_id = ? ORDER BY seq",
        (table_id,),
    )
    result = await db.fetchall("SELECT * FROM results WHERE table_id = ?", (table_id,))
    return {
        "table": table_id,
        "platform": row["platform"],
        "variant": row["variant"],
        "options": config.engine_options(),
        "config": json.loads(row["config"]),
        "seed": row["seed"],
        "decks": json.loads(row["decks"]) if row["decks"] else None,
        "status": row["status"],
        "actions": [
            {
                "seq": action["seq"],
                "seat": action["seat"],
                "action": json.loads(action["action"]),
                "source": action["source"],
                "at": action["at"],
            }
            for action in actions
        ],
        "result": (
            {
                "winners": json.loads(result[0]["winners"]),
                "draw": bool(result[0]["draw"]),
                "scores": json.loads(result[0]["scores"]),
            }
            if result
            else None
        ),
    }


def backup(source: Path, target: Path) -> int:
    """An online backup (SQLite's backup API: consistent while the bot keeps writing).
    Returns the number of pages copied."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
        pages: int = dst.execute("PRAGMA page_count").fetchone()[0]
    return pages


async def doctor(settings: Settings, timeout: float = 10.0) -> list[Check]:
    """Settings (already valid if we got here), the database, and each token's API."""
    checks: list[Check] = [("settings", True, "valid")]
    try:
        async with Database.open(settings.database) as db:
            version = (await db.fetchall("PRAGMA user_version"))[0][0]
            integrity = (await db.fetchall("PRAGMA quick_check"))[0][0]
            tables = len(await live_tables(db))
        ok = version == SCHEMA_VERSION and integrity == "ok"
        checks.append(
            ("database", ok, f"{settings.database}: schema {version}, {integrity}, {tables} live")
        )
    except Exception as error:  # any failure is a finding to report, not a crash
        checks.append(("database", False, f"{settings.database}: {error}"))
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http:
        if settings.telegram_token is not None:
            base = settings.telegram_api_url or "https://api.telegram.org/bot"
            url = f"{base}{settings.telegram_token.get_secret_value()}/getMe"
            checks.append(await _probe(http, "telegram", url, {}))
        if settings.discord_token is not None:
            url = f"{settings.discord_api_url}/users/@me"
            headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value()}"}
            checks.append(await _probe(http, "discord", url, headers))
    return checks


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
