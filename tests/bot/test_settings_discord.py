"""``SAHRA_DISCORD_API_URL``: the one place the Discord bot is pointed at a server (the
gateway is the one that server names), checked when Sahra starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings


def test_the_discord_api_url_defaults_to_discord_and_loses_a_trailing_slash(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.delenv("SAHRA_DISCORD_API_URL", raising=False)
    assert Settings().discord_api_url == "https://discord.com/api/v10"
    monkeypatch.setenv("SAHRA_DISCORD_API_URL", "http://127.0.0.1:8080/api/v10/")
    assert Settings().discord_api_url == "http://127.0.0.1:8080/api/v10"


def test_a_discord_api_url_that_is_not_http_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SAHRA_DISCORD_API_URL", "discord.com/api/v10")
    with pytest.raises(ValidationError, match="discord_api_url"):
        Settings()
