"""Structured logs: one line per event, every value kept whole in JSON."""

from __future__ import annotations

import json
import logging

from bot.logs import JsonFormatter


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
