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


@pytest.mark.parametrize(
    ("written", "plan"),
    [("8", (list(range(8)), 8)), ("0-3/4", ([0, 1, 2, 3], 4)), ("1,0/2", ([0, 1], 2))],
)
def test_discord_shards_name_every_shard_of_the_count(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, written: str, plan: tuple[list[int], int]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SAHRA_DISCORD_SHARDS", written)
    assert Settings().discord_shard_plan() == plan


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("0-3/8", "SAHRA_DATABASE_URL"),  # the other shards' processes need a shared database
        ("0-8/8", "from 0 to 7"),
        ("many", "0-7/8"),
    ],
)
def test_discord_shards_that_would_leave_guilds_unserved_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, written: str, reason: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SAHRA_DISCORD_SHARDS", written)
    with pytest.raises(ValidationError, match=reason):
        Settings()


def test_a_subset_of_the_shards_runs_beside_postgresql(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SAHRA_DISCORD_SHARDS", "4-7/8")
    monkeypatch.setenv("SAHRA_DATABASE_URL", "postgresql://sahra@127.0.0.1/sahra")
    assert Settings().discord_shard_plan() == ([4, 5, 6, 7], 8)


def test_an_activity_names_every_setting_it_lacks_and_its_secret_is_redacted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("TOKEN", "CLIENT_ID", "CLIENT_SECRET"):
        monkeypatch.delenv(f"SAHRA_DISCORD_{name}", raising=False)
    monkeypatch.delenv("SAHRA_WEB_URL", raising=False)
    monkeypatch.setenv("SAHRA_DISCORD_ACTIVITY", "1")
    monkeypatch.setenv("SAHRA_DISCORD_TOKEN", "bot-token-0123456789")
    with pytest.raises(ValidationError) as refused:
        Settings()
    said = str(refused.value)
    assert "SAHRA_DISCORD_CLIENT_ID" in said and "SAHRA_DISCORD_CLIENT_SECRET" in said
    assert "SAHRA_WEB_URL" in said and "SAHRA_DISCORD_TOKEN," not in said
    monkeypatch.setenv("SAHRA_DISCORD_CLIENT_ID", "424242")
    monkeypatch.setenv("SAHRA_DISCORD_CLIENT_SECRET", "client-secret-0123456789")
    monkeypatch.setenv("SAHRA_WEB_URL", "https://table.example.org")
    settings = Settings()
    assert settings.discord_activity and settings.discord_client_id == 424242
    assert "client-secret-0123456789" in settings.secrets()  # the logs redact it
