"""Credentials a page presents, checked: Telegram's signed launch data, and our own signed
tokens (a personal link, good once: its use is kept in the database, ``Gate``; a session,
good for hours and no longer than its table).

Telegram's check follows core.telegram.org/bots/webapps ("Validating data received via the
Mini App"): every field but ``hash``, sorted, ``key=value`` joined by newlines, values
exactly as received; the key is HMAC-SHA256("WebAppData", bot token). The spec leaves the
age check optional; here it is mandatory, so a leaked launch string goes stale.

Our tokens are ``payload.mac`` (URL-safe base64 of a small JSON object, and its
HMAC-SHA256 under a secret kept in the database, so they outlive a restart). The kind is
inside the MAC: a link is never accepted as a session, nor the other way round.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

# Seconds a first hello may use launch data for: Telegram signs it afresh each time the Mini
# App is opened, and the page trades it for a session at once, so an hour is ample; a
# launch URL that leaked (a screenshot, a shared screen, a proxy's log) opens nothing after.
INIT_DATA_MAX_AGE = 3600.0
CLOCK_SKEW = 60.0  # seconds: Telegram's clock may run a little ahead of ours
LINK_SECONDS = 600.0  # a personal link is opened at once or asked for again
SESSION_SECONDS = 12 * 3600.0  # an evening's play, reloads and restarts included
KINDS = ("link", "session")


class LaunchRefused(Exception):
    """Telegram launch data that does not prove who opened the page (``code``: for the log,
    never the data itself)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class TelegramLaunch:
    user_id: int
    name: str
    language: str  # the client's language_code, "" when absent
    start_param: str  # "" when the page was not opened by a direct link
    auth_date: int


def validate_init_data(
    raw: str, bot_token: str, *, now: float, max_age: float = INIT_DATA_MAX_AGE
) -> TelegramLaunch:
    """The launch ``raw`` (``Telegram.WebApp.initData``) if Telegram signed it for this bot
    within ``max_age`` seconds; ``LaunchRefused`` otherwise."""
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise LaunchRefused("malformed") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise LaunchRefused("malformed")  # a repeated key could mean two things
    received = fields.pop("hash", "")
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    expected = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, received.lower()):
        raise LaunchRefused("bad_hash")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = user["id"]
    except (KeyError, ValueError, TypeError):
        raise LaunchRefused("malformed") from None
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
        raise LaunchRefused("malformed")
    if now - auth_date > max_age:
        raise LaunchRefused("expired")
    if auth_date - now > CLOCK_SKEW:
        raise LaunchRefused("future")
    name = " ".join(
        str(part) for part in (user.get("first_name"), user.get("last_name")) if part
    ).strip()
    return TelegramLaunch(
        user_id=user_id,
        name=name or str(user.get("username") or user_id),
        language=str(user.get("language_code") or ""),
        start_param=fields.get("start_param", ""),
        auth_date=auth_date,
    )


class TokenRefused(Exception):
    """A link or session token we did not issue, or no longer honour. ``code`` is the
    protocol's (``bad_link`` or ``bad_session``); ``reason`` is for the log."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(code)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Claims:
    kind: str
    platform: str
    user_id: str  # as the platform's PlayerRef holds it
    table: int
    name: str
    language: str
    expires: float
    nonce: str


class Signer:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("a signing secret has at least 32 bytes")
        self._secret = secret

    def issue(
        self,
        kind: str,
        *,
        platform: str,
        user_id: str,
        table: int,
        name: str,
        language: str,
        expires: float,
        nonce: str | None = None,
    ) -> str:
        if kind not in KINDS:
            raise ValueError(f"unknown token kind {kind!r}")
        payload = {
            "k": kind,
            "p": platform,
            "u": user_id,
            "t": table,
            "n": name,
            "l": language,
            "e": int(expires),
            "r": nonce or secrets.token_urlsafe(9),
        }
        body = _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode())
        return f"{body}.{_b64(self._mac(body))}"

    def verify(self, token: str, kind: str, *, now: float) -> Claims:
        code = "bad_link" if kind == "link" else "bad_session"
        body, dot, mac = token.partition(".")
        if not dot or not body or not mac:
            raise TokenRefused(code, "malformed")
        try:
            given = _unb64(mac)
        except ValueError:
            raise TokenRefused(code, "malformed") from None
        if not hmac.compare_digest(given, self._mac(body)):
            raise TokenRefused(code, "forged")
        try:
            payload: dict[str, Any] = json.loads(_unb64(body))
            claims = Claims(
                kind=str(payload["k"]),
                platform=str(payload["p"]),
                user_id=str(payload["u"]),
                table=int(payload["t"]),
                name=str(payload["n"]),
                language=str(payload["l"]),
                expires=float(payload["e"]),
                nonce=str(payload["r"]),
            )
        except (KeyError, ValueError, TypeError):
            raise TokenRefused(code, "malformed") from None
        if claims.kind != kind:
            raise TokenRefused(code, "kind")
        if now >= claims.expires:
            raise TokenRefused(code, "expired")
        return claims

    def _mac(self, body: str) -> bytes:
        return hmac.new(self._secret, body.encode(), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64") from None
