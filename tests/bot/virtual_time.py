"""A clock and a sleep that jump instead of waiting: an outbox's minutes in no time."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass


@dataclass
class VirtualTime:
    now: float = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)  # still let every other task run
