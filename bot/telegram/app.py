"""Assembling and running the Telegram bot: the PTB ``Application`` (updates of different
chats handled at once, of one chat in order), the outbox, the notifier, the handlers and
the table manager over one SQLite database.

There is no PTB rate limiter: the outbox owns every budget and retry. (``AIORateLimiter``
halts every request of the bot while one chat's 429 is waited out, and gives a write up
after its retries; the outbox pauses only that chat and never drops a write.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import Application, ApplicationBuilder, ApplicationHandlerStop, TypeHandler

from bot.delivery import Outbox
from bot.delivery.contacts import Contacts
from bot.delivery.memory import StoredMessages
from bot.delivery.outbox import GROUP_INTERVAL, PRIVATE_INTERVAL
from bot.delivery.router import PlatformRouter
from bot.delivery.split import TELEGRAM
from bot.tables import TableManager
from bot.tables.computers import Computers
from bot.telegram.handlers import PLATFORM, TelegramFrontend
from bot.telegram.notifier import TelegramNotifier
from bot.telegram.sender import TelegramSender
from bot.telegram.texts import commands
from bot.telegram.updates import ChatOrderedProcessor
from bot.telegram.webhook import WebhookReceiver
from storage.backend import Backend
from storage.store import Store

log = logging.getLogger("sahra.telegram")

DEFAULT_API_URL = "https://api.telegram.org/bot"
GATE_GROUP = -2  # before the handlers' own group -1 (prefetch)
WEBHOOK_SECRET_NAME = "telegram_webhook"  # its row in the database's shared secrets


@dataclass
class TelegramBot:
    """Everything one running Telegram bot holds."""

    application: Application[Any, Any, Any, Any, Any, Any]
    manager: TableManager
    outbox: Outbox
    notifier: TelegramNotifier
    contacts: Contacts
    frontend: TelegramFrontend
    memory: StoredMessages
    # Whether this process owns the Telegram tables (holds the ``telegram`` lease). A
    # process that does not hands every update it receives (webhook mode, behind a load
    # balancer) to ``forward``: the owner applies it (``bot/cluster/inbox.py``).
    owned: bool = True
    forward: Callable[[str], Awaitable[None]] | None = None
    receiver: WebhookReceiver | None = None  # webhook mode, once listening

    async def gate(self, update: Update, context: object) -> None:
        """Before any handler: an update this process may not handle goes to the owner
        (as the JSON Telegram sent), and nothing here answers it."""
        if self.owned or self.forward is None:
            return
        await self.forward(json.dumps(update.to_dict(), separators=(",", ":")))
        raise ApplicationHandlerStop

    async def receive(self, payload: str) -> None:
        """An update another process received for us: handled as if it came here."""
        update = Update.de_json(json.loads(payload), self.application.bot)
        await self.application.update_queue.put(update)


def build(
    token: str,
    db: Backend,
    *,
    api_url: str | None = None,
    outbox_clock: Callable[[], float] | None = None,
    outbox_sleep: Callable[[float], Awaitable[None]] | None = None,
    computers: Computers | None = None,
    poll_timeout: float = 10.0,
    manager: TableManager | None = None,
    router: PlatformRouter | None = None,
    group_interval: float = GROUP_INTERVAL,
    private_interval: float = PRIVATE_INTERVAL,
) -> TelegramBot:
    """Wire a bot; nothing talks to Telegram until ``start``. ``api_url`` points at a
    self-hosted Bot API server (or a test's fake); the outbox's clock can be injected."""
    builder = (
        ApplicationBuilder()
        .token(token)
        .base_url(api_url or DEFAULT_API_URL)
        .concurrent_updates(ChatOrderedProcessor())
        .get_updates_read_timeout(poll_timeout + 5)
    )
    application = builder.build()
    contacts = Contacts(db, PLATFORM)
    memory = StoredMessages(Store(db), PLATFORM)  # message ids survive a restart
    outbox = Outbox(
        TelegramSender(application.bot),
        clock=outbox_clock,
        sleep=outbox_sleep,
        memory=memory,
        limit=TELEGRAM,
        group_interval=group_interval,
        private_interval=private_interval,
    )
    notifier = TelegramNotifier(outbox, contacts, lambda: application.bot.username)
    outbox.on_unreachable = notifier.unreachable  # a closed private chat, reported once
    if manager is None or router is None:  # alone in the process: a manager of its own
        router = PlatformRouter()
        manager = TableManager(db, router, computers=computers)
    router.add(PLATFORM, notifier)
    frontend = TelegramFrontend(manager, contacts, notifier, outbox)
    bot = TelegramBot(application, manager, outbox, notifier, contacts, frontend, memory)
    application.add_handler(TypeHandler(Update, bot.gate), group=GATE_GROUP)
    frontend.register(application)
    return bot


async def webhook_secret(db: Backend) -> str:
    """The webhook's secret token when none is configured: made once (64 characters of
    Telegram's alphabet A-Z a-z 0-9 _ -, 384 random bits) and kept in the database, so
    every process on it sets the same one and accepts what Telegram sends any of them."""
    return await Store(db).shared_secret(WEBHOOK_SECRET_NAME, secrets.token_urlsafe(48))


async def _start_webhook(bot: TelegramBot, webhook: dict[str, Any]) -> None:
    """Our receiver, not PTB's ``start_webhook``: it checks the secret token in constant
    time (``bot/telegram/webhook.py`` says why) and refuses to listen without one."""
    receiver = WebhookReceiver(bot.application, **webhook)
    await receiver.start()
    bot.receiver = receiver


async def register_commands(bot: TelegramBot) -> None:
    """The command menu, in English by default and Arabic for Arabic clients."""
    api = bot.application.bot
    for language, code in (("en", None), ("ar", "ar")):
        menu = [BotCommand(name, about) for name, about in commands(language)]
        for scope in (BotCommandScopeAllGroupChats(), BotCommandScopeAllPrivateChats()):
            await api.set_my_commands(menu, scope=scope, language_code=code)


async def listen(bot: TelegramBot, webhook: dict[str, Any]) -> None:
    """Receive webhook updates without owning the tables: each one is forwarded to the
    owner until this process takes the ``telegram`` lease (``own``)."""
    bot.owned = False
    application = bot.application
    await application.initialize()
    await _start_webhook(bot, webhook)
    await application.start()
    log.info("event=telegram_listening owner=no")


async def own(
    bot: TelegramBot, *, poll_timeout: float = 10.0, webhook: dict[str, Any] | None = None
) -> None:
    """Become the process that handles Telegram's updates (the tables are loaded by the
    caller): start polling, or handle the webhook's updates here instead of forwarding."""
    await bot.contacts.load()
    bot.outbox.restore(await bot.memory.load())  # a restart edits the same messages
    application = bot.application
    if not application.running:
        await application.initialize()
    await register_commands(bot)
    assert application.updater is not None
    # Already receiving when this process listened (and forwarded) before it owned.
    if bot.receiver is None and not application.updater.running:
        if webhook:
            await _start_webhook(bot, webhook)
        else:
            await application.updater.start_polling(timeout=int(poll_timeout))
    if not application.running:
        await application.start()
    bot.owned = True
    log.info("event=telegram_started username=%s", application.bot.username)


async def start(
    bot: TelegramBot,
    *,
    poll_timeout: float = 10.0,
    webhook: dict[str, Any] | None = None,
    start_manager: bool = True,
) -> None:
    """Load the tables (unless a shared manager was started already), then start receiving
    updates (polling, or a webhook)."""
    if start_manager:
        await bot.manager.start()
    await own(bot, poll_timeout=poll_timeout, webhook=webhook)
    if start_manager:
        await bot.manager.resume()  # every table's screens, redrawn where they were


async def stop(bot: TelegramBot, *, stop_manager: bool = True) -> None:
    """Stop taking updates, finish in-flight moves, flush what can be sent, close."""
    application = bot.application
    if bot.receiver is not None:
        await bot.receiver.stop()
        bot.receiver = None
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    if application.running:
        await application.stop()
    if stop_manager:
        await bot.manager.close()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(bot.outbox.flush(), timeout=5)
    await bot.outbox.close()
    await application.shutdown()
