"""Telegram's webhook, received by our own small server instead of PTB's
``Updater.start_webhook``.

Why: PTB's receiver (``telegram/ext/_utils/webhookhandler.py``, ``_validate_post``) checks
the secret token with ``token != self.secret_token``, which returns at the first character
that differs, so the time of a refusal tells a prober how much of a guess was right. That
comparison lives in a private handler class which ``Updater`` builds itself, so it cannot
be replaced without reaching into PTB's internals. PTB's documented alternative (its
"custom webhook" example) is a server of one's own that puts each ``Update`` on
``Application.update_queue``; everything from the queue on (the gate that forwards to the
owner, the chat-ordered processor, the handlers) stays PTB's, unchanged.

The secret is checked first, in constant time, before the body is even read: a post
without it reaches nothing and costs next to nothing."""

from __future__ import annotations

import hmac
import json
import logging
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.ext import Application, ExtBot

log = logging.getLogger("sahra.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def _octets(text: str) -> bytes:
    # compare_digest takes a str only if it is ASCII, and a header may hold anything;
    # surrogatepass encodes every str (even aiohttp's undecodable bytes) one-to-one.
    return text.encode("utf-8", "surrogatepass")


def secret_matches(expected: str, presented: str | None) -> bool:
    """Whether a post carries the webhook's secret, compared in time that does not depend
    on where a wrong guess differs. Only the length can show, and a length is no secret
    (Sahra's own are always 64). A missing header is compared as an empty one: one path."""
    return hmac.compare_digest(_octets(presented or ""), _octets(expected))


class WebhookReceiver:
    """Listens on ``listen:port`` for Telegram's posts to ``/url_path`` and sets the webhook
    to ``webhook_url`` with the secret: what ``Updater.start_webhook`` did, with the same
    arguments (``Settings.telegram_webhook``), but with our check of the secret."""

    def __init__(
        self,
        application: Application[Any, Any, Any, Any, Any, Any],
        *,
        listen: str,
        port: int,
        url_path: str,
        webhook_url: str,
        secret_token: str,
    ) -> None:
        # The port may be reachable by anyone: never listen without a secret to check.
        if not secret_token:
            raise ValueError("a webhook needs a secret token")
        self.application = application
        self.listen = listen
        self.port = port
        self.path = "/" + url_path.strip("/")
        self.webhook_url = webhook_url
        self._secret = secret_token
        self._runner: web.AppRunner | None = None

    @property
    def running(self) -> bool:
        return self._runner is not None

    def web_application(self) -> web.Application:
        app = web.Application()
        for path in {self.path, self.path.rstrip("/") + "/"}:  # PTB took both, so do we
            app.router.add_post(path, self._post)
        return app

    async def start(self) -> None:
        """Listen, then tell Telegram where to post (so its first post finds us)."""
        runner = web.AppRunner(self.web_application(), access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.listen, self.port).start()
            await self.application.bot.set_webhook(url=self.webhook_url, secret_token=self._secret)
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner

    async def stop(self) -> None:
        """Stop listening; a post already being taken finishes first."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _post(self, request: web.Request) -> web.Response:
        if not secret_matches(self._secret, request.headers.get(SECRET_HEADER)):
            # Never the presented value: a near miss of the secret is close to the secret.
            log.debug("event=telegram_webhook_refused reason=secret")
            return web.Response(status=403)
        if request.content_type != "application/json":
            return web.Response(status=403)  # as PTB answered: Telegram only sends JSON
        body = await request.read()
        bot = self.application.bot
        try:
            update = Update.de_json(json.loads(body), bot)
        except Exception:  # whatever PTB cannot make an Update of, as PTB answered it
            log.warning("event=telegram_webhook_unreadable bytes=%d", len(body))
            return web.Response(status=400)
        if isinstance(bot, ExtBot):  # as PTB's receiver: cached callback data, if used
            bot.insert_callback_data(update)
        await self.application.update_queue.put(update)
        return web.Response(status=200)
