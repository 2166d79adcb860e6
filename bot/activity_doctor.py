"""``sahra doctor``'s checks of a Discord Activity (``SAHRA_DISCORD_ACTIVITY``).

An Activity signs players in with OAuth2's code flow, so a wrong client secret or an
application id that is not the bot's own would only show when the first player opens the
table inside Discord. These checks find it before: the settings are whole, Discord's token
endpoint accepts the client id and secret, and the bot token belongs to that application.

The secret is only ever sent to the token endpoint: a check's line names the client id,
never the secret, and quotes no more of Discord's answer than its ``error`` code.
"""

from __future__ import annotations

from typing import Any

import aiohttp

from bot.settings import Settings

WARNING = "warning: "  # an ok check's detail that an operator should still read
# A code Discord never issued: the endpoint judges the client before the code, so an
# answer of invalid_grant means the id and secret passed, and nothing is authorised.
PROBE_CODE = "sahra-doctor-probe"


async def activity_checks(
    http: aiohttp.ClientSession, settings: Settings
) -> list[tuple[str, bool, str]]:
    checks = [_settings_check(settings)]
    if settings.discord_client_id is None:
        return checks
    if settings.discord_client_secret is not None:
        checks.append(await _token_check(http, settings))
    if settings.discord_token is not None:
        checks.append(await _application_check(http, settings))
    return checks


def _settings_check(settings: Settings) -> tuple[str, bool, str]:
    missing = [
        name
        for name, value in (
            ("SAHRA_DISCORD_CLIENT_ID", settings.discord_client_id),
            ("SAHRA_DISCORD_CLIENT_SECRET", settings.discord_client_secret),
            ("SAHRA_WEB_URL", settings.web_url),
        )
        if value is None
    ]
    if missing:
        return ("activity", False, f"needs {', '.join(missing)}")
    url = settings.web_url or ""
    if not url.startswith("https://"):
        return (
            "activity",
            True,
            f"{WARNING}SAHRA_WEB_URL is {url}: Discord's URL mapping needs an https:// host"
            " (a tunnel for local use, docs/discord-activity.md)",
        )
    return ("activity", True, f"client id {settings.discord_client_id}, the table at {url}")


async def _token_check(http: aiohttp.ClientSession, settings: Settings) -> tuple[str, bool, str]:
    """OAuth2's token endpoint with the client id and secret and a code it never issued."""
    assert settings.discord_client_secret is not None
    form = {
        "client_id": str(settings.discord_client_id),
        "client_secret": settings.discord_client_secret.get_secret_value(),
        "grant_type": "authorization_code",
        "code": PROBE_CODE,
    }
    try:
        async with http.post(f"{settings.discord_api_url}/oauth2/token", data=form) as response:
            status, error = response.status, _error(await _json(response))
    except (TimeoutError, aiohttp.ClientError) as failure:
        return ("oauth2", False, f"unreachable: {type(failure).__name__}")
    if status == 400 and error == "invalid_grant":
        return ("oauth2", True, "the client id and secret are accepted (the probe code is not)")
    if status == 401 and error == "invalid_client":
        return (
            "oauth2",
            False,
            "HTTP 401 invalid_client: wrong SAHRA_DISCORD_CLIENT_ID or"
            " SAHRA_DISCORD_CLIENT_SECRET (Developer Portal → OAuth2)",
        )
    return ("oauth2", False, f"HTTP {status} {error or 'unexpected answer'}")


async def _application_check(
    http: aiohttp.ClientSession, settings: Settings
) -> tuple[str, bool, str]:
    """The bot token's application is the Activity's: one application, one id."""
    assert settings.discord_token is not None
    headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value()}"}
    url = f"{settings.discord_api_url}/applications/@me"
    try:
        async with http.get(url, headers=headers) as response:
            status, body = response.status, await _json(response)
    except (TimeoutError, aiohttp.ClientError) as failure:
        return ("app", False, f"unreachable: {type(failure).__name__}")
    if status != 200:
        return ("app", False, f"HTTP {status} (is SAHRA_DISCORD_TOKEN right?)")
    found = str(body.get("id", "?"))
    if found != str(settings.discord_client_id):
        return (
            "app",
            False,
            f"the bot token is application {found}, SAHRA_DISCORD_CLIENT_ID is"
            f" {settings.discord_client_id}: the bot and the Activity must be one application",
        )
    return ("app", True, f"the bot and the Activity are application {found}")


async def _json(response: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        body = await response.json(content_type=None)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _error(body: dict[str, Any]) -> str:
    error = body.get("error")
    return error if isinstance(error, str) else ""
