"""Discord's shards spread over two ``sahra run`` processes on one PostgreSQL database.

Process A runs shard 0 (where Discord sends every direct message), process B shard 1
(where the test server is). B owns the server's table; a button on a player's DM hand
reaches A, which forwards it through the database; B applies it exactly once and answers
it. With B killed, A takes the press back unapplied and tells the player to press again;
a new B takes shard 1 over and the next press is applied."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from bot.render import refusal_notice
from bot.render.codes import decode
from storage.store import Store
from tests.backends import BackendFactory
from tests.bot.discord.conftest import buttons, playable
from tests.bot.discord.fake_discord import CHANNEL, FakeDiscord, Message, guild_shard
from tests.bot.test_failover import show_logs, spawn, stop_all, text, until

pytestmark = pytest.mark.backend_matters  # processes that share one PostgreSQL database

ALI = 301


def dm_hand(fake: FakeDiscord) -> Message | None:
    """Ali's newest direct message with a button he may press."""
    found = [
        m
        for m in fake.messages.values()
        if fake._dm_channels.get(m.channel) == ALI and playable(m)
    ]
    return max(found, key=lambda m: m.id) if found else None


def public(fake: FakeDiscord) -> Message:
    """The newest table or lobby message (the one with the hand or rules button)."""
    tables = [
        m
        for m in fake.in_channel(CHANNEL)
        if any(a["type"] in ("hand", "rules") for _, a in buttons(m))
    ]
    return max(tables, key=lambda m: m.id)


def button(message: Message, kind: str) -> str:
    return next(c for c, action in buttons(message) if action["type"] == kind)


async def answer(fake: FakeDiscord, interaction: int) -> dict[str, Any]:
    return await fake.answered(interaction, timeout=15)


async def human_moves(backend: BackendFactory) -> list[tuple[int, dict[str, Any]]]:
    db = backend.make()
    await db.start()
    try:
        stored = await Store(db).load_table(1)
    finally:
        await db.close()
    assert stored is not None
    return [(a.seq, a.action) for a in stored.actions if a.source == "human"]


async def press(fake: FakeDiscord) -> tuple[dict[str, Any], tuple[int, int, dict[str, Any]]]:
    await until(lambda: dm_hand(fake) is not None, "Ali's DM hand has a move", 30)
    message = dm_hand(fake)
    assert message is not None
    custom_id, _ = playable(message)[0]
    decoded = decode(custom_id[2:])
    assert decoded is not None
    reply = await answer(fake, await fake.click(ALI, message, custom_id))
    return reply, decoded


async def test_a_dm_press_reaching_the_other_shards_process_is_applied_once_by_the_owner(
    backend: BackendFactory, tmp_path: Path
) -> None:
    if backend.url is None:
        pytest.skip("shards spread over processes share a PostgreSQL database")
    fake = FakeDiscord(shard_count=2, max_concurrency=2)
    await fake.start()
    assert guild_shard(2) == 1
    env = {
        **os.environ,
        "SAHRA_DISCORD_TOKEN": "fake-token",
        "SAHRA_DISCORD_API_URL": fake.base,
        "SAHRA_DATABASE_URL": backend.url,
        "SAHRA_LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("SAHRA_TELEGRAM_TOKEN", None)
    logs = [tmp_path / "a.log", tmp_path / "b.log", tmp_path / "b2.log"]
    a = spawn({**env, "SAHRA_DISCORD_SHARDS": "0/2"}, logs[0])
    b = spawn({**env, "SAHRA_DISCORD_SHARDS": "1/2"}, logs[1])
    processes = [a, b]
    try:
        for log in logs[:2]:
            await until(lambda log=log: "event=bots_started" in text(log), f"{log.name} runs")
        reply = await answer(fake, await fake.slash(ALI, "new", variant="tarneeb_solo"))
        assert reply["type"] == 5
        await until(lambda: button_present(fake, "add_computer"), "the lobby")
        for _ in range(3):
            add = button(public(fake), "add_computer")
            await answer(fake, await fake.click(ALI, public(fake), add))
            # A person clicks what the message shows once it is redrawn: a second click on
            # the same drawing would be a double tap, refused as stale.
            await until(
                lambda add=add: (
                    not button_present(fake, "add_computer")
                    or button(public(fake), "add_computer") != add
                ),
                "the lobby redrawn",
            )
        await until(lambda: button_present(fake, "begin"), "a full lobby")
        await answer(fake, await fake.click(ALI, public(fake), button(public(fake), "begin")))
        await until(lambda: button_present(fake, "hand"), "the table")
        await answer(fake, await fake.slash(ALI, "hand", mode="dm"))  # hands to DMs too

        acked = []
        for _ in range(3):  # each press reaches A (shard 0) and is applied by B
            reply, decoded = await press(fake)
            assert reply["type"] in (6, 7), reply  # updated by the owner, not refused
            acked.append(decoded)
            await until(lambda d=decoded: dm_hand_changed(fake, d), "the hand redrawn", 30)
        # A logs a forward once its write returned, which B's answer may overtake.
        await until(
            lambda: text(logs[0]).count("event=forwarded target=discord:1") >= 3,
            "A's three forwards logged",
        )
        await until(
            lambda: text(logs[1]).count("event=forward_claimed target=discord:1") >= 3,
            "B's three claims logged",
        )
        assert "event=action" not in text(logs[0])  # A never applies B's table's moves
        moves = dict(await human_moves(backend))
        for _, version, action in acked:  # each exactly once, at its own number
            assert moves[version + 1] == action
        assert len(moves) == len(acked)

        # Ali's turn is published after the computers' moves are committed: nothing of
        # B's is in flight when it dies.
        await until(lambda: dm_hand(fake) is not None, "Ali to act again", 30)
        b.send_signal(signal.SIGKILL)  # the owner of shard 1 dies
        b.wait()
        reply, _ = await press(fake)
        told = {refusal_notice(language, "moving").text for language in ("ar", "en")}
        assert reply["type"] == 4 and reply["data"]["content"] in told  # the table's language
        assert "event=forward_unclaimed" in text(logs[0])
        assert len(await human_moves(backend)) == len(acked)  # taken back, never applied

        processes.append(spawn({**env, "SAHRA_DISCORD_SHARDS": "1/2"}, logs[2]))
        await until(lambda: "event=bots_started" in text(logs[2]), "a new B runs shard 1", 30)
        reply, decoded = await press(fake)
        assert reply["type"] in (6, 7), reply

        async def logged() -> bool:  # answered at once (deferred); in the log once committed
            return decoded[1] + 1 in dict(await human_moves(backend))

        await until(logged, "the press in the log")
        moves = dict(await human_moves(backend))
        assert moves[decoded[1] + 1] == decoded[2]
    finally:
        await stop_all(processes)
        await fake.close()
        show_logs(logs)


def button_present(fake: FakeDiscord, kind: str) -> bool:
    return any(a["type"] == kind for m in fake.in_channel(CHANNEL) for _, a in buttons(m))


def dm_hand_changed(fake: FakeDiscord, pressed: tuple[int, int, dict[str, Any]]) -> bool:
    """Ali's DM hand no longer offers the press just made (redrawn by the owner)."""
    message = dm_hand(fake)
    if message is None:
        return True
    return all(decode(c[2:]) != pressed for c, _ in playable(message))
