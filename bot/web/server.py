"""The web table's HTTP side: the page, its static files and the WebSocket, on aiohttp in
the bot's own event loop (a move from a page is a call into the same ``TableManager``).

Every response carries a Content-Security-Policy that forbids inline script and lets only
Telegram frame the page; the socket checks its Origin (a page of another site cannot
drive a player's seat) and reads frames at a bounded size and pace.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from bot.logs import where
from bot.tables.commands import PlayerRef
from bot.tables.live import LiveTable
from bot.tables.manager import TableManager
from bot.web.actions import act
from bot.web.activity import DiscordActivity
from bot.web.arrival import Arrivals
from bot.web.assets import Assets
from bot.web.auth import LINK_SECONDS
from bot.web.frames import MAX_FRAME, BadFrame, Hello, out, parse
from bot.web.headers import content_policy, headers
from bot.web.hub import PageHub
from bot.web.identity import Denied, Gate
from bot.web.lookup import find_table
from bot.web.remote import RemotePages
from bot.web.replays import Replays
from bot.web.socket import PageSocket, Visitor
from bot.web.texts import denial

log = logging.getLogger("sahra.web")

STATIC = Path(__file__).parent / "static"

HEARTBEAT = 30.0  # seconds: a peer gone without a goodbye is found and its socket freed
# A frame over MAX_FRAME is read and answered with an error; one this large is not even
# read: the socket closes (1009), as nothing honest sends it.
UNREAD_FRAME = 16 * MAX_FRAME
HELLO_SECONDS = 10.0  # a socket that has not said who it is by then is closed
PAGES_PER_PERSON = 8  # one person's open pages; a ninth closes their oldest
# Refusals that end a socket but can pass: the page reconnects with backoff, keeping its
# session (a process still loading its tables, a page that flooded or said no hello).
PASSING = frozenset({"starting", "too_many", "no_hello"})
# Inside Discord, an Activity's requests come through its proxy under this prefix (some
# of Discord's guides fetch ``/.proxy/…``, newer ones the plain path): both are served.
PROXY = "/.proxy"


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class WebTable:
    def __init__(
        self,
        manager: TableManager,
        hub: PageHub,
        gate: Gate,
        replays: Replays,
        *,
        public_url: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.manager = manager
        self.hub = hub
        self.gate = gate
        self.replays = replays
        self.public_url = public_url
        self.origins = {origin_of(public_url)}
        self.clock = clock
        # Pages opened inside Discord: the table of their channel, or one started there.
        self.arrivals = Arrivals(manager, hub, gate, self._table)
        self._runner: web.AppRunner | None = None
        self.port = 0
        # Several processes on one database: tables another process owns (their pages
        # are served here too). None: every table is this process's.
        self.remote: RemotePages | None = None

    def enable_activity(self, activity: DiscordActivity) -> None:
        """Serve the page as a Discord Activity too: launches proven with Discord, and its
        origin (Discord's proxy for the application) let through (before ``start``)."""
        self.gate.activity = activity
        self.origins.add(activity.origin)

    def application(self) -> web.Application:
        activity = self.gate.activity
        policy = content_policy(self.public_url, activity.origin if activity else None)
        app = web.Application(middlewares=[headers(policy)], client_max_size=MAX_FRAME)
        prefixes = ("", PROXY) if activity else ("",)
        for prefix in prefixes:
            app.router.add_get(f"{prefix}/ws", self._socket)
        app.router.add_get("/healthz", self._health)
        # The page and its files, read from disk here, once (``bot/web/assets.py``).
        Assets(STATIC).add_routes(app, prefixes)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host:port`` (0: any free port); returns the port."""
        self._runner = web.AppRunner(self.application(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        addresses = self._runner.addresses
        self.port = int(addresses[0][1]) if addresses else port
        self.origins.add(f"http://{host}:{self.port}")
        log.info("event=web_started port=%d", self.port)
        return self.port

    def personal_link(self, platform: str, table: LiveTable, player: PlayerRef) -> str:
        """A link only ``player`` should open: signed for them and ``table``, short-lived
        and good once (the page exchanges it for a session). The token rides in the
        fragment, so it reaches no server log and no Referer."""
        token = self.gate.signer.issue(
            "link",
            platform=platform,
            user_id=player.user_id,
            table=table.id,
            name=player.name,
            language=player.language,
            expires=self.clock() + LINK_SECONDS,
        )
        return f"{self.public_url}/#link={token}"

    async def stop(self) -> None:
        """Close every page (1001, going away: each reconnects to whichever process serves
        next) and stop listening; the platforms are not told: the next process redraws."""
        self.hub.on_pages = None
        for socket in self.hub.every_socket():
            with contextlib.suppress(Exception):
                await socket.ws.close(code=WSCloseCode.GOING_AWAY, message=b"restart")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.gate.activity is not None:
            await self.gate.activity.close()
        await self.replays.reviews.close()  # analyses still running are not waited for

    async def _health(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in self.origins:
            log.warning("event=page_refused reason=origin")
            raise web.HTTPForbidden(text="This page may only be opened from Sahra's own site.")
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=UNREAD_FRAME)
        await ws.prepare(request)
        socket = PageSocket(ws, refilled=self.clock())
        socket.start()
        silent = asyncio.get_running_loop().call_later(HELLO_SECONDS, self._no_hello, socket)
        try:
            async for message in ws:
                # Every frame counts against the pace, whatever its kind and before any
                # hello: a flood of binary frames costs the flooder its socket, not the
                # other pages their latency.
                if not socket.allow(self.clock()):
                    if socket.flooding:
                        await self._refuse(socket, "too_many")
                        break
                    continue
                if message.type != WSMsgType.TEXT:
                    said = denial(socket.language, "bad_frame")
                    socket.send(out("error", code="bad_frame", message=said, fatal=False))
                    continue
                try:
                    going_on = await self._frame(socket, message.data)
                except Exception as error:  # our fault: said on the page, the socket lives
                    log.error(
                        "event=page_frame_failed error=%s where=%s",
                        type(error).__name__,
                        where(error),
                    )
                    text = denial(socket.language, "internal")
                    socket.send(out("error", code="internal", message=text, fatal=False))
                    going_on = not socket.closed
                if not going_on:
                    break
        finally:
            silent.cancel()
            self.hub.detach(socket)
            await socket.close()
            if socket.visitor is not None:
                log.info("event=page_closed table=%d", socket.table_id)
        return ws

    async def _frame(self, socket: PageSocket, text: str) -> bool:
        """One frame from the page; False ends the socket."""
        try:
            frame = parse(text)
        except BadFrame as bad:
            log.info("event=page_bad_frame reason=%s", bad)
            message = denial(socket.language, "bad_frame")
            socket.send(out("error", code="bad_frame", message=message, fatal=False))
            return True
        if socket.visitor is None:
            if not isinstance(frame, Hello):
                await self._refuse(socket, "bad_session")
                return False
            return await self._hello(socket, frame)
        if isinstance(frame, Hello):  # a resync (the Mini App came back): same socket
            return await self._hello(socket, frame)
        if socket.start_place is not None:
            return await self._start(socket, frame)
        table = self.hub.table_of(socket)
        if table is None:
            await self._refuse(socket, "unknown_table")
            return False
        await act(self.manager, self.hub, socket, table, frame, self.remote, self.replays)
        return not socket.closed

    async def _table(self, table_id: int) -> LiveTable:
        return await find_table(self.manager, self.remote, table_id)

    async def _hello(self, socket: PageSocket, hello: Hello) -> bool:
        token = None  # an Activity's: its page authenticates Discord's SDK with it
        try:
            if hello.discord is not None:
                visitor, token = await self.arrivals.hello(socket, hello, self.remote is not None)
                if visitor is None:
                    return True  # no table in the channel: the page was offered to start one
            else:
                visitor = await self.gate.admit(hello)
            if socket.visitor is not None and visitor.user_id != socket.visitor.user_id:
                raise Denied("bad_session", "other_user")
            table = await self._table(visitor.table)
            if table.place.platform != visitor.platform:
                raise Denied("unknown_table", "platform")
            if table.seat_of(visitor.user_id) is None and not await self.gate.may_watch(
                table, visitor
            ):
                raise Denied("not_member")
        except Denied as denied:
            log.warning("event=page_refused code=%s reason=%s", denied.code, denied.reason)
            await self._refuse(socket, denied.code)
            return False
        if token is not None:
            socket.send(out("authenticate", access_token=token))
        self._enter(socket, visitor, table)
        return True

    async def _start(self, socket: PageSocket, frame: object) -> bool:
        """A frame from an Activity page offered to start a table (``arrival.py``)."""
        table_id = await self.arrivals.frame(socket, frame)
        if table_id is not None:
            try:
                table = await self._table(table_id)
            except Denied as denied:
                await self._refuse(socket, denied.code)
                return False
            assert socket.visitor is not None
            self._enter(socket, socket.visitor, table)
        return True

    def _enter(self, socket: PageSocket, visitor: Visitor, table: LiveTable) -> None:
        """The socket of ``visitor``, admitted, shows ``table`` from now on."""
        self.hub.detach(socket)
        socket.visitor = visitor
        socket.language = table.config.language
        for oldest in self.hub.pages_of(visitor)[: 1 - PAGES_PER_PERSON]:
            # Hundreds of sockets from one person hold no more than this; a person with
            # a few tabs loses only the one they opened longest ago.
            log.warning("event=page_refused code=too_many_pages")
            self.hub.detach(oldest)
            asyncio.get_running_loop().create_task(self._refuse(oldest, "too_many_pages"))
        self.hub.attach(socket, table)
        self.hub.welcome(socket, table)
        seat = table.seat_of(visitor.user_id) if table.place.platform == visitor.platform else None
        log.info(
            "event=page_opened table=%d platform=%s seat=%s",
            table.id,
            visitor.platform,
            "watcher" if seat is None else seat,
        )

    def _no_hello(self, socket: PageSocket) -> None:
        if socket.visitor is None and not socket.closed:
            log.info("event=page_refused code=no_hello")
            asyncio.get_running_loop().create_task(self._refuse(socket, "no_hello"))

    async def _refuse(self, socket: PageSocket, code: str) -> None:
        """A refusal that ends the socket: said on the page (written now, before the socket
        closes). ``fatal`` only for one that cannot change: for the others the page comes
        back later by itself."""
        fatal = code not in PASSING
        frame = out("error", code=code, message=denial(socket.language, code), fatal=fatal)
        try:
            await socket.ws.send_str(frame)
        except Exception:  # the page is gone already: nothing to tell
            log.info("event=page_gone_before_refusal code=%s", code)
        await socket.close()
