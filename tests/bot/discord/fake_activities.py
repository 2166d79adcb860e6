"""The Discord REST endpoints an Activity's server calls, faked as Discord documents them.

Mounted on the fake Discord (``FakeDiscord.routes``), so the bot's one API base serves them:

- ``POST /oauth2/token`` (form-encoded, as OAuth2 is): the client id and secret must be the
  application's (else 401 ``invalid_client``); the code must be one this fake issued for
  that client and not used yet (else 400 ``invalid_grant``): codes are single-use, as
  Discord's are. Answers ``access_token``, ``expires_in`` and ``scope``.
- ``GET /users/@me`` with a ``Bearer`` token: the user the token was issued to; an expired or
  unknown token is 401. (The bot's own ``Bot`` token is the fake Discord's to answer.)
- ``GET /applications/{app}/activity-instances/{instance}`` with the bot's token: the
  instance's location (its channel and guild) and its users; 404 for an unknown instance.

A test issues codes as Discord's client would after AUTHORIZE (``issue_code``), puts users
in instances (``instances``), and can make any step answer 429 with a ``retry_after``
(``limited``). Every call is recorded (``calls``), the secret never in it.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.bot.discord.fake_discord import APP_ID, CHANNEL, GUILD

CLIENT_SECRET = "fake-client-secret-0123456789"
BOT_TOKEN = "fake-token"


@dataclass
class Instance:
    channel: int = CHANNEL
    guild: int = GUILD
    users: set[int] = field(default_factory=set)


@dataclass
class FakeActivities:
    instances: dict[str, Instance] = field(default_factory=dict)
    codes: dict[str, tuple[int, int]] = field(default_factory=dict)  # code -> (client, user)
    tokens: dict[str, tuple[int, float]] = field(default_factory=dict)  # -> (user, expires)
    used: set[str] = field(default_factory=set)  # codes exchanged already
    # step ("token", "user", "instance") -> retry_after seconds, answered 429 once each
    limited: dict[str, list[float]] = field(default_factory=dict)
    calls: list[tuple[str, int]] = field(default_factory=list)  # (step, status)
    token_seconds: float = 604_800.0

    def issue_code(self, user: int, client: int = APP_ID) -> str:
        """What Discord's client hands the page after AUTHORIZE: a one-time code."""
        code = secrets.token_urlsafe(18)
        self.codes[code] = (client, user)
        return code

    def expire_tokens(self) -> None:
        self.tokens = {token: (user, 0.0) for token, (user, _) in self.tokens.items()}

    async def route(self, request: web.Request, path: str) -> web.Response | None:
        authorization = request.headers.get("Authorization", "")
        parts = path.strip("/").split("/")
        if path == "/oauth2/token" and request.method == "POST":
            step = "token"
        elif path == "/users/@me" and authorization.startswith("Bearer "):
            step = "user"
        elif len(parts) == 4 and parts[0] == "applications" and parts[2] == "activity-instances":
            step = "instance"
        else:
            return None
        waits = self.limited.get(step)
        if waits:  # refused before anything is read or spent, as a rate limit is
            retry_after = waits.pop(0)
            self.calls.append((step, 429))
            return web.json_response(
                {"message": "You are being rate limited.", "retry_after": retry_after},
                status=429,
                headers={"Retry-After": str(max(1, round(retry_after)))},
            )
        if step == "token":
            status, body = await self._token(request)
        elif step == "user":
            status, body = self._user(authorization.removeprefix("Bearer "))
        else:
            status, body = self._instance(parts[1], parts[3], authorization)
        self.calls.append((step, status))
        return web.json_response(body, status=status)

    async def _token(self, request: web.Request) -> tuple[int, dict[str, Any]]:
        form = await request.post()
        if form.get("client_id") != str(APP_ID) or form.get("client_secret") != CLIENT_SECRET:
            return 401, {"error": "invalid_client"}
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        code = str(form.get("code", ""))
        issued = self.codes.get(code)
        if issued is None or code in self.used or issued[0] != APP_ID:
            return 400, {
                "error": "invalid_grant",
                "error_description": 'Invalid "code" in request.',
            }
        self.used.add(code)
        token = secrets.token_urlsafe(24)
        self.tokens[token] = (issued[1], time.time() + self.token_seconds)
        return 200, {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": int(self.token_seconds),
            "refresh_token": secrets.token_urlsafe(24),
            "scope": "identify",
        }

    def _user(self, token: str) -> tuple[int, dict[str, Any]]:
        found = self.tokens.get(token)
        if found is None or found[1] <= time.time():
            return 401, {"message": "401: Unauthorized", "code": 0}
        user = found[0]
        return 200, {
            "id": str(user),
            "username": f"player{user}",
            "global_name": f"Player {user}",
            "discriminator": "0",
            "avatar": None,
            "locale": "en-US",
        }

    def _instance(self, app: str, instance: str, authorization: str) -> tuple[int, dict[str, Any]]:
        if authorization != f"Bot {BOT_TOKEN}" or app != str(APP_ID):
            return 401, {"message": "401: Unauthorized", "code": 0}
        found = self.instances.get(instance)
        if found is None:
            return 404, {"message": "Unknown Activity Instance", "code": 10070}
        return 200, {
            "application_id": str(APP_ID),
            "instance_id": instance,
            "launch_id": "1",
            "location": {
                "id": f"gc-{found.guild}-{found.channel}",
                "kind": "gc",
                "channel_id": str(found.channel),
                "guild_id": str(found.guild),
            },
            "users": [str(user) for user in sorted(found.users)],
        }
