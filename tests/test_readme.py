"""The README tells an operator about every setting and every command."""

from __future__ import annotations

from pathlib import Path

from bot.settings import Settings
from bot.telegram.handlers import COMMAND_NAMES

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_every_setting_is_in_the_readme() -> None:
    internal = {
        "discord_api_url",
        "telegram_webhook_listen",
        "telegram_webhook_port",
        "bid_seconds",
        "log_format",
    }
    for name in set(Settings.model_fields) - internal:
        assert f"SAHRA_{name.upper()}" in README, name


def test_every_command_is_in_the_readme_in_both_platforms() -> None:
    for name in set(COMMAND_NAMES) - {"start"}:
        assert f"`/{name}" in README, name
        if name != "help":
            assert f"/sahra {name}" in README, name


def test_the_rules_link_points_into_the_repository() -> None:
    assert "(docs/rules.md)" in README
    assert (Path(__file__).resolve().parents[1] / "docs" / "rules.md").exists()
