"""Structured logs: one line per event, every value kept whole in JSON, and no card or
token in any line, whatever the message, its arguments or its traceback say."""

from __future__ import annotations

import contextlib
import io
import json
import logging

from bot.logs import JsonFormatter, Redactor, configure_logging
from bot.settings import Settings
from engine import IllegalAction
from tests.bot.support import CARD_IN_LOG, configured_logs, play_a_card_not_held


def record(message: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("sahra.tables", logging.ERROR, __file__, 1, message, args, None)


def test_json_logs_keep_values_with_spaces_whole() -> None:
    line = JsonFormatter().format(
        record("event=runner_failed table=%d error=%r", 7, RuntimeError("bug in x"))
    )
    data = json.loads(line)
    assert data["event"] == "runner_failed" and data["table"] == "7"
    assert data["error"] == "RuntimeError('bug in x')"
    assert data["level"] == "error" and "\n" not in line


def test_a_message_without_fields_is_kept_as_a_message() -> None:
    data = json.loads(JsonFormatter().format(record("plain words here")))
    assert data["message"] == "plain words here"


# ---------------------------------------------------------------- redaction

TELEGRAM_TOKEN = "7012345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw8"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246OTAwMTpzZWNyZXQ"
DISCORD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def logged_refusal(fmt: str) -> str:
    """What the configured logs write for lines naming cards and tokens in every place a
    record carries text: the message, its arguments, the exception and its traceback,
    and a library's request line."""
    with configured_logs(fmt, "DEBUG") as stream:
        log = logging.getLogger("sahra.tables")
        log.info("event=hand cards=QH,10S,TS label=%s", "Q\u200e♥")
        try:
            play_a_card_not_held()
        except IllegalAction as error:
            log.error("event=refused error=%r", error, exc_info=True)
        logging.getLogger("httpx").warning(
            'HTTP Request: POST https://api.telegram.org/bot%s/getUpdates "HTTP/1.1 502"',
            TELEGRAM_TOKEN,
        )
        logging.getLogger("discord.http").warning("token=%s", DISCORD_TOKEN)
        logging.getLogger("discord.http").warning(
            "POST https://discord.com/api/v10/interactions/9001/%s/callback", INTERACTION_TOKEN
        )
        try:
            raise ConnectionError(f"refused: Bot {DISCORD_TOKEN} for {TELEGRAM_TOKEN}")
        except ConnectionError:
            logging.getLogger("sahra.outbox").exception("event=write_failed")
    return stream.getvalue()


def test_text_logs_name_no_card_and_no_token_even_in_a_traceback() -> None:
    text = logged_refusal("text")
    assert "event=hand cards=[card],[card],[card] label=[card]" in text
    assert "Traceback" in text and "IllegalAction: you do not hold [card]" in text
    assert "/bot[secret]/getUpdates" in text and "token=[secret]" in text
    assert "/interactions/9001/[secret]/callback" in text and INTERACTION_TOKEN not in text
    assert not CARD_IN_LOG.search(text), text
    assert TELEGRAM_TOKEN not in text and DISCORD_TOKEN not in text
    assert "AAHdqTcvCH1" not in text and "MTIzNDU2" not in text


def test_json_logs_name_no_card_and_no_token_even_in_the_error_field() -> None:
    lines = [json.loads(line) for line in logged_refusal("json").splitlines()]
    assert [line.get("event") for line in lines] == [
        "hand",
        "refused",
        None,
        None,
        None,
        "write_failed",
    ]
    assert lines[0]["cards"] == "[card],[card],[card]"
    assert lines[1]["error"] == "engine.errors.IllegalAction: you do not hold [card]"
    assert lines[5]["error"] == "ConnectionError: refused: Bot [secret] for [secret]"
    text = json.dumps(lines, ensure_ascii=False)
    assert not CARD_IN_LOG.search(text), text
    assert "AAHdqTcvCH1" not in text and "MTIzNDU2" not in text


def test_the_configured_secrets_are_redacted_wherever_they_appear() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        with contextlib.redirect_stderr(stream):
            configure_logging("INFO", "text", secrets=["123:TEST", "hunter22", "ab"])
        log = logging.getLogger("sahra.runner")
        log.warning("GET http://127.0.0.1:9/bot123:TEST/getMe password=hunter22 id=ab")
        log.warning("quoted: 123%3ATEST")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    text = stream.getvalue()
    assert "/bot[secret]/getMe password=[secret] id=ab" in text  # too short to be a secret
    assert "quoted: [secret]" in text and "TEST" not in text and "hunter" not in text


def test_quoted_codes_and_labels_are_cards_but_words_and_numbers_are_not() -> None:
    redactor = Redactor()
    line = "event=action table=12 seat=3 type=play as in 4Hz 10s ASK 0x2D th QHX"
    assert redactor.redact(line) == line
    assert redactor.redact("event=x card='qh' label=q♥") == "event=x card='[card]' label=[card]"


def test_a_record_whose_arguments_do_not_fit_its_format_is_still_one_line() -> None:
    with configured_logs("json") as stream:
        logging.getLogger("sahra.tables").error("event=odd table=%d", "QH")
    data = json.loads(stream.getvalue())
    assert data["event"] == "odd" and "QH" not in stream.getvalue()


def test_every_configured_secret_is_given_to_the_logs() -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=TELEGRAM_TOKEN,
        telegram_webhook_secret="webhook-secret-0123456789",
        discord_token=DISCORD_TOKEN,
        database_url="postgresql://sahra:p%40ss@db.internal/sahra",
    )
    assert set(settings.secrets()) == {
        TELEGRAM_TOKEN,
        "webhook-secret-0123456789",
        DISCORD_TOKEN,
        "p%40ss",
        "p@ss",
    }
    line = Redactor(settings.secrets()).redact("connect to db.internal as sahra:p@ss failed")
    assert line == "connect to db.internal as sahra:[secret] failed"
