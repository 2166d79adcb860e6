"""Structured logs: one line per event, ``event=name key=value …`` as text, or the same
fields as one JSON object per line. Log calls name table ids, variants, seats and action
types — never a card (a test scans the logs of whole matches to prove it)."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import traceback

# A value runs to the next " key=" (or the end), so "error=RuntimeError('bug in x')" is
# kept whole rather than cut at its first space.
_FIELD = re.compile(r"(?:^|(?<= ))(\w+)=(.*?)(?= \w+=|$)")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        data: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        fields = dict(_FIELD.findall(message))
        data.update(fields if fields else {"message": message})
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info).splitlines()[-1]
        return json.dumps(data, ensure_ascii=False)


def configure_logging(level: str = "INFO", fmt: str = "text") -> None:
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("httpx", "discord", "telegram", "aiosqlite"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))


def where(error: BaseException) -> str:
    """``module.py:line`` of the innermost frame that raised ``error``: where a failure
    happened, for a log line that may carry neither its message nor its traceback (either
    could quote a card, e.g. an engine refusal naming the card not held)."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "?"
    frame = frames[-1]
    return f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}"
