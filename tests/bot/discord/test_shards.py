"""Sharding as Discord documents it: the bot connects one gateway session per shard of the
recommended count, IDENTIFYs them as fast as ``max_concurrency`` allows (one bucket: 5 s
apart), is ready once every shard is, and plays a table whose guild's events come on its
own shard only."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord import client
from tests.backends import BackendFactory
from tests.bot.discord.conftest import Guild, booted
from tests.bot.discord.fake_discord import guild_shard
from tests.bot.discord.test_e2e import ALI, BADR, open_table, play

SHARDS = 2


@pytest.fixture
async def sharded(backend: BackendFactory) -> AsyncIterator[Guild]:
    async for world in booted(backend, shard_count=SHARDS, max_concurrency=SHARDS):
        yield world


async def test_every_shard_is_identified_at_once_and_the_match_plays(sharded: Guild) -> None:
    fake = sharded.fake
    assert sorted((shard, of) for _, shard, of in fake.identifies) == [(0, 2), (1, 2)]
    started = [at for at, _, _ in fake.identifies]
    assert max(started) - min(started) < 2.0  # one bucket each: no 5 s wait between
    assert sharded.bot is not None and sharded.bot.client.shard_count == SHARDS
    assert guild_shard(SHARDS) in (0, 1)
    await open_table(sharded, "tarneeb_solo", [ALI, BADR])
    table = sharded.table()
    users = {table.seat_of(str(user)): user for user in (ALI, BADR)}
    presses = await play(sharded, users, random.Random(9), stop_after=6)  # type: ignore[arg-type]
    assert presses == 6 and table.seq >= 6


async def test_one_identify_bucket_waits_five_seconds_between_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``max_concurrency`` 1, Discord allows one IDENTIFY every 5 s (the wait is
    ``IDENTIFY_SECONDS``; a shorter one here proves the same pacing in less time)."""
    assert client.IDENTIFY_SECONDS == 5.0
    monkeypatch.setattr(client, "IDENTIFY_SECONDS", 0.5)
    async for world in booted(
        BackendFactory("sqlite", tmp_path / "s.sqlite"), shard_count=SHARDS, max_concurrency=1
    ):
        started = sorted(at for at, _, _ in world.fake.identifies)
        assert len(started) == SHARDS and started[1] - started[0] >= 0.5
