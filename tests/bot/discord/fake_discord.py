"""A fake Discord (REST + gateway) on 127.0.0.1 that the real discord.py client talks to.

The bot is pointed at it the way it is pointed at Discord: by its REST base URL (the
``api_url`` setting); the gateway is the URL this fake's ``GET /gateway/bot`` names. The
fake speaks the wire protocol: HELLO/IDENTIFY/READY/GUILD_CREATE on the gateway, then
INTERACTION_CREATE dispatches for the slash commands, button clicks and Entry Point
commands a test makes; on REST, the login calls, the command sync, channel messages, DMs,
interaction callbacks and followups — answering ``application/json`` exactly, 403 50007
for closed DMs, 403 50013 in a channel the bot may not post in, 404 10062 for an expired
interaction, 400 40060 for a second answer to one interaction, and 429 with a ``Via``
header. Interactions carry ``app_permissions`` and ``locale`` as Discord sends them.

The application's global commands are kept as Discord keeps them (``commands``): read by
``GET /applications/{app}/commands``, replaced by a bulk overwrite (``PUT``) that keeps the
id of a command of the same name and type — and refuses with 400 50240 an overwrite that
leaves out the Entry Point command (type 4) the application has, as Discord does since
Activities came. Callback type 12 (LAUNCH_ACTIVITY) is accepted as Discord accepts it (no
message; an activity instance) unless ``activities_enabled`` is off.

Failures a test can switch on: a REST API that accepts connections and never answers
(``hang``: path prefixes, "/" for all), a gateway that refuses the upgrade
(``gateway_mode="refuse"``), accepts it and never says HELLO (``"silent"``) or stops
reading mid-session, never answering a close (``freeze``), an outage of a connected
gateway (``drop``), interaction callbacks held back in chosen channels
(``held_channels``), and a token revoked (``revoke``: its sessions closed with 4004, its
IDENTIFY and RESUME answered the same, its REST calls 401, as Discord does when a bot's
token is reset).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import WSMsgType, web

APP_ID = 424242
BOT_ID = 424243
GUILD = (1 << 22) + 555000  # on shard 1 of 2, 4 or 8: not the DMs' shard 0
CHANNEL = 555001
BOT = {"id": str(BOT_ID), "username": "Sahra", "discriminator": "0", "avatar": None, "bot": True}

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
READ_MESSAGE_HISTORY = 1 << 16
SEND_MESSAGES_IN_THREADS = 1 << 38
# What the README's invite link grants.
INVITED = VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | SEND_MESSAGES_IN_THREADS

# Discord shows a backslash before ASCII punctuation as that character alone.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


CONTENT_LIMIT = 2000
ENTRY_POINT = 4  # application command type PRIMARY_ENTRY_POINT
LAUNCH_ACTIVITY = 12  # interaction callback type
ENTRY_POINT_REMOVED = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please"
    " include the Entry Point command in your update request or delete it separately."
)


def entry_point(handler: int = 2, command_id: str = "1300000000000000001") -> dict[str, Any]:
    """The Entry Point command Discord gives an application when Activities are enabled
    (named "Launch" by default; ``handler`` 2: Discord launches the Activity itself)."""
    return {
        "id": command_id,
        "application_id": str(APP_ID),
        "version": "1300000000000000002",
        "type": ENTRY_POINT,
        "name": "launch",
        "description": "",
        "handler": handler,
        "default_member_permissions": None,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
        "nsfw": False,
    }


def guild_shard(shards: int) -> int:
    """The shard Discord sends the test guild's events to."""
    return (GUILD >> 22) % shards


def too_long(body: Any) -> bool:
    """A message's content over Discord's limit, in a REST body or an interaction's
    answer (``data.content``)."""
    if not isinstance(body, dict):
        return False
    data = body.get("data")
    content = data.get("content") if isinstance(data, dict) else body.get("content")
    return isinstance(content, str) and len(content) > CONTENT_LIMIT


@dataclass
class Message:
    id: int
    channel: int
    content: str
    components: list[dict[str, Any]]
    ephemeral_for: int | None = None  # the user who alone sees it
    edits: int = 0

    @property
    def displayed(self) -> str:
        """The content as a Discord client shows it: escapes resolved, and the zero-width
        space that keeps ``@everyone`` from being a mention removed."""
        return _ESCAPE.sub(r"\1", self.content).replace("@\u200b", "@")


@dataclass
class FakeDiscord:
    messages: dict[int, Message] = field(default_factory=dict)
    calls: list[tuple[float, str, str, dict[str, Any]]] = field(default_factory=list)
    closed_dms: set[int] = field(default_factory=set)
    forbidden: set[int] = field(default_factory=set)  # channels answered 403 50013
    expired: set[int] = field(default_factory=set)  # interaction ids answered with 10062
    responses: dict[int, dict[str, Any]] = field(default_factory=dict)  # interaction -> reply
    fail_next: list[str] = field(default_factory=list)  # REST paths (prefix) answered 429
    followups: dict[str, int] = field(default_factory=dict)  # token -> webhook calls
    names: dict[int, str] = field(default_factory=dict)  # user -> display name
    app_permissions: dict[int, int] = field(default_factory=dict)  # channel -> bits
    left: set[int] = field(default_factory=set)  # users no longer in the server
    threads: dict[int, int] = field(default_factory=dict)  # thread -> parent channel
    held_channels: set[int] = field(default_factory=set)  # callbacks there wait for release
    hang: list[str] = field(default_factory=list)  # REST path prefixes that never answer
    hanging: int = 0  # requests held by ``hang`` right now
    gateway_mode: Literal["normal", "refuse", "silent", "frozen"] = "normal"
    identified: int = 0  # IDENTIFY frames received
    revoked: set[str] = field(default_factory=set)  # tokens Discord no longer accepts
    # Sharding, as Discord documents it: /gateway/bot recommends ``shard_count``; a
    # session IDENTIFYs with [shard_id, num_shards]; a guild's events go to shard
    # (guild_id >> 22) % num_shards and DMs to shard 0; each rate-limit bucket
    # (shard_id % max_concurrency) may IDENTIFY once every 5 s.
    shard_count: int = 1
    max_concurrency: int = 1
    identifies: list[tuple[float, int, int]] = field(default_factory=list)  # at, shard, of
    _shards: dict[int, web.WebSocketResponse] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(900_000))
    _seq: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _ws: web.WebSocketResponse | None = None
    sessions: dict[web.WebSocketResponse, str] = field(default_factory=dict)  # -> token
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _release: asyncio.Event = field(default_factory=asyncio.Event)
    _closing: asyncio.Event = field(default_factory=asyncio.Event)
    _runner: web.AppRunner | None = None
    # token -> (source message, user, channel)
    _tokens: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    _dm_channels: dict[int, int] = field(default_factory=dict)  # dm channel -> user
    base: str = ""
    gateway: str = ""
    # The application's global commands, as Discord stores them (with ids).
    commands: list[dict[str, Any]] = field(default_factory=list)
    activities_enabled: bool = True  # the application has Activities: type 12 launches
    # Routes answered before the bot's own REST is parsed (they read their own body, such
    # as OAuth2's form-encoded token exchange): each returns None for a path not its own.
    routes: list[Callable[[web.Request, str], Awaitable[web.Response | None]]] = field(
        default_factory=list
    )

    # ---------------------------------------------------------------- server

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gw", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base = f"http://127.0.0.1:{port}/api/v10"
        self.gateway = f"ws://127.0.0.1:{port}/gw"

    async def close(self) -> None:
        self._closing.set()  # frees handlers held by hang, silent and frozen
        self._release.set()
        for ws in {*self._shards.values(), *([self._ws] if self._ws else [])}:
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def ready(self) -> None:
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def drop(self) -> None:
        """An outage: the connected gateway goes away and refuses new connections."""
        self.gateway_mode = "refuse"
        for ws in {*self._shards.values(), *([self._ws] if self._ws else [])}:
            await ws.close(code=1011)

    def freeze(self) -> None:
        """The connected gateway stops reading: no heartbeat ACK, no answer to a close."""
        self.gateway_mode = "frozen"

    async def revoke(self, token: str) -> None:
        """The bot's token is reset: Discord closes every session identified with it with
        4004 (authentication failed) and accepts it nowhere any more."""
        self.revoked.add(token)
        for ws, used in list(self.sessions.items()):
            if used == token and not ws.closed:
                await ws.close(code=4004, message=b"Authentication failed.")

    def release(self) -> None:
        """Let the held interaction callbacks answer."""
        self._release.set()

    def requests(self, method: str, prefix: str) -> list[dict[str, Any]]:
        """The bodies of the REST calls so far with this method and path prefix."""
        return [body for _, m, path, body in self.calls if m == method and path.startswith(prefix)]

    # ---------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        self.calls.append((time.monotonic(), "WS", "/gw", {}))
        if self.gateway_mode == "refuse":
            return web.Response(status=503, text="gateway unavailable")
        ws = web.WebSocketResponse(autoclose=False)  # a frozen gateway answers no close
        await ws.prepare(request)
        self._ws = ws
        self._ready.clear()
        if self.gateway_mode == "silent":  # accepted, and then nothing: no HELLO
            await self._closing.wait()
            return ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for frame in ws:
            if self.gateway_mode == "frozen":
                break
            if frame.type != WSMsgType.TEXT:
                continue
            payload = json.loads(frame.data)
            if payload["op"] in (2, 6) and payload["d"].get("token") in self.revoked:
                await ws.close(code=4004, message=b"Authentication failed.")
                break
            if payload["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:
                self.identified += 1
                self.sessions[ws] = payload["d"].get("token", "")
                shard, shards = payload["d"].get("shard", [0, 1])
                self.identifies.append((time.monotonic(), shard, shards))
                self._shards[shard] = ws
                ready: dict[str, Any] = {
                    "v": 10,
                    "user": BOT,
                    "session_id": "fake",
                    "resume_gateway_url": self.gateway,
                    "guilds": [{"id": str(GUILD), "unavailable": True}],
                    "application": {"id": str(APP_ID), "flags": 0},
                }
                if "shard" in payload["d"]:  # Discord echoes the shard a session serves
                    ready["shard"] = payload["d"]["shard"]
                    ready["guilds"] = [g for g in ready["guilds"] if guild_shard(shards) == shard]
                await self._dispatch("READY", ready, shard)
                if guild_shard(shards) == shard:  # the guild's events come on its shard
                    await self._guild_create(shard)
                if len(self._shards) >= shards:
                    self._ready.set()
            elif payload["op"] == 6:  # RESUME after an outage: a fresh session instead
                await ws.send_str(json.dumps({"op": 9, "d": False}))
        if self.gateway_mode == "frozen":
            await self._closing.wait()
        elif not ws.closed:
            await ws.close()  # the close handshake autoclose would have done
        return ws

    async def _guild_create(self, shard: int) -> None:
        await self._dispatch(
            "GUILD_CREATE",
            {
                "id": str(GUILD),
                "name": "Sahra night",
                "owner_id": "1",
                "roles": [
                    {
                        "id": str(GUILD),
                        "name": "@everyone",
                        "permissions": "0",
                        "position": 0,
                        "color": 0,
                        "hoist": False,
                        "managed": False,
                        "mentionable": False,
                    }
                ],
                "channels": [self.channel()],
                "threads": [self.channel(t) for t in self.threads],
                "members": [],
                "member_count": 4,
                "emojis": [],
                "features": [],
            },
            shard,
        )

    async def _dispatch(self, event: str, data: dict[str, Any], shard: int | None = None) -> None:
        """``event`` on the session of ``shard`` (the latest session when not sharded)."""
        ws = self._shards.get(shard, self._ws) if shard is not None else self._ws
        assert ws is not None
        frame = {"op": 0, "t": event, "s": next(self._seq), "d": data}
        await ws.send_str(json.dumps(frame))

    # ---------------------------------------------------------------- shapes

    def channel(self, channel: int = CHANNEL) -> dict[str, Any]:
        if channel in self.threads:
            return {
                "id": str(channel),
                "type": 11,  # a public thread
                "guild_id": str(GUILD),
                "parent_id": str(self.threads[channel]),
                "owner_id": "1",
                "name": f"thread {channel}",
                "message_count": 0,
                "member_count": 1,
                "rate_limit_per_user": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2026-01-01T00:00:00+00:00",
                    "locked": False,
                },
            }
        return {
            "id": str(channel),
            "type": 0,
            "guild_id": str(GUILD),
            "name": f"cards-{channel}",
            "position": 0,
            "permission_overwrites": [],
        }

    def user(self, user: int) -> dict[str, Any]:
        return {
            "id": str(user),
            "username": f"player{user}",
            "discriminator": "0",
            "global_name": self.names.get(user, f"Player {user}"),
            "avatar": None,
        }

    def member(self, user: int, permissions: str = "0") -> dict[str, Any]:
        return {
            "user": self.user(user),
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "permissions": permissions,
            "flags": 0,
        }

    def message_json(self, message: Message) -> dict[str, Any]:
        return {
            "id": str(message.id),
            "channel_id": str(message.channel),
            "type": 0,
            "content": message.content,
            "author": BOT,
            "embeds": [],
            "attachments": [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
            "tts": False,
            "timestamp": "2026-11-29T00:00:00+00:00",
            "edited_timestamp": None,
            "flags": 64 if message.ephemeral_for else 0,
            "components": message.components,
        }

    def _new_message(self, channel: int, body: dict[str, Any], user: int | None = None) -> Message:
        ephemeral = user if body.get("flags", 0) & 64 else None
        message = Message(
            next(self._ids),
            channel,
            body.get("content") or "",
            body.get("components") or [],
            ephemeral,
        )
        self.messages[message.id] = message
        return message

    @staticmethod
    def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
        return web.Response(
            body=json.dumps(data),
            status=status,
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    # ---------------------------------------------------------------- REST

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        for route in self.routes:
            answer = await route(request, path)
            if answer is not None:
                return answer
        body: Any = {}
        if request.can_read_body:
            text = await request.text()
            if text:
                if request.content_type == "multipart/form-data":
                    raise AssertionError("no files expected")
                body = json.loads(text)
        self.calls.append((time.monotonic(), request.method, path, body))
        if request.headers.get("Authorization", "").removeprefix("Bot ") in self.revoked:
            return self._json({"message": "401: Unauthorized", "code": 0}, 401)
        if too_long(body):  # Discord's limit: 2,000 characters of content
            return self._json(
                {
                    "message": "Invalid Form Body",
                    "code": 50035,
                    "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"}]}},
                },
                400,
            )
        if any(path.startswith(prefix) for prefix in self.hang):  # no answer ever comes
            self.hanging += 1
            try:
                await self._closing.wait()
            finally:
                self.hanging -= 1
            return self._json({"message": "shutting down"}, 503)
        for index, prefix in enumerate(self.fail_next):
            if path.startswith(prefix):
                del self.fail_next[index]
                return self._json(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": 0.2,
                        "global": False,
                    },
                    429,
                    {"Via": "1.1 google"},
                )
        method = request.method
        parts = path.strip("/").split("/")
        if path == "/users/@me":
            return self._json(BOT)
        if path == "/gateway/bot":
            return self._json(
                {
                    "url": self.gateway,
                    "shards": self.shard_count,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 14_400_000,
                        "max_concurrency": self.max_concurrency,
                    },
                }
            )
        if path == "/oauth2/applications/@me":
            return self._json(
                {
                    "id": str(APP_ID),
                    "name": "Sahra",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "verify_key": "0",
                    "flags": 0,
                    "owner": self.user(1),
                    "team": None,
                }
            )
        if path == f"/applications/{APP_ID}/commands":  # the global commands
            if method == "GET":
                return self._json(self.commands)
            return self._overwrite(body if isinstance(body, list) else [])
        if parts[0] == "applications":  # a guild's bulk overwrite: the commands, with ids
            commands = body if isinstance(body, list) else []
            return self._json(
                [
                    {**c, "id": str(APP_ID + 1 + i), "application_id": str(APP_ID), "version": "1"}
                    for i, c in enumerate(commands)
                ]
            )
        if parts[0] == "guilds" and len(parts) == 4 and parts[2] == "members":
            # Get Guild Member: 404 Unknown Member (10007) once the user has left
            if int(parts[3]) in self.left:
                return self._json({"message": "Unknown Member", "code": 10007}, 404)
            return self._json(self.member(int(parts[3])))
        if parts[0] == "users" and len(parts) == 2 and parts[1].isdigit():
            return self._json(self.user(int(parts[1])))
        if path == "/users/@me/channels":
            user = int(body["recipient_id"])
            dm = 700_000 + user
            self._dm_channels[dm] = user
            return self._json({"id": str(dm), "type": 1, "recipients": [self.user(user)]})
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            channel = int(parts[1])
            if channel in self._dm_channels and self._dm_channels[channel] in self.closed_dms:
                return self._json(
                    {"message": "Cannot send messages to this user", "code": 50007}, 403
                )
            if channel in self.forbidden:
                return self._json({"message": "Missing Permissions", "code": 50013}, 403)
            if method == "POST":
                return self._json(self.message_json(self._new_message(channel, body)))
            message = self.messages[int(parts[3])]
            message.content = body.get("content", message.content)
            message.components = body.get("components", message.components)
            message.edits += 1
            return self._json(self.message_json(message))
        if parts[0] == "interactions":
            return await self._callback(int(parts[1]), parts[2], body)
        if parts[0] == "webhooks":
            return self._webhook(method, parts[2], parts[3:], body)
        return self._json({})

    def _overwrite(self, body: list[dict[str, Any]]) -> web.Response:
        """Bulk Overwrite Global Application Commands, as Discord answers it."""
        for kept in (c for c in self.commands if c.get("type") == ENTRY_POINT):
            if not any(
                c.get("type") == ENTRY_POINT
                and (c.get("id") == kept["id"] or c.get("name") == kept["name"])
                for c in body
            ):
                return self._json({"code": 50240, "message": ENTRY_POINT_REMOVED}, 400)
        ids = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands}
        stored = []
        for command in body:
            kind = command.get("type", 1)
            known = ids.get((command["name"], kind)) or str(next(self._ids))
            version = str(next(self._ids))  # Discord's changes with every update
            stored.append(
                {
                    **command,
                    "type": kind,
                    "id": known,
                    "application_id": str(APP_ID),
                    "version": version,
                }
            )
        self.commands = stored
        return self._json(stored)

    async def _callback(self, interaction: int, token: str, body: dict[str, Any]) -> web.Response:
        if interaction in self.expired:
            return self._json({"message": "Unknown interaction", "code": 10062}, 404)
        if interaction in self.responses:
            return self._json(
                {"message": "Interaction has already been acknowledged.", "code": 40060}, 400
            )
        _, user, channel = self._tokens[token]
        if channel in self.held_channels:
            await self._release.wait()
        kind = body["type"]
        data = body.get("data") or {}
        if kind == LAUNCH_ACTIVITY and not self.activities_enabled:
            # Discord documents no error for an application without Activities that
            # launches one: a 400 refusing the callback's type is the plausible answer.
            return self._json(
                {
                    "message": "Invalid Form Body",
                    "code": 50035,
                    "errors": {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES"}]}},
                },
                400,
            )
        self.responses[interaction] = body
        result: dict[str, Any] = {"interaction": {"id": str(interaction), "type": 3}}
        if kind == LAUNCH_ACTIVITY:  # Discord opens the Activity; no message is made
            instance = f"i-{interaction}"
            result["interaction"]["activity_instance_id"] = instance
            result["resource"] = {"type": kind, "activity_instance": {"id": instance}}
        elif kind == 4:  # a new message (ephemeral or not)
            message = self._new_message(channel, data, user)
            self._tokens[token] = (message.id, user, channel)
            result["interaction"]["response_message_id"] = str(message.id)
            result["resource"] = {"type": 4, "message": self.message_json(message)}
        elif kind == 7:  # update the message the button is on
            source, _, _ = self._tokens[token]
            message = self.messages[source]
            message.content = data.get("content", message.content)
            message.components = data.get("components", message.components)
            message.edits += 1
            result["resource"] = {"type": 7, "message": self.message_json(message)}
        else:  # 5 / 6: deferred
            result["interaction"]["response_message_loading"] = kind == 5
            result["resource"] = {"type": kind}
        return self._json(result)

    def _webhook(
        self, method: str, token: str, rest: list[str], body: dict[str, Any]
    ) -> web.Response:
        source, user, channel = self._tokens[token]
        self.followups[token] = self.followups.get(token, 0) + 1
        if method == "POST":  # a followup
            message = self._new_message(channel, body, user)
            return self._json(self.message_json(message))
        message = self.messages[source]  # PATCH messages/@original
        message.content = body.get("content", message.content)
        message.components = body.get("components", message.components)
        message.edits += 1
        return self._json(self.message_json(message))

    # ---------------------------------------------------------------- what users do

    def posted(self, content: str, custom_ids: list[str], channel: int = CHANNEL) -> Message:
        """A message the bot posted before (an older version's, say) with these buttons."""
        row = [
            {"type": 2, "style": 2, "label": "·", "custom_id": custom_id}
            for custom_id in custom_ids
        ]
        message = Message(next(self._ids), channel, content, [{"type": 1, "components": row}])
        self.messages[message.id] = message
        return message

    async def slash(
        self,
        user: int,
        command: str | None,
        admin: bool = False,
        channel: int = CHANNEL,
        locale: str = "en-US",
        **options: Any,
    ) -> int:
        """``/sahra <command> option:value …`` from ``user`` in ``channel``, whose Discord
        is in ``locale``; a None command is a bare ``/sahra`` (what an outdated command
        list can send)."""
        inner: list[dict[str, Any]] = []
        if command is not None:
            inner = [
                {
                    "name": command,
                    "type": 1,
                    "options": [
                        {"name": k, "type": 3 if isinstance(v, str) else 4, "value": v}
                        for k, v in options.items()
                    ],
                }
            ]
        data = {"id": "1", "name": "sahra", "type": 1, "options": inner}
        return await self._interaction(user, 2, data, None, admin, channel=channel, locale=locale)

    async def entry_point(self, user: int, channel: int = CHANNEL) -> int:
        """The application's Entry Point command from the App Launcher, as Discord sends it
        to the application when the command's handler is APP_HANDLER (1)."""
        command = next(c for c in self.commands if c.get("type") == ENTRY_POINT)
        data = {"id": command["id"], "name": command["name"], "type": ENTRY_POINT}
        return await self._interaction(user, 2, data, None, False, channel=channel)

    async def click(
        self,
        user: int,
        message: Message | None,
        custom_id: str,
        expired: bool = False,
        channel: int = CHANNEL,
    ) -> int:
        """A click; ``expired``: its interaction is past Discord's 3 s (10062 on answer)."""
        data = {"custom_id": custom_id, "component_type": 2}
        where = message.channel if message is not None else channel
        return await self._interaction(user, 3, data, message, False, expired, where)

    async def _interaction(
        self,
        user: int,
        kind: int,
        data: dict[str, Any],
        message: Message | None,
        admin: bool,
        expired: bool = False,
        channel: int = CHANNEL,
        locale: str = "en-US",
    ) -> int:
        interaction = next(self._ids)
        if expired:
            self.expired.add(interaction)
        token = f"tok{interaction}"
        self._tokens[token] = (message.id if message else 0, user, channel)
        payload: dict[str, Any] = {
            "id": str(interaction),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": 8_388_608,
            "data": data,
            "locale": locale,
            "entitlements": [],
            "authorizing_integration_owners": {},
        }
        if channel in self._dm_channels:  # a button on a DM hand
            payload |= {
                "channel_id": str(channel),
                "channel": {"id": str(channel), "type": 1},
                "user": self.user(user),
                "app_permissions": str(INVITED),
                "context": 1,
            }
        else:
            payload |= {
                "guild_id": str(GUILD),
                "guild_locale": "en-US",
                "channel_id": str(channel),
                "channel": self.channel(channel),
                "member": self.member(user, "32" if admin else "0"),
                "app_permissions": str(self.app_permissions.get(channel, INVITED)),
                "context": 0,
            }
        if message is not None:
            payload["message"] = self.message_json(message)
        shards = max((of for _, _, of in self.identifies), default=1)
        shard = 0 if channel in self._dm_channels else guild_shard(shards)
        await self._dispatch("INTERACTION_CREATE", payload, shard if shards > 1 else None)
        return interaction

    async def answered(self, interaction: int, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while interaction not in self.responses:
            if time.monotonic() > deadline:
                raise TimeoutError(f"interaction {interaction} was never answered")
            await asyncio.sleep(0.002)
        return self.responses[interaction]

    # ---------------------------------------------------------------- reading

    def in_channel(self, channel: int = CHANNEL, public: bool = True) -> list[Message]:
        return [
            m
            for m in self.messages.values()
            if m.channel == channel and (m.ephemeral_for is None) == public
        ]

    def latest_for(self, user: int) -> Message | None:
        """The newest message only ``user`` sees (ephemeral) that has buttons, or their DM."""
        for message in sorted(self.messages.values(), key=lambda m: m.id, reverse=True):
            mine = message.ephemeral_for == user or self._dm_channels.get(message.channel) == user
            if mine and message.components:
                return message
        return None

    def notices_for(self, user: int) -> list[str]:
        """What ``user`` was told privately (ephemeral answers), oldest first, as shown."""
        mine = [m for m in self.messages.values() if m.ephemeral_for == user]
        return [m.displayed for m in sorted(mine, key=lambda m: m.id)]

    def writes(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every REST call that puts text in front of someone: messages, edits, interaction
        answers that carry a message, followups and edits of an original response."""
        found = []
        for _, method, path, body in self.calls:
            if not isinstance(body, dict):
                continue
            if path.startswith("/channels/") and method in ("POST", "PATCH"):
                found.append((method, path, body))
            elif path.startswith("/interactions/") and body.get("type") in (4, 7):
                found.append((method, path, body["data"]))
            elif path.startswith("/webhooks/") and method in ("POST", "PATCH"):
                found.append((method, path, body))
        return found
