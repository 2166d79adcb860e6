"""The headers of every page response: a Content-Security-Policy that forbids inline
script and lets only Telegram frame the page, and no sniffing, no referrer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Middleware


def content_policy(public_url: str) -> str:
    """The page's Content-Security-Policy: its own scripts (and Telegram's), and sockets
    only to its own site. The ``wss:`` origin is named besides ``'self'``: older iOS
    WebKit does not count a WebSocket to the page's own host as ``'self'``."""
    parts = urlsplit(public_url)
    socket_origin = f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}".lower()
    return (
        "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
        f"img-src 'self' data:; connect-src 'self' {socket_origin}; base-uri 'none'; "
        "form-action 'none'; "
        "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org"
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
