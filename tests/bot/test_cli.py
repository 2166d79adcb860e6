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
    assert "telegram_webhook_port" in capsys.readouterr().err


def test_webhook_mode_is_chosen_by_a_public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAHRA_TELEGRAM_WEBHOOK_URL", "https://bot.example.org/")
    monkeypatch.setenv("SAHRA_TELEGRAM_WEBHOOK_SECRET", "s3cret")
    webhook = Settings().telegram_webhook()
    assert webhook == {
        "listen": "0.0.0.0",
        "port": 8443,
        "url_path": "telegram",
        "webhook_url": "https://bot.example.org/telegram",
        "secret_token": "s3cret",
    }
    monkeypatch.delenv("SAHRA_TELEGRAM_WEBHOOK_URL")
    assert Settings().telegram_webhook() is None
