"""A fake Discord (REST + gateway) on 127.0.0.1 that the real discord.py client talks to.

The client is pointed at it through two class attributes (``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``). The fake speaks the wire protocol:
HELLO/IDENTIFY/READY/GUILD_CREATE on the gateway, then INTERACTION_CREATE dispatches for
the slash commands and button clicks a test makes; on REST, channel messages, DMs,
interaction callbacks and followups — answering ``application/json`` exactly, 403 50007
for closed DMs, 404 10062 for an expired interaction, and 429 with a ``Via`` header.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = 424242
BOT_ID = 424243
GUILD = 555000
CHANNEL = 555001
BOT = {"id": str(BOT_ID), "username": "Sahra", "discriminator": "0", "avatar": None, "bot": True}


@dataclass
class Message:
    id: int
    channel: int
    content: str
    components: list[dict[str, Any]]
    ephemeral_for: int | None = None  # the user who alone sees it
    edits: int = 0


@dataclass
class FakeDiscord:
    messages: dict[int, Message] = field(default_factory=dict)
    calls: list[tuple[float, str, str, dict[str, Any]]] = field(default_factory=list)
    closed_dms: set[int] = field(default_factory=set)
    expired: set[int] = field(default_factory=set)  # interaction ids answered with 10062
    responses: dict[int, dict[str, Any]] = field(default_factory=dict)  # interaction -> reply
    fail_next: list[str] = field(default_factory=list)  # REST paths (prefix) answered 429
    followups: dict[str, int] = field(default_factory=dict)  # token -> webhook calls
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(900_000))
    _seq: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _ws: web.WebSocketResponse | None = None
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _runner: web.AppRunner | None = None
    _tokens: dict[str, tuple[int, int]] = field(default_factory=dict)  # token -> (id, user)
    _dm_channels: dict[int, int] = field(default_factory=dict)  # dm channel -> user
    base: str = ""
    gateway: str = ""

    # ---------------------------------------------------------------- server

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gw", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base = f"http://127.0.0.1:{port}/api/v10"
        self.gateway = f"ws://127.0.0.1:{port}/gw"

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def ready(self) -> None:
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    # ---------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        self._ready.clear()
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            payload = json.loads(frame.data)
            if payload["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:
                await self._dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": BOT,
                        "session_id": "fake",
                        "resume_gateway_url": self.gateway,
                        "guilds": [{"id": str(GUILD), "unavailable": True}],
                        "application": {"id": str(APP_ID), "flags": 0},
                    },
                )
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
                        "members": [],
                        "member_count": 4,
                        "emojis": [],
                        "features": [],
                    },
                )
                self._ready.set()
        return ws

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self._ws is not None
        frame = {"op": 0, "t": event, "s": next(self._seq), "d": data}
        await self._ws.send_str(json.dumps(frame))

    # ---------------------------------------------------------------- shapes

    @staticmethod
    def channel() -> dict[str, Any]:
        return {
            "id": str(CHANNEL),
            "type": 0,
            "guild_id": str(GUILD),
            "name": "cards",
            "position": 0,
            "permission_overwrites": [],
        }

    @staticmethod
    def user(user: int) -> dict[str, Any]:
        return {
            "id": str(user),
            "username": f"player{user}",
            "discriminator": "0",
            "global_name": f"Player {user}",
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
        body: dict[str, Any] = {}
        if request.can_read_body:
            text = await request.text()
            if text:
                if request.content_type == "multipart/form-data":
                    raise AssertionError("no files expected")
                body = json.loads(text)
        self.calls.append((time.monotonic(), request.method, path, body))
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
        if parts[0] == "applications":  # command sync
            return self._json(body if isinstance(body, list) else [])
        if parts[0] == "users" and len(parts) == 2 and parts[1].isdigit():
            return self._json(self.user(int(parts[1])))
        if path == "/users/@me/channels":
            user = int(body["recipient_id"])
            dm = 700_000 + user
            self._dm_channels[dm] = user
            return self._json({"id": str(dm), "type": 1, "recipients": [self.user(user)]})
        if parts[0] == "channels" and parts[2] == "messages":
            channel = int(parts[1])
            if channel in self._dm_channels and self._dm_channels[channel] in self.closed_dms:
                return self._json(
                    {"message": "Cannot send messages to this user", "code": 50007}, 403
                )
            if method == "POST":
                return self._json(self.message_json(self._new_message(channel, body)))
            message = self.messages[int(parts[3])]
            message.content = body.get("content", message.content)
            message.components = body.get("components", message.components)
            message.edits += 1
            return self._json(self.message_json(message))
        if parts[0] == "interactions":
            return self._callback(int(parts[1]), parts[2], body)
        if parts[0] == "webhooks":
            return self._webhook(method, parts[2], parts[3:], body)
        return self._json({})

    def _callback(self, interaction: int, token: str, body: dict[str, Any]) -> web.Response:
        if interaction in self.expired:
            return self._json({"message": "Unknown interaction", "code": 10062}, 404)
        _, user = self._tokens[token]
        kind = body["type"]
        data = body.get("data") or {}
        self.responses[interaction] = body
        result: dict[str, Any] = {"interaction": {"id": str(interaction), "type": 3}}
        if kind == 4:  # a new message (ephemeral or not)
            message = self._new_message(CHANNEL, data, user)
            self._tokens[token] = (message.id, user)
            result["interaction"]["response_message_id"] = str(message.id)
            result["resource"] = {"type": 4, "message": self.message_json(message)}
        elif kind == 7:  # update the message the button is on
            source, _ = self._tokens[token]
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
        source, user = self._tokens[token]
        self.followups[token] = self.followups.get(token, 0) + 1
        if method == "POST":  # a followup
            message = self._new_message(CHANNEL, body, user)
            return self._json(self.message_json(message))
        message = self.messages[source]  # PATCH messages/@original
        message.content = body.get("content", message.content)
        message.components = body.get("components", message.components)
        message.edits += 1
        return self._json(self.message_json(message))

    # ---------------------------------------------------------------- what users do

    async def slash(self, user: int, command: str, admin: bool = False, **options: Any) -> int:
        """``/sahra <command> option:value …`` from ``user`` in the channel."""
        subcommand = {
            "name": command,
            "type": 1,
            "options": [
                {"name": k, "type": 3 if isinstance(v, str) else 4, "value": v}
                for k, v in options.items()
            ],
        }
        return await self._interaction(
            user, 2, {"id": "1", "name": "sahra", "type": 1, "options": [subcommand]}, None, admin
        )

    async def click(
        self, user: int, message: Message, custom_id: str, expired: bool = False
    ) -> int:
        """A click; ``expired``: its interaction is past Discord's 3 s (10062 on answer)."""
        return await self._interaction(
            user, 3, {"custom_id": custom_id, "component_type": 2}, message, False, expired
        )

    async def _interaction(
        self,
        user: int,
        kind: int,
        data: dict[str, Any],
        message: Message | None,
        admin: bool,
        expired: bool = False,
    ) -> int:
        interaction = next(self._ids)
        if expired:
            self.expired.add(interaction)
        token = f"tok{interaction}"
        self._tokens[token] = (message.id if message else 0, user)
        payload: dict[str, Any] = {
            "id": str(interaction),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": 8_388_608,
            "guild_id": str(GUILD),
            "channel_id": str(CHANNEL),
            "channel": self.channel(),
            "member": self.member(user, "32" if admin else "0"),
            "data": data,
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": "0",
            "entitlements": [],
            "context": 0,
            "authorizing_integration_owners": {},
        }
        if message is not None:
            payload["message"] = self.message_json(message)
        await self._dispatch("INTERACTION_CREATE", payload)
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
