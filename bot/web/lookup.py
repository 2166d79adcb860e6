"""Which table a page's credential names, wherever it is."""

from __future__ import annotations

from bot.tables.errors import Refusal
from bot.tables.live import LIVE_STATUSES, LiveTable
from bot.tables.manager import TableManager
from bot.tables.recovery import followed
from bot.web.identity import Denied
from bot.web.remote import RemotePages


async def find_table(
    manager: TableManager, remote: RemotePages | None, table_id: int
) -> LiveTable:
    """The table a page's credential names: live on this process, on another one
    (``remote``), or ended (its last state: the result); ``Denied`` when there is none."""
    if remote is not None:
        table = await remote.table(table_id)
        if table is None:
            raise Denied("unknown_table")
        return table
    try:
        return manager.table(table_id)
    except Refusal:
        pass
    stored = await manager.store.load_table(table_id)
    if stored is None:
        raise Denied("unknown_table")
    if stored.table.status in LIVE_STATUSES:
        # Live in the log but not loaded: this process is starting (it listens before
        # its tables are loaded). The page is told to come back, not that the table
        # is gone.
        raise Denied("starting")
    return followed(stored, None)  # an ended table: its last state, the result
