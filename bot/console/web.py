"""``sahra play --web``: the terminal's table served as the web table on this machine.

The same manager and table as ``sahra play``; the page is the player's hand and table, so
the terminal only prints the link and keeps the table's clock (timers, computers) going
until Ctrl-C. No bot token is needed: the link carries a session signed for the console's
player, and the page is served on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio

from bot.console.terminal import ConsoleNotifier
from bot.delivery.router import PlatformRouter
from bot.tables import LiveTable, PlayerRef, TableManager
from bot.web.app import web_table
from bot.web.socket import Visitor

HOST = "127.0.0.1"
TICK = 0.2  # seconds between two looks at the table's deadlines


async def serve(
    manager: TableManager,
    router: PlatformRouter,
    table: LiveTable,
    player: PlayerRef,
    notifier: ConsoleNotifier,
    message: str,
    port: int = 0,
) -> int:
    """Serve ``table``'s page until cancelled (Ctrl-C); ``message`` has an ``{url}``."""
    web = await web_table(manager, router, public_url=f"http://{HOST}:{port}")
    port = await web.start(HOST, port)
    try:
        visitor = Visitor(
            table.place.platform, player.user_id, player.name, player.language, table.id
        )
        session = web.gate.session(visitor, table.id)
        url = f"http://{HOST}:{port}/#session={session}"
        notifier.write(message.format(url=url, keys="Ctrl-C"))
        while True:
            await manager.settle()
            await notifier.outbox.flush()
            await manager.run_due()
            await asyncio.sleep(TICK)
    finally:
        await web.stop()
