"""Which message each outbox key is edited through, kept across restarts.

The outbox edits a table's message in place for hours; if the process restarts and has
forgotten the message's id, the next screen goes out as a new message and the old copy
keeps its live buttons. So the outbox tells a ``MessageMemory`` about every message it
will edit again (``remember``) and every one it will not (``forget``), and a restarted
process hands what was kept to ``Outbox.restore``.

Keys are tuples of strings and ints (``("table", 7, 3)``, ``("hand", 7)``) or a bare
string or int; ``StoredMessages`` keeps them as JSON text and gives them back as the same
tuples.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Protocol

from storage.records import MessageDropped, MessageSaved

if TYPE_CHECKING:
    from storage.store import Store

# Telegram lets a bot edit its messages for 48 hours: an older one is not worth keeping.
MESSAGE_LIFETIME = 2 * 24 * 3600.0


class MessageMemory(Protocol):
    async def remember(self, chat: str, key: Hashable, message: str, group: bool) -> None:
        """``key``'s message in ``chat`` is now ``message`` (to be edited later)."""

    async def forget(self, chat: str, key: Hashable) -> None:
        """``key`` of ``chat`` names no message to edit any more."""


def encode_key(key: Hashable) -> str:
    """``key`` as JSON text; a tuple becomes a list (``decode_key`` turns it back)."""
    _check(key)
    return json.dumps(key, separators=(",", ":"), ensure_ascii=False)


def decode_key(text: str) -> Hashable:
    return _tuples(json.loads(text))


def _check(key: object) -> None:
    if isinstance(key, tuple):
        for part in key:
            _check(part)
    elif isinstance(key, bool) or not isinstance(key, str | int):
        raise TypeError(f"a message key is made of strings and ints, not {key!r}")


def _tuples(value: Any) -> Hashable:
    if isinstance(value, list):
        return tuple(_tuples(part) for part in value)
    if isinstance(value, str | int) and not isinstance(value, bool):
        return value
    raise ValueError(f"not a message key: {value!r}")


class StoredMessages:
    """A ``MessageMemory`` kept in the store, for one platform's outbox."""

    def __init__(
        self,
        store: Store,
        platform: str,
        *,
        clock: Callable[[], float] = time.time,
        lifetime: float = MESSAGE_LIFETIME,
    ) -> None:
        self.store = store
        self.platform = platform
        self.clock = clock  # wall clock: the rows outlive the process
        self.lifetime = lifetime

    async def remember(self, chat: str, key: Hashable, message: str, group: bool) -> None:
        change = MessageSaved(self.platform, chat, encode_key(key), message, group, self.clock())
        await self.store.commit([change])

    async def forget(self, chat: str, key: Hashable) -> None:
        await self.store.commit([MessageDropped(self.platform, chat, encode_key(key))])

    async def load(self) -> list[tuple[str, Hashable, str, bool]]:
        """Every kept (chat, key, message id, group) of this platform, oldest first, for
        ``Outbox.restore``; messages too old to be edited any more are purged first."""
        await self.store.drop_messages_before(self.clock() - self.lifetime)
        entries: list[tuple[str, Hashable, str, bool]] = []
        for row in await self.store.messages(self.platform):
            try:
                key = decode_key(row.key)
            except ValueError:  # not written by this module: nothing to edit through it
                continue
            entries.append((row.chat, key, row.message_id, row.group))
        return entries
