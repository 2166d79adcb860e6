"""Direct-message buttons of tables that another process owns.

Discord sends every direct-message interaction to shard 0 (its gateway docs: DMs are
only ever sent to shard 0), whichever server the table is on. When shards are spread over
processes, the process running shard 0 looks up the table the button names and, if its
server is on a shard of another process, leaves the interaction's payload in the inbox
for that process (``bot/cluster/inbox.py``), which handles and answers it as if Discord
had sent it there (any process may answer an interaction: its token is in the payload).

If nobody claims it within ``UNCLAIMED_SECONDS`` (that shard's process is down and its
standby not up yet), the row is taken back, so the press can never be applied late, and
the player is told to press again in a moment, within Discord's 3 s.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import discord
from cachetools import LRUCache

from bot.cluster.inbox import Inbox
from bot.cluster.partitions import Ownership
from bot.discord.texts import message_content
from bot.discord.views import decode_custom_id
from bot.logs import where
from bot.render import refusal_notice
from bot.tables.config import TableConfig
from storage.errors import StorageError
from storage.store import Store

log = logging.getLogger("sahra.discord")

UNCLAIMED_SECONDS = 2.0
COMPONENT = 3  # Discord's interaction type of a button press
HOMES_KEPT = 10_000  # table id → server, remembered (a table never changes server)


def table_of(data: dict[str, Any]) -> int | None:
    """The table a direct-message button press names, or None (not a DM button)."""
    if data.get("guild_id") is not None or data.get("type") != COMPONENT:
        return None
    inner = data.get("data")
    decoded = decode_custom_id(inner.get("custom_id") if isinstance(inner, dict) else None)
    return None if decoded is None else decoded[0]


class DmForwarding:
    def __init__(
        self,
        client: discord.Client,
        store: Store,
        ownership: Ownership,
        inbox: Inbox,
    ) -> None:
        self.client = client
        self.store = store
        self.ownership = ownership
        self.inbox = inbox
        state: Any = client._connection  # discord.py's gateway dispatch table lives here
        self._state = state
        self._original = state.parsers["INTERACTION_CREATE"]
        self._homes: LRUCache[int, tuple[str, str]] = LRUCache(HOMES_KEPT)  # server, language
        self._tasks: set[asyncio.Task[None]] = set()

    def install(self) -> None:
        """Route INTERACTION_CREATE through ``_parse`` (the gateway reads this table for
        every event it receives)."""
        self._state.parsers["INTERACTION_CREATE"] = self._parse

    def _parse(self, data: dict[str, Any]) -> None:
        table_id = table_of(data)
        if table_id is None:
            self._original(data)
            return
        task = asyncio.create_task(self._route(data, table_id))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        """Supervision: a routing task that failed is logged (type and place only)."""
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error(
                "event=forward_route_failed error=%s where=%s", type(error).__name__, where(error)
            )

    async def receive(self, payload: str) -> None:
        """An interaction another process left for this one: handled as if received."""
        self._original(json.loads(payload))

    async def _route(self, data: dict[str, Any], table_id: int) -> None:
        try:
            home = await self._home_of(table_id)
        except Exception as error:  # unreachable database, or a row it cannot read
            log.warning(
                "event=forward_lookup_failed error=%s where=%s", type(error).__name__, where(error)
            )
            home = None
        if home is None or self.ownership.owns("discord", home[0]):
            self._original(data)  # ours, or unknown: answered here either way
            return
        guild, language = home
        target = self.ownership.partition("discord", guild)
        try:
            row = await self.inbox.forward(target, json.dumps(data, separators=(",", ":")))
        except StorageError as error:
            log.warning("event=forward_failed target=%s error=%s", target, type(error).__name__)
            await self._moving(data, language)
            return
        await asyncio.sleep(UNCLAIMED_SECONDS)
        try:
            unclaimed = await self.inbox.withdraw(row)
        except StorageError:
            return  # the owner may have it; never answer twice
        if unclaimed:
            log.warning("event=forward_unclaimed target=%s row=%d", target, row)
            await self._moving(data, language)

    async def _home_of(self, table_id: int) -> tuple[str, str] | None:
        """The table's server and language (both fixed for its life), or None."""
        home = self._homes.get(table_id)
        if home is None:
            row = await self.store.table_home(table_id)
            if row is None or row.platform != "discord":
                return None
            language = TableConfig.model_validate_json(row.config).language
            home = self._homes[table_id] = (row.guild, language)
        return home

    async def _moving(self, data: dict[str, Any], language: str) -> None:
        """Tell the presser, in the table's language, to try again: the table's process
        is changing."""
        payload: Any = data  # Discord's own JSON, exactly as the gateway sent it
        interaction: discord.Interaction[Any] = discord.Interaction(
            data=payload, state=self._state
        )
        try:
            await interaction.response.send_message(
                message_content(refusal_notice(language, "moving").text), ephemeral=True
            )
        except discord.HTTPException as error:
            log.warning("event=interaction_answer_failed status=%s", error.status)
