"""The frames a page may send, checked at the boundary (``docs/web-protocol.md``).

Anything else is garbage: an error frame answers it and nothing changes. An action is
checked for its shape only; whether it is legal is the engine's answer, through the one
apply path."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

MAX_FRAME = 4096  # bytes: the largest honest frame (a hello with initData) is ~1.5 KB
CARD = r"^(?:[2-9TJQKA]|10)[CDHS]$"


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DiscordLaunch(_Frame):
    """What the Activity's page got from Discord: the OAuth2 code of its AUTHORIZE and the
    instance it runs in. Both are checked with Discord by the server (``activity.py``)."""

    code: str = Field(min_length=1, max_length=512)
    instance: str = Field(min_length=1, max_length=100)


class Hello(_Frame):
    type: Literal["hello"]
    init_data: str | None = Field(default=None, max_length=MAX_FRAME)
    link: str | None = Field(default=None, max_length=2048)
    session: str | None = Field(default=None, max_length=2048)
    discord: DiscordLaunch | None = None
    # The table the page was opened for (``?table=``): routing only, for launch data that
    # carries no ``start_param`` (the private chat's ``web_app`` button). The seat is
    # always decided from the verified user.
    table: int | None = Field(default=None, ge=1, le=2**53)

    @model_validator(mode="after")
    def _one_credential(self) -> Hello:
        given = [
            x for x in (self.init_data, self.link, self.session, self.discord) if x is not None
        ]
        if len(given) != 1:
            raise ValueError("a hello carries exactly one of init_data, link, session, discord")
        return self


class Play(_Frame):
    type: Literal["play"]
    card: str = Field(pattern=CARD)


class Bid(_Frame):
    type: Literal["bid"]
    value: int = Field(ge=0, le=13)


class Pass(_Frame):
    type: Literal["pass"]


class Trump(_Frame):
    type: Literal["trump"]
    suit: Literal["C", "D", "H", "S"]


class Contract(_Frame):
    type: Literal["contract"]
    contract: Literal["complex", "trix"]


class Double(_Frame):
    type: Literal["double"]
    cards: list[Annotated[str, Field(pattern=CARD)]] = Field(max_length=5)


Action = Annotated[Play | Bid | Pass | Trump | Contract | Double, Field(discriminator="type")]


class Move(_Frame):
    type: Literal["move"]
    version: int = Field(ge=0, le=2**31)
    action: Action


PageCommand = Literal[
    "join", "leave", "add_computer", "begin", "reclaim", "ready", "swap", "rematch"
]


class Command(_Frame):
    type: Literal["command"]
    command: PageCommand
    # The state's version the command was offered at: a second tap is stale.
    version: int | None = Field(default=None, ge=0, le=2**31)


class Language(_Frame):
    type: Literal["language"]
    language: Literal["ar", "en"]


class Ping(_Frame):
    type: Literal["ping"]


class Start(_Frame):
    """Start a table where the Activity was launched, when its channel has none."""

    type: Literal["start"]
    variant: str = Field(max_length=32)
    language: Literal["ar", "en"]


class Replay(_Frame):
    """Ask for the replay of a deal of the page's table (by the engine's deal number)."""

    type: Literal["replay"]
    deal: int = Field(ge=1, le=10_000, strict=True)


Incoming = Annotated[
    Hello | Move | Command | Language | Ping | Start | Replay, Field(discriminator="type")
]
_INCOMING: TypeAdapter[Incoming] = TypeAdapter(Incoming)


class BadFrame(ValueError):
    """Not a frame this protocol knows (its text is never logged: it may hold anything)."""


def parse(text: str | bytes) -> Incoming:
    if len(text) > MAX_FRAME:
        raise BadFrame("too_large")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise BadFrame("not_json") from None
    if not isinstance(data, dict):
        raise BadFrame("not_object")
    try:
        return _INCOMING.validate_python(data)
    except ValidationError:
        raise BadFrame("invalid") from None


def action_dict(action: Play | Bid | Pass | Trump | Contract | Double) -> dict[str, Any]:
    """The engine's action dict (canonical card codes: ``10H`` is ``TH``)."""
    data = action.model_dump()
    if "card" in data:
        data["card"] = _canonical(data["card"])
    if "cards" in data:
        data["cards"] = [_canonical(code) for code in data["cards"]]
    return data


def _canonical(code: str) -> str:
    return "T" + code[-1] if code.startswith("10") else code


def out(kind: str, **fields: Any) -> str:
    """A frame to a page, as text."""
    return json.dumps({"type": kind, **fields}, ensure_ascii=False, separators=(",", ":"))
