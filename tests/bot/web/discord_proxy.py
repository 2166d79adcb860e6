"""Discord's side of an Activity, offline: its proxy at ``https://<client id>.discordsays.com``
and a harness page that plays the Discord client around the page.

- **The proxy** listens with TLS on a loopback port; Chromium is told that the application's
  discordsays.com host is that port (``--host-resolver-rules``), so the page has exactly
  the origin it has inside Discord. Like Discord's, it forwards every path through one URL
  mapping (``/`` → the web table), WebSocket included, passes the page's Origin on, and
  strips the cache headers of HTML.
- **The harness** (``/harness``) is the Discord client: it embeds the page in an iframe
  with the launch parameters Discord adds (``frame_id``, ``instance_id``, ``platform``,
  ``guild_id``, ``channel_id``) and answers the SDK's messages as the client does
  (``discord_client.js``), so the real vendored SDK runs. The one-time codes it hands the
  page come from the fake Discord's OAuth2 (``/harness/code``), as the client's come from
  Discord's.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import subprocess
import urllib.parse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
from aiohttp import WSMsgType, web

from tests.bot.discord.fake_activities import FakeActivities
from tests.bot.discord.fake_discord import APP_ID, CHANNEL, GUILD

HOST = f"{APP_ID}.discordsays.com"
ORIGIN = f"https://{HOST}"
CLIENT_JS = Path(__file__).with_name("discord_client.js")
HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (harness)</title>
<style>html,body{margin:0;height:100%;background:#313338}
iframe{border:0;width:100%;height:100%;display:block}</style>
<script type="module" src="/harness/client.js"></script></head><body></body></html>
"""
# Cache headers Discord's proxy drops from HTML (its guidance: hash the asset names).
CACHE_HEADERS = ("Cache-Control", "ETag", "Last-Modified", "Expires")
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
}


def certificate(folder: Path) -> ssl.SSLContext:
    """A self-signed certificate for the application's discordsays.com host (the browser
    is told to take it: ``ignore_https_errors``)."""
    key, cert = folder / "proxy.key", folder / "proxy.crt"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(key), "-out", str(cert), "-subj", f"/CN={HOST}",
            "-addext", f"subjectAltName=DNS:{HOST}",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def launch_path(
    user: int,
    instance: str,
    *,
    prefix: str = "/.proxy/",
    platform: str = "desktop",
    channel: int = CHANNEL,
    frame: str | None = None,
) -> str:
    """The harness's address for ``user`` launching the Activity in ``instance`` (the page
    then loads at ``prefix`` with Discord's launch parameters)."""
    query = {
        "user": str(user),
        "instance": instance,
        "prefix": prefix,
        "platform": platform,
        "channel": str(channel),
        "guild": str(GUILD),
        "frame": frame or f"frame-{user}",
    }
    return f"{ORIGIN}/harness?{urllib.parse.urlencode(query)}"


class DiscordProxy:
    def __init__(self, target: str, activities: FakeActivities) -> None:
        self.target = target.rstrip("/")  # the web table's own address (http://…)
        self.activities = activities
        self.html_cache_stripped = 0  # HTML responses whose cache headers were dropped
        self.sockets = 0  # WebSockets forwarded
        self._http: aiohttp.ClientSession | None = None

    def application(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/harness", self._harness)
        app.router.add_get("/harness/client.js", self._client)
        app.router.add_get("/harness/code", self._code)
        app.router.add_get("/harness/token", self._token)
        app.router.add_route("*", "/{path:.*}", self._forward)
        return app

    async def _harness(self, request: web.Request) -> web.Response:
        return web.Response(text=HARNESS, content_type="text/html")

    async def _client(self, request: web.Request) -> web.Response:
        return web.Response(text=CLIENT_JS.read_text(), content_type="text/javascript")

    async def _code(self, request: web.Request) -> web.Response:
        """The client's AUTHORIZE: Discord issues the user a one-time code."""
        return web.json_response({"code": self.activities.issue_code(int(request.query["user"]))})

    async def _token(self, request: web.Request) -> web.Response:
        """The client's AUTHENTICATE: whose is this access token (404: nobody's)."""
        found = self.activities.tokens.get(request.query.get("token", ""))
        if found is None:
            return web.json_response({"error": "invalid token"}, status=404)
        return web.json_response({"user": str(found[0])})

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        if self._http is None:
            self._http = aiohttp.ClientSession(auto_decompress=False)
        url = self.target + request.path_qs
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._socket(request, url)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        body = await request.read()
        async with self._http.request(
            request.method, url, headers=headers, data=body or None, allow_redirects=False
        ) as answer:
            data = await answer.read()
            out = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_BY_HOP}
            if answer.content_type == "text/html":
                for name in CACHE_HEADERS:
                    out.pop(name, None)
                self.html_cache_stripped += 1
            return web.Response(status=answer.status, body=data, headers=out)

    async def _socket(self, request: web.Request, url: str) -> web.StreamResponse:
        assert self._http is not None
        origin = request.headers.get("Origin")
        try:
            upstream = await self._http.ws_connect(
                url.replace("http", "ws", 1), headers={"Origin": origin} if origin else None
            )
        except aiohttp.WSServerHandshakeError as refused:
            return web.Response(status=refused.status, text="refused upstream")
        page = web.WebSocketResponse()
        await page.prepare(request)
        self.sockets += 1

        async def pump(source: object, sink: object) -> None:
            async for message in source:  # type: ignore[attr-defined]
                if message.type == WSMsgType.TEXT:
                    await sink.send_str(message.data)  # type: ignore[attr-defined]
                elif message.type == WSMsgType.BINARY:
                    await sink.send_bytes(message.data)  # type: ignore[attr-defined]
            await sink.close()  # type: ignore[attr-defined]

        tasks = [
            asyncio.create_task(pump(page, upstream)),
            asyncio.create_task(pump(upstream, page)),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await upstream.close()
        await page.close()
        return page

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()


@asynccontextmanager
async def discord_proxy(
    target: str, activities: FakeActivities, folder: Path
) -> AsyncIterator[tuple[DiscordProxy, int]]:
    """The proxy and harness on a loopback port (yielded with the proxy)."""
    proxy = DiscordProxy(target, activities)
    runner = web.AppRunner(proxy.application(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=certificate(folder))
    await site.start()
    port = int(runner.addresses[0][1])
    try:
        yield proxy, port
    finally:
        await proxy.close()
        await runner.cleanup()


def browser_args(port: int) -> list[str]:
    """Chromium's flags that make the application's discordsays.com host this proxy."""
    return [f"--host-resolver-rules=MAP {HOST} 127.0.0.1:{port}"]
