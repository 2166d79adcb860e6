"""A fake Telegram Bot API on 127.0.0.1 that the real python-telegram-bot talks to.

It speaks the real HTTP API (form-encoded requests, ``{"ok": true, "result": …}``
answers, 429 with ``retry_after``, 403 for a user who has not opened the bot, 5xx for a
server in trouble), keeps the messages of every chat as Telegram would (so a test can read
the latest keyboard and press a button), answers ``getChatMember`` with the status each
user has in each chat, queues updates for ``getUpdates``, and logs every call with the time
it reached the server.

``latency`` is the network's round trip: every call spends half of it on the way in and
half on the way out, so a benchmark sees the bot as it would over a real link.

``limits`` (off by default) adds Telegram's documented flood limits, counted over the
writes it accepted: more than ``group_limit`` (20) ``sendMessage``/``editMessageText`` to
one group in any ``group_window`` (60 s) answer 429 with the whole seconds until the oldest
of them leaves the window, and more than ``bot_limit`` (30) writes of the whole bot in any
``bot_window`` (1 s) answer 429 ``retry_after`` 1. Private chats are not limited unless
``private_limit`` is set (writes per ``private_window``, a lenient 5/s say: Telegram
tolerates bursts there). ``scale`` multiplies every window and every ``retry_after``, so a
benchmark can run Telegram's minute in six seconds (``scale=0.1``); a scaled
``retry_after`` is a fraction of a second. Every call records the HTTP status it was
answered with (``Call.code``) and every message the texts it has shown (``versions``).

Telegram's size limits: a ``sendMessage``/``editMessageText`` text of 1 to 4,096
characters counted in UTF-16 code units (400 "Bad Request: message is too long" or
"message text is empty"), a callback's answer of at most 200 ("MESSAGE_TOO_LONG").

Webhooks as Telegram documents them: after ``setWebhook`` the updates are POSTed to its
``url`` as JSON, one at a time in order, with the ``X-Telegram-Bot-Api-Secret-Token``
header when a ``secret_token`` was set; an update is retried until the URL answers 2xx;
``getUpdates`` answers 409 while a webhook is set; ``deleteWebhook`` goes back to polling.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

BOT = {"id": 999000, "is_bot": True, "first_name": "Sahra", "username": "sahra_test_bot"}
WRITES = ("sendMessage", "editMessageText")
TEXT_LIMIT = 4096  # a message's text, in UTF-16 code units
TOAST_LIMIT = 200  # answerCallbackQuery's text
# The rights of a ChatMemberAdministrator, as the Bot API lists them.
ADMIN_RIGHTS = (
    "can_be_edited",
    "is_anonymous",
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
)
# The permissions of a ChatMemberRestricted.
RESTRICTIONS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
    "can_edit_tag",
)
STATUSES = ("creator", "administrator", "member", "restricted", "left", "kicked")
# ``members`` values that make getChatMember fail instead of answering a status: a user
# Telegram does not know, a chat the bot is not in.
MEMBER_ERRORS = {
    "not_found": (400, "Bad Request: user not found"),
    "bot_not_in_chat": (403, "Forbidden: bot is not a member of the supergroup chat"),
}


@dataclass
class Call:
    at: float
    method: str
    params: dict[str, Any]
    code: int = 200  # the HTTP status it was answered with (0 while unanswered)


@dataclass
class Message:
    chat: int
    message_id: int
    text: str
    keyboard: list[list[dict[str, Any]]]
    thread: int | None = None
    edits: int = 0
    versions: list[str] = field(default_factory=list)  # every text shown, oldest first

    def __post_init__(self) -> None:
        if not self.versions:
            self.versions.append(self.text)


@dataclass
class FakeBotAPI:
    calls: list[Call] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    messages: dict[tuple[int, int], Message] = field(default_factory=dict)
    forbidden: set[int] = field(default_factory=set)  # chats that answer 403
    fail_next: list[tuple[str, int]] = field(default_factory=list)  # (method, retry_after)
    # (chat, user) -> status (STATUSES); "restricted_left" is a restricted user who is no
    # longer in the chat (is_member false); a MEMBER_ERRORS key refuses the question.
    # Everyone else is a plain member.
    members: dict[tuple[int, int], str] = field(default_factory=dict)
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)  # callback id -> params
    answered_at: dict[str, float] = field(default_factory=dict)  # callback id -> arrival
    latency: float = 0.0  # the round trip of every HTTP call, in seconds
    # chat -> until when (monotonic) its writes answer 429, as Telegram's flood control
    flooded: dict[int, float] = field(default_factory=dict)
    broken: dict[int, int] = field(default_factory=dict)  # chat -> writes that answer 502
    # method -> an event its calls wait for before they are answered (a slow Telegram)
    held: dict[str, asyncio.Event] = field(default_factory=dict)
    # Telegram's flood limits (see the module's docstring); off unless ``limits``.
    limits: bool = False
    scale: float = 1.0  # multiplies every limit window and every retry_after
    group_limit: int = 20
    group_window: float = 60.0
    bot_limit: int = 30
    bot_window: float = 1.0
    private_limit: int | None = None
    private_window: float = 1.0
    _accepted: dict[int, deque[float]] = field(default_factory=dict)  # chat -> write times
    _bot_accepted: deque[float] = field(default_factory=deque)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _update_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)
    _runner: web.AppRunner | None = None
    url: str = ""
    acked: int = 0  # updates below this id were acknowledged (the next poll's offset)
    conflicts: int = 0  # getUpdates answered 409: two pollers at once
    _polling: tuple[asyncio.Future[bool], web.Request | None] | None = None
    _request: web.Request | None = None  # the request being answered (read before any await)
    webhook: str = ""  # setWebhook's url: updates are POSTed there, getUpdates answers 409
    webhook_secret: str | None = None
    delivered: int = 0  # updates a webhook answered 2xx for
    _pusher: asyncio.Task[None] | None = None

    # ---------------------------------------------------------------- server

    async def start(self) -> str:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}/bot"
        return self.url

    async def close(self) -> None:
        self._arrived.set()  # a long poll still held is answered now, not at its timeout
        if self._pusher is not None:
            self._pusher.cancel()
            await asyncio.gather(self._pusher, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        form = await request.post()
        params: dict[str, Any] = {}
        for key, value in form.items():
            text = str(value)
            params[key] = json.loads(text) if text[:1] in "{[" else text
        if self.latency:
            await asyncio.sleep(self.latency / 2)
        self._request = request
        response = await self._answer(method, params)
        if self.latency:
            await asyncio.sleep(self.latency / 2)
        return response

    async def _answer(self, method: str, params: dict[str, Any]) -> web.Response:
        call = Call(time.monotonic(), method, params, code=0)
        self.calls.append(call)
        response = await self._respond(method, params)
        call.code = response.status
        if self.limits and method in WRITES and response.status == 200:
            now = time.monotonic()
            self._accepted.setdefault(int(params["chat_id"]), deque()).append(now)
            self._bot_accepted.append(now)
        return response

    async def _respond(self, method: str, params: dict[str, Any]) -> web.Response:
        if method in self.held:
            await self.held[method].wait()
        now = time.monotonic()
        if method in WRITES:
            chat = int(params["chat_id"])
            until = self.flooded.get(chat, 0.0)
            if until > now:
                # Telegram's retry_after is a whole number of seconds.
                retry_after = max(1, math.ceil(until - now))
                return self._error(
                    429,
                    f"Too Many Requests: retry after {retry_after}",
                    {"retry_after": retry_after},
                )
            if self.broken.get(chat, 0) > 0:
                self.broken[chat] -= 1
                return self._error(502, "Bad Gateway")
            if self.limits:
                wait = self._over_limit(chat, now)
                if wait is not None:
                    return self._too_many(wait)
        for index, (failing, retry_after) in enumerate(self.fail_next):
            if failing == method:
                del self.fail_next[index]
                return self._error(
                    429,
                    f"Too Many Requests: retry after {retry_after}",
                    {"retry_after": retry_after},
                )
        handler: Callable[[dict[str, Any]], Awaitable[web.Response]] | None = getattr(
            self, f"_api_{method}", None
        )
        if handler is None:
            return self._ok(True)
        return await handler(params)

    def _over_limit(self, chat: int, now: float) -> int | None:
        """The whole (unscaled) seconds to wait before writing to ``chat``, if one more
        write now would break a limit; None if it may go."""
        scale = self.scale
        waits: list[int] = []
        if chat < 0:
            limit, window = self.group_limit, self.group_window * scale
        elif self.private_limit is not None:
            limit, window = self.private_limit, self.private_window * scale
        else:
            limit, window = 0, 0.0
        writes = self._accepted.get(chat)
        if limit and writes is not None:
            while writes and writes[0] <= now - window:
                writes.popleft()
            if len(writes) >= limit:
                # Telegram's retry_after is a whole number of seconds.
                waits.append(max(1, math.ceil((writes[0] + window - now) / scale)))
        bot = self._bot_accepted
        while bot and bot[0] <= now - self.bot_window * scale:
            bot.popleft()
        if len(bot) >= self.bot_limit:
            waits.append(1)
        return max(waits) if waits else None

    def _too_many(self, seconds: int) -> web.Response:
        """A 429 asking to wait ``seconds`` (unscaled), scaled as the fake runs."""
        retry_after: float = seconds if self.scale == 1 else round(seconds * self.scale, 3)
        return self._error(
            429,
            f"Too Many Requests: retry after {retry_after}",
            {"retry_after": retry_after},
        )

    @staticmethod
    def _ok(result: Any) -> web.Response:
        return web.json_response({"ok": True, "result": result})

    @staticmethod
    def _error(
        code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> web.Response:
        body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
        if parameters:
            body["parameters"] = parameters
        return web.json_response(body, status=code)

    # ---------------------------------------------------------------- Bot API methods

    async def _api_getMe(self, params: dict[str, Any]) -> web.Response:
        return self._ok(BOT)

    async def _api_setWebhook(self, params: dict[str, Any]) -> web.Response:
        self.webhook = str(params.get("url") or "")
        self.webhook_secret = str(params["secret_token"]) if params.get("secret_token") else None
        if params.get("drop_pending_updates") in (True, "true", "True"):
            self.updates.clear()
        if self.webhook and self._pusher is None:
            self._pusher = asyncio.create_task(self._push())
        self._arrived.set()
        return self._ok(True)

    async def _api_deleteWebhook(self, params: dict[str, Any]) -> web.Response:
        self.webhook = ""
        if params.get("drop_pending_updates") in (True, "true", "True"):
            self.updates.clear()
        return self._ok(True)

    async def _api_getWebhookInfo(self, params: dict[str, Any]) -> web.Response:
        info = {"url": self.webhook, "has_custom_certificate": False}
        return self._ok(info | {"pending_update_count": len(self.updates)})

    async def _push(self) -> None:
        """Deliver the queued updates to the webhook, in order, each until it is taken."""
        async with aiohttp.ClientSession() as session:
            while True:
                if not self.webhook or not self.updates:
                    self._arrived.clear()
                    await self._arrived.wait()
                    continue
                update = self.updates[0]
                headers = {}
                if self.webhook_secret:
                    headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook_secret
                try:
                    async with session.post(self.webhook, json=update, headers=headers) as answer:
                        taken = 200 <= answer.status < 300
                except (aiohttp.ClientError, OSError):
                    taken = False
                if taken:
                    if self.updates and self.updates[0] is update:
                        self.updates.pop(0)
                    self.delivered += 1
                else:
                    await asyncio.sleep(0.2)  # Telegram retries a refused update later

    async def _api_getUpdates(self, params: dict[str, Any]) -> web.Response:
        if self.webhook:
            return self._error(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use"
                " deleteWebhook to delete the webhook first",
            )
        # Telegram serves one poller per bot: a second getUpdates while one is held ends
        # the first with 409 Conflict ("terminated by other getUpdates request"). A poll
        # whose client is gone (its process died) holds nothing: it is simply dropped.
        request = self._request
        if self._polling is not None and not self._polling[0].done():
            held, by = self._polling
            if by is not None and by.transport is not None and not by.transport.is_closing():
                held.set_result(True)
            else:
                held.cancel()
        conflict: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._polling = (conflict, request)
        offset = int(params.get("offset", 0) or 0)
        self.acked = max(self.acked, offset)
        self.updates = [u for u in self.updates if u["update_id"] >= offset]
        timeout = float(params.get("timeout", 0) or 0)
        if not self.updates and timeout > 0:
            # A long poll, as Telegram holds it: answered when an update arrives, or empty
            # after ``timeout`` (PTB cancels a poll in flight when it stops).
            self._arrived.clear()
            arrived = asyncio.ensure_future(self._arrived.wait())
            waiters: set[asyncio.Future[Any]] = {arrived, conflict}
            await asyncio.wait(waiters, timeout=timeout, return_when="FIRST_COMPLETED")
            arrived.cancel()
        if conflict.done() and not conflict.cancelled():
            self.conflicts += 1
            return self._error(
                409,
                "Conflict: terminated by other getUpdates request; make sure that only one"
                " bot instance is running",
            )
        conflict.cancel()
        return self._ok(list(self.updates))

    def _text_refused(self, text: str) -> web.Response | None:
        """Telegram's limits on a message's text: 1 to 4,096 characters, counted in
        UTF-16 code units (an emoji counts two)."""
        if not text.strip():
            return self._error(400, "Bad Request: message text is empty")
        if len(text.encode("utf-16-le")) // 2 > TEXT_LIMIT:
            return self._error(400, "Bad Request: message is too long")
        return None

    def _keyboard_refused(
        self, chat: int, keyboard: list[list[dict[str, Any]]]
    ) -> web.Response | None:
        """A ``web_app`` button: private chats only, to an HTTPS page (Bot API,
        InlineKeyboardButton and WebAppInfo)."""
        for row in keyboard:
            for button in row:
                if "web_app" not in button:
                    continue
                if chat < 0:  # a group's or a channel's id
                    return self._error(400, "Bad Request: BUTTON_TYPE_INVALID")
                if not str(button["web_app"].get("url", "")).startswith("https://"):
                    return self._error(400, "Bad Request: BUTTON_URL_INVALID")
        return None

    async def _api_sendMessage(self, params: dict[str, Any]) -> web.Response:
        chat = int(params["chat_id"])
        refused = self._text_refused(params["text"]) or self._keyboard_refused(
            chat, (params.get("reply_markup") or {}).get("inline_keyboard", [])
        )
        if refused is not None:
            return refused
        if chat in self.forbidden:
            return self._error(403, "Forbidden: bot can't initiate conversation with a user")
        message_id = next(self._ids)
        thread = int(params["message_thread_id"]) if params.get("message_thread_id") else None
        keyboard = (params.get("reply_markup") or {}).get("inline_keyboard", [])
        self.messages[(chat, message_id)] = Message(
            chat, message_id, params["text"], keyboard, thread
        )
        return self._ok(self._message_json(self.messages[(chat, message_id)]))

    async def _api_editMessageText(self, params: dict[str, Any]) -> web.Response:
        chat, message_id = int(params["chat_id"]), int(params["message_id"])
        if chat in self.forbidden:
            return self._error(403, "Forbidden: bot was blocked by the user")
        message = self.messages.get((chat, message_id))
        if message is None:
            return self._error(400, "Bad Request: message to edit not found")
        keyboard = (params.get("reply_markup") or {}).get("inline_keyboard", [])
        refused = self._text_refused(params["text"]) or self._keyboard_refused(chat, keyboard)
        if refused is not None:
            return refused
        if message.text == params["text"] and message.keyboard == keyboard:
            return self._error(400, "Bad Request: message is not modified")
        message.text, message.keyboard = params["text"], keyboard
        message.edits += 1
        if message.versions[-1] != message.text:
            message.versions.append(message.text)
        return self._ok(self._message_json(message))

    async def _api_answerCallbackQuery(self, params: dict[str, Any]) -> web.Response:
        query = str(params["callback_query_id"])
        if len(str(params.get("text") or "").encode("utf-16-le")) // 2 > TOAST_LIMIT:
            return self._error(400, "Bad Request: MESSAGE_TOO_LONG")  # 0-200 characters
        self.answers[query] = params
        self.answered_at[query] = time.monotonic()
        return self._ok(True)

    async def _api_getChatMember(self, params: dict[str, Any]) -> web.Response:
        chat, user = int(params["chat_id"]), int(params["user_id"])
        status = self.members.get((chat, user), "member")
        if status in MEMBER_ERRORS:  # the question itself refused, as Telegram words it
            return self._error(*MEMBER_ERRORS[status])
        return self._ok(self.member(user, status))

    def member(self, user: int, status: str) -> dict[str, Any]:
        """A ChatMember object of the Bot API for ``status``."""
        data: dict[str, Any] = {"user": self.user(user)}
        if status == "creator":
            return data | {"status": "creator", "is_anonymous": False}
        if status == "administrator":
            return data | {"status": "administrator"} | dict.fromkeys(ADMIN_RIGHTS, True)
        if status in ("restricted", "restricted_left"):
            data |= {"status": "restricted", "is_member": status == "restricted"}
            return data | dict.fromkeys(RESTRICTIONS, False) | {"until_date": 0}
        if status == "kicked":
            return data | {"status": "kicked", "until_date": 0}  # 0: banned for ever
        assert status in STATUSES, status
        return data | {"status": status}

    # ---------------------------------------------------------------- JSON shapes

    @staticmethod
    def user(user_id: int, name: str | None = None) -> dict[str, Any]:
        return {"id": user_id, "is_bot": False, "first_name": name or f"Player{user_id}"}

    @staticmethod
    def chat(chat_id: int) -> dict[str, Any]:
        if chat_id < 0:
            return {"id": chat_id, "type": "supergroup", "title": "Sahra night", "is_forum": True}
        return {"id": chat_id, "type": "private", "first_name": f"Player{chat_id}"}

    def _message_json(self, message: Message) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": message.message_id,
            "date": int(time.time()),
            "chat": self.chat(message.chat),
            "from": BOT,
            "text": message.text,
        }
        if message.keyboard:
            data["reply_markup"] = {"inline_keyboard": message.keyboard}
        if message.thread is not None:
            data["message_thread_id"] = message.thread
            data["is_topic_message"] = True
        return data

    # ---------------------------------------------------------------- what users do

    def _queue(self, update: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        update["update_id"] = update_id
        self.updates.append(update)
        self._arrived.set()
        return update_id

    def command(
        self, chat: int, user: int, text: str, name: str | None = None, thread: int | None = None
    ) -> int:
        command = text.split()[0]
        message: dict[str, Any] = {
            "message_id": next(self._ids),
            "date": int(time.time()),
            "chat": self.chat(chat),
            "from": self.user(user, name),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}],
        }
        if thread is not None:
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
        return self._queue({"message": message})

    def press(
        self, user: int, message: Message, data: str, name: str | None = None
    ) -> tuple[str, int]:
        update = self.press_update(user, message, data, name)
        return update["callback_query"]["id"], self._queue(update)

    def press_update(
        self, user: int, message: Message, data: str, name: str | None = None
    ) -> dict[str, Any]:
        """The update Telegram would send for ``user`` pressing a button (not queued:
        what anyone could POST to a webhook, forging it)."""
        return {
            "update_id": 0,  # set when queued
            "callback_query": {
                "id": f"q{next(self._ids)}",
                "from": self.user(user, name),
                "chat_instance": "sahra",
                "data": data,
                "message": self._message_json(message),
            },
        }

    def flood(self, chat: int, seconds: float) -> None:
        """Telegram's flood control for one chat: its writes answer 429 for ``seconds``."""
        self.flooded[chat] = time.monotonic() + seconds

    async def answered(self, query_id: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while query_id not in self.answers:
            if time.monotonic() > deadline:
                raise TimeoutError(f"callback {query_id} was never answered")
            await asyncio.sleep(0.002)
        return self.answers[query_id]

    # ---------------------------------------------------------------- reading chats

    def in_chat(self, chat: int) -> list[Message]:
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat]

    def latest_with_buttons(self, chat: int) -> Message | None:
        for message in reversed(self.in_chat(chat)):
            if any("callback_data" in b for row in message.keyboard for b in row):
                return message
        return None

    def writes_to(self, chat: int) -> list[Call]:
        return [c for c in self.calls if c.method in WRITES and int(c.params["chat_id"]) == chat]

    def too_many(self, chat: int | None = None) -> list[Call]:
        """The calls answered 429 (to ``chat``, or to any chat)."""
        return [
            c
            for c in self.calls
            if c.code == 429 and (chat is None or int(c.params.get("chat_id", 0)) == chat)
        ]
