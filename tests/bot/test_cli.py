"""``sahra run`` picks the platforms from the settings; the console when no token is set;
a bad setting stops it with a message naming the setting."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import Settings


def test_without_a_token_run_is_the_console_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("SAHRA_TELEGRAM_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "--variant", "syrian41", "--lang", "en", "--db", "c.sqlite"]) == 0
    out = capsys.readouterr().out
    assert "A new match" in out and "the match is saved" in out
    assert (tmp_path / "c.sqlite").exists()


def test_a_bad_setting_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SAHRA_TELEGRAM_WEBHOOK_PORT", "not-a-port")
    assert main(["run"]) == 2
    assert "SAHRA_TELEGRAM_WEBHOOK_PORT" in capsys.readouterr().err


SECRET = "a-s3cret_of-20chars"


def test_webhook_mode_is_chosen_by_a_public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAHRA_TELEGRAM_WEBHOOK_URL", "https://bot.example.org/")
    monkeypatch.setenv("SAHRA_TELEGRAM_WEBHOOK_SECRET", SECRET)
    webhook = Settings().telegram_webhook("a-stored-secret-never-used")
    assert webhook == {
        "listen": "0.0.0.0",
        "port": 8443,
        "url_path": "telegram",
        "webhook_url": "https://bot.example.org/telegram",
        "secret_token": SECRET,  # the configured secret wins over the stored one
    }
    monkeypatch.delenv("SAHRA_TELEGRAM_WEBHOOK_URL")
    assert Settings().telegram_webhook() is None


def test_a_webhook_is_never_set_up_without_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAHRA_TELEGRAM_WEBHOOK_URL", "https://bot.example.org/")
    monkeypatch.setenv("SAHRA_TELEGRAM_WEBHOOK_SECRET", "")  # as deploy/.env.example leaves it
    settings = Settings()
    assert settings.telegram_webhook_secret is None
    with pytest.raises(ValueError, match="secret"):
        settings.telegram_webhook()
    webhook = settings.telegram_webhook("the-secret-kept-in-the-database")
    assert webhook is not None and webhook["secret_token"] == "the-secret-kept-in-the-database"


@pytest.mark.parametrize(
    "secret", ["short-s3cret", "has spaces and 20+ chars", "é" * 20, "x" * 257]
)
def test_a_weak_or_malformed_webhook_secret_is_refused_without_being_printed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], secret: str
) -> None:
    monkeypatch.setenv("SAHRA_TELEGRAM_WEBHOOK_SECRET", secret)
    assert main(["tables"]) == 2
    err = capsys.readouterr().err
    assert "SAHRA_TELEGRAM_WEBHOOK_SECRET" in err and secret not in err


def test_settings_parse_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAHRA_DEFAULT_LANGUAGE", "en")
    monkeypatch.setenv("SAHRA_TURN_SECONDS", "20")
    monkeypatch.setenv("SAHRA_DIFFICULTY", "hard")
    monkeypatch.setenv("SAHRA_SQLITE_SYNCHRONOUS", "NORMAL")
    monkeypatch.setenv("SAHRA_LOG_FORMAT", "json")
    settings = Settings()
    assert settings.default_language == "en" and settings.sqlite_synchronous == "NORMAL"
    assert settings.table_defaults() == {
        "turn_seconds": 20,
        "bid_seconds": 60,
        "difficulty": "hard",
    }
    assert settings.log_format == "json" and settings.telegram_token is None


def test_a_bad_difficulty_is_named_by_its_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SAHRA_DIFFICULTY", "impossible")
    assert main(["tables"]) == 2
    assert "SAHRA_DIFFICULTY" in capsys.readouterr().err
