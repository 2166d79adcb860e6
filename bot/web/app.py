"""The web table put together: the signing secret, the gate, the hub of pages and the
server, wired to a table manager and the router that tells every listener of a change."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from bot.delivery.router import PlatformRouter
from bot.tables.live import LiveTable
from bot.tables.manager import TableManager
from bot.tables.pace import Pace
from bot.tables.reviews import Analyse, Reviews
from bot.web.auth import Signer
from bot.web.hub import PageHub
from bot.web.identity import Gate
from bot.web.replays import Replays
from bot.web.server import WebTable
from storage.store import Store

SIGNING_SECRET_NAME = "web_signing"


async def signing_secret(store: Store) -> bytes:
    """Made once and kept in the database: sessions and links stay valid across restarts
    and on every process of the installation."""
    return (await store.shared_secret(SIGNING_SECRET_NAME, secrets.token_urlsafe(48))).encode()


async def web_table(
    manager: TableManager,
    router: PlatformRouter,
    *,
    public_url: str,
    pace: Pace | None = None,
    telegram_token: str | None = None,
    analyse: Analyse | None = None,
    clock: Callable[[], float] = time.time,
) -> WebTable:
    """A web table serving ``manager``'s tables (not listening yet: ``start``); its pages
    show the moves at ``pace`` and replay every deal that ended, with its analysis made by
    ``analyse`` right after the deal (None: replays without one)."""
    pace = pace if pace is not None else Pace()
    manager.committer.pace = pace
    signer = Signer(await signing_secret(manager.store))
    # The store: links spent and tables ended, as every process of the installation sees.
    gate = Gate(signer, manager.store, telegram_token=telegram_token, clock=clock)
    hub = PageHub(gate.session, clock, pace)
    router.listen(hub)

    # The platform draws no per-move hand for a seat on a page (issue 26, item 8), here or
    # on another process; only the owner of a table writes for it.
    def on_pages(table: LiveTable) -> None:
        if table.id in manager.registry:
            seats = hub.seats_on_page(table.id) | hub.elsewhere(table.id)
            table.paced_seats = seats  # their turn's time starts once the page has shown it
            router.pages_changed(table, seats)

    hub.on_pages = on_pages
    # After the hub: a deal's end redraws the pages before its analysis is even scheduled.
    reviews = Reviews(manager.store, analyse)
    router.listen(reviews)
    replays = Replays(reviews, gate)
    return WebTable(manager, hub, gate, replays, public_url=public_url, clock=clock)
