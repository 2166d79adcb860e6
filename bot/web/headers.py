"""The headers of every page response: a Content-Security-Policy that forbids inline
script and lets only Telegram frame the page, and no sniffing, no referrer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Middleware

# Where Discord frames an Activity: its clients' pages, and the proxy's own origin.
DISCORD_ANCESTORS = "https://discord.com https://*.discord.com https://*.discordsays.com"


def content_policy(public_url: str, activity_origin: str | None = None) -> str:
    """The page's Content-Security-Policy: its own scripts (and Telegram's), and sockets
    only to its own site (and, as a Discord Activity, to Discord's proxy for it, whose
    origin the page then has). The ``wss:`` origins are named besides ``'self'``: older
    iOS WebKit does not count a WebSocket to the page's own host as ``'self'``."""
    parts = urlsplit(public_url)
    sockets = [f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}".lower()]
    ancestors = "'self' https://web.telegram.org https://*.telegram.org"
    if activity_origin is not None:
        sockets.append(activity_origin.replace("https://", "wss://", 1))
        ancestors += f" {DISCORD_ANCESTORS}"
    return (
        "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
        f"img-src 'self' data:; connect-src 'self' {' '.join(sockets)}; base-uri 'none'; "
        f"form-action 'none'; frame-ancestors {ancestors}"
    )


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def headers(policy: str) -> Middleware:
    """Every response but a socket's: the policy, no sniffing, no referrer."""

    @web.middleware
    async def with_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        if response.prepared:  # a socket: its handshake is sent already
            return response
        response.headers["Content-Security-Policy"] = policy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    return with_headers
