"""Waiting on a bot from the outside, in real time: what the benchmarks that drive the
real adapters share."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

SETUP_TIMEOUT = 30.0  # real seconds


async def until(condition: Callable[[], bool], what: str, timeout: float = SETUP_TIMEOUT) -> None:
    """Poll ``condition`` until it holds; a TimeoutError naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"never happened: {what}")
        await asyncio.sleep(0.005)
