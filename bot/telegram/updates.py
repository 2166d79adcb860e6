"""Updates of one chat in order, updates of different chats at once.

PTB handles one update at a time unless told otherwise, so with many tables a press waits
behind every other chat's commit and callback answer. ``ChatOrderedProcessor`` is a
``telegram.ext.BaseUpdateProcessor`` (PTB's extension point for this): each update gets
a lane by its chat, a lane runs its updates one after another in the order they arrived,
and different lanes run concurrently.

Why the chat is the key: a group's commands (/new, /join, /begin) depend on each other,
and so do one player's presses in their private chat (the secret doubling toggles of
TX.7 change no table, only that player's hand). Presses of one table come from four
private chats; those need no common lane: each player pressed what the move before
showed them, and the table's lock in the manager orders the moves themselves. A callback
query from a message the bot did not post in a chat (inline) has no chat, so it takes
the lane of the user's private chat (a user's id is their private chat's id).

A lane lives only while it has updates, so the memory held is that of the updates in
flight, not of every chat ever seen.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Hashable
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

# Updates handled at once. A waiting update holds one of these while its lane is busy,
# so the bound is generous: one chat's backlog must not hold up the others.
MAX_CONCURRENT = 1024


@dataclass
class _Lane:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    updates: int = 0  # running or waiting in this lane


def lane_of(update: object) -> Hashable | None:
    """The key whose updates must keep their order; None for an update of no chat."""
    if not isinstance(update, Update):
        return None
    chat = update.effective_chat
    if chat is not None:
        return chat.id
    user = update.effective_user
    return user.id if user is not None else None


class ChatOrderedProcessor(BaseUpdateProcessor):
    """Serialises updates per chat; different chats run concurrently."""

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT) -> None:
        super().__init__(max_concurrent_updates)
        self._lanes: dict[Hashable, _Lane] = {}

    def lanes(self) -> int:
        """Chats with an update running or waiting (tests check that it returns to 0)."""
        return len(self._lanes)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = lane_of(update)
        if key is None:
            await coroutine
            return
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane()
        lane.updates += 1
        try:
            # asyncio.Lock wakes its waiters first come, first served: arrival order.
            async with lane.lock:
                await coroutine
        finally:
            lane.updates -= 1
            if lane.updates == 0:
                del self._lanes[key]
            if inspect.iscoroutine(coroutine) and (
                inspect.getcoroutinestate(coroutine) == inspect.CORO_CREATED
            ):
                coroutine.close()  # cancelled while waiting: never started, never awaited

    async def initialize(self) -> None:
        """Nothing to set up: lanes are made as updates arrive."""

    async def shutdown(self) -> None:
        """Nothing to free: a lane goes when its last update is done."""
