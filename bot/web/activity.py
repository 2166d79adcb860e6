"""Who opened the page inside Discord, proven by Discord itself (the Activity's launch).

Inside Discord the page is an Activity: the SDK's handshake, then ``AUTHORIZE`` gives the
page a one-time OAuth2 code. The page sends that code and the activity instance it runs in;
nothing else it says about itself (user id, name, channel) is taken. Here, with the
application's client secret and bot token:

1. the code is exchanged for the user's access token (``POST /oauth2/token``; a code is good
   once, so a replayed one is refused by Discord);
2. the token says who the user is (``GET /users/@me``);
3. the bot token says where the instance is and who is in it (``GET /applications/{id}/
   activity-instances/{instance}``): the user must be one of its users, and the table is the
   one of the instance's channel.

Only then does the page get the session every other launch gets (``Gate``); the access
token goes back to that page alone, for the SDK's ``AUTHENTICATE``. Discord's 429 is
honoured (its ``retry_after``, when short enough to wait for at a page's hello); tokens and
the secret never reach a log line.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.tables.live import Place

log = logging.getLogger("sahra.web")

TIMEOUT = aiohttp.ClientTimeout(total=10.0)
# A hello waits for a 429 this long at most, twice: longer, and the page is told to come
# back (a passing refusal) rather than held with a spinner.
LONGEST_WAIT = 5.0
RETRIES = 2
# Discord ids are snowflakes (decimal); an instance id is Discord's own opaque string.
SNOWFLAKE = re.compile(r"^[0-9]{1,20}$")
INSTANCE = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")


class ActivityRefused(Exception):
    """A launch that proves nothing (``code``: the protocol's; ``reason``: for the log)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(code)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class ActivityLaunch:
    """A Discord user Discord vouched for, in an activity instance in ``place``."""

    user_id: str
    name: str
    locale: str
    place: Place
    instance: str
    access_token: str  # the user's, for the SDK's AUTHENTICATE: never logged


class DiscordActivity:
    """The application's side of the Activity's OAuth2 code flow (``verify``)."""

    def __init__(
        self,
        *,
        api_url: str,
        client_id: int,
        client_secret: str,
        bot_token: str,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._bot = bot_token
        self.sleep = sleep
        self._http: aiohttp.ClientSession | None = None

    @property
    def origin(self) -> str:
        """The page's origin inside Discord: its proxy's host for this application."""
        return f"https://{self.client_id}.discordsays.com"

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    async def verify(self, code: str, instance: str) -> ActivityLaunch:
        """The launch ``code`` and ``instance`` the page sent, proven; ``ActivityRefused``
        otherwise (never a launch taken on the page's word)."""
        if not INSTANCE.match(instance):
            raise ActivityRefused("bad_activity", "instance_malformed")
        token = await self._exchange(code)
        user = await self._call("GET", "/users/@me", f"Bearer {token}", "user")
        user_id = str(user.get("id", ""))
        if not SNOWFLAKE.match(user_id):
            raise ActivityRefused("bad_activity", "user_malformed")
        found = await self._call(
            "GET",
            f"/applications/{self.client_id}/activity-instances/{instance}",
            f"Bot {self._bot}",
            "instance",
        )
        location = found.get("location")
        users = found.get("users")
        if not isinstance(location, dict) or not isinstance(users, list):
            raise ActivityRefused("bad_activity", "instance_malformed")
        if user_id not in {str(member) for member in users}:
            raise ActivityRefused("not_in_activity", "user_not_in_instance")
        channel = str(location.get("channel_id") or "")
        if not SNOWFLAKE.match(channel):
            raise ActivityRefused("not_in_activity", "no_channel")
        guild = str(location.get("guild_id") or "")
        name = user.get("global_name") or user.get("username") or user_id
        return ActivityLaunch(
            user_id=user_id,
            name=str(name)[:64],
            locale=str(user.get("locale") or ""),
            place=Place("discord", channel, "", guild),
            instance=instance,
            access_token=token,
        )

    async def _exchange(self, code: str) -> str:
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        answer = await self._call("POST", "/oauth2/token", None, "token", form)
        token = answer.get("access_token")
        if not isinstance(token, str) or not token:
            raise ActivityRefused("bad_activity", "token_malformed")
        return token

    async def _call(
        self,
        method: str,
        path: str,
        authorization: str | None,
        step: str,
        form: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """One REST call, a 429 waited out (its ``retry_after``) up to ``RETRIES`` times."""
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        headers = {"Authorization": authorization} if authorization else {}
        for attempt in range(RETRIES + 1):
            try:
                async with self._http.request(
                    method, self.api_url + path, headers=headers, data=form
                ) as response:
                    status = response.status
                    body = await _json(response)
                    wait = _retry_after(response, body) if status == 429 else 0.0
            except (TimeoutError, aiohttp.ClientError) as error:
                failure = type(error).__name__
                log.error("event=activity_call_failed step=%s error=%s", step, failure)
                raise ActivityRefused("starting", "discord_unreachable") from None
            if status == 429:
                log.warning("event=activity_rate_limited step=%s retry_after=%.2f", step, wait)
                if attempt == RETRIES or wait > LONGEST_WAIT:
                    raise ActivityRefused("starting", "rate_limited")
                await self.sleep(wait)
                continue
            if 200 <= status < 300 and isinstance(body, dict):
                return body
            raise _refusal(step, status, body)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


def _refusal(step: str, status: int, body: Any) -> ActivityRefused:
    """What a failed call means for the page, and one line for the operator when it is the
    installation's fault rather than the page's."""
    error = body.get("error") if isinstance(body, dict) else None
    if (step == "token" and error == "invalid_client") or (step == "instance" and status == 401):
        # The client id, the secret or the bot token is wrong: no page can get in.
        log.error("event=activity_misconfigured step=%s status=%d", step, status)
        return ActivityRefused("activity_unavailable", f"{step}_{status}")
    if step == "instance" and status == 404:
        return ActivityRefused("not_in_activity", "unknown_instance")
    if step == "token" and status == 400:
        return ActivityRefused("bad_activity", "code_refused")  # replayed, forged or expired
    if step == "user" and status == 401:
        return ActivityRefused("bad_activity", "token_refused")
    log.warning("event=activity_call_refused step=%s status=%d", step, status)
    return ActivityRefused("starting" if status >= 500 else "bad_activity", f"{step}_{status}")


async def _json(response: aiohttp.ClientResponse) -> Any:
    try:
        return await response.json(content_type=None)
    except ValueError:
        return None


def _retry_after(response: aiohttp.ClientResponse, body: Any) -> float:
    """Seconds Discord asks us to wait: the body's ``retry_after`` (a float), else the
    ``Retry-After`` header."""
    value = body.get("retry_after") if isinstance(body, dict) else None
    if value is None:
        value = response.headers.get("Retry-After")
    try:
        return max(0.0, float(value)) if value is not None else 1.0
    except (TypeError, ValueError):
        return 1.0
