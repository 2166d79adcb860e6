"""Discord's failures mapped to what the outbox does with them: a server error or a
network failure is retried (Transient), any other refusal dropped (Refused); forbidden and
not-found keep their own meaning for the caller."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from bot.delivery import Refused, Transient
from bot.discord.sender import _mapped


def response(status: int) -> Any:
    return SimpleNamespace(status=status, reason="x")


async def failing(error: BaseException) -> None:
    raise error


@pytest.mark.parametrize(
    "error",
    [
        discord.DiscordServerError(response(502), {"message": "bad gateway", "code": 0}),
        aiohttp.ClientConnectionError("reset"),
        TimeoutError(),
        ConnectionResetError(),
    ],
)
async def test_server_and_network_failures_are_retried(error: BaseException) -> None:
    with pytest.raises(Transient):
        await _mapped(lambda: failing(error))


async def test_another_refusal_is_dropped_not_retried() -> None:
    error = discord.HTTPException(response(400), {"message": "Invalid Form Body", "code": 50035})
    with pytest.raises(Refused, match="50035"):
        await _mapped(lambda: failing(error))


@pytest.mark.parametrize("kind", [discord.Forbidden, discord.NotFound])
async def test_forbidden_and_not_found_reach_the_caller_as_they_are(kind: type) -> None:
    error = kind(response(403 if kind is discord.Forbidden else 404), {"message": "", "code": 1})
    with pytest.raises(kind):
        await _mapped(lambda: failing(error))
