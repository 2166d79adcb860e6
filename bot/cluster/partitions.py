"""Which process owns a table: its partition, and the partitions a process holds.

A partition is the unit one process owns at a time, under a lease (``storage/lease.py``):
it runs those tables' moves, timers and screens, and nobody else does.

- ``telegram``: every Telegram table. One token's Telegram tables fit in one process many
  times over (Telegram's write budget caps a token near 30 busy tables, docs/scaling.md),
  and one writer keeps a group's 20 writes a minute and the bot's 30 a second in one
  outbox, so there is nothing to share between processes.
- ``discord:<shard>``: the Discord tables of servers on that shard. Discord sends a
  server's events to shard ``(guild_id >> 22) % shard_count`` (its gateway docs), so the
  process that runs the shard owns its tables; a channel's writes come from one process.
  Direct messages come to shard 0 and are forwarded (``inbox.py``).
- ``discord:*``: every Discord table (all shards run in this process).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

ALL_DISCORD = "discord:*"


def shard_of(guild: str, shard_count: int) -> int:
    """Discord's documented shard of a server; a direct message (no server) is shard 0."""
    if not guild or shard_count <= 1:
        return 0
    return (int(guild) >> 22) % shard_count


def partition_of(platform: str, guild: str, shard_count: int | None) -> str:
    """The partition of a table of ``platform`` in ``guild`` (Discord's server id, or "")."""
    if platform != "discord":
        return platform
    if shard_count is None:
        return ALL_DISCORD
    return f"discord:{shard_of(guild, shard_count)}"


def discord_partitions(shard_ids: list[int] | None, shard_count: int | None) -> set[str]:
    """The partitions of a process running these shards (None: all of them)."""
    if shard_ids is None or shard_count is None:
        return {ALL_DISCORD}
    if sorted(shard_ids) == list(range(shard_count)):
        return {ALL_DISCORD}
    return {f"discord:{shard}" for shard in shard_ids}


@dataclass
class Ownership:
    """The partitions this process holds now (it gains them as it takes their leases)."""

    shard_count: int | None = None  # Discord's total, when shards are named
    held: set[str] = field(default_factory=set)

    def add(self, partitions: Iterable[str]) -> None:
        self.held.update(partitions)

    def partition(self, platform: str, guild: str) -> str:
        return partition_of(platform, guild, self.shard_count)

    def owns(self, platform: str, guild: str) -> bool:
        if platform == "discord" and ALL_DISCORD in self.held:
            return True
        return self.partition(platform, guild) in self.held

    def targets(self) -> list[str]:
        """The inbox targets this process answers for: its partitions, ``discord:*``
        included (no Discord update is forwarded to a process that runs every shard, but a
        web page's move on another process is)."""
        return sorted(self.held)
