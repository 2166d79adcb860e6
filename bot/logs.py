"""Structured logs: one line per event, ``event=name key=value …`` as text, or the same
fields as one JSON object per line. Log calls name table ids, variants, seats and action
types — never a card (a test scans the logs of whole matches to prove it) nor a token.

Call sites keep to that, but an error's message or traceback is not theirs to word: an
engine refusal says "you do not hold QH", and a library logs URLs with the bot token in
them ("/bot123:AA…/getUpdates"). So the one handler ``configure_logging`` installs passes
every record — ours and third-party loggers' — through ``Redactor`` first: the message
with its arguments, the exception text and traceback and any stack are redacted before
either format sees them."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import traceback
from collections.abc import Iterable
from urllib.parse import quote

# A value runs to the next " key=" (or the end), so "error=RuntimeError('bug in x')" is
# kept whole rather than cut at its first space.
_FIELD = re.compile(r"(?:^|(?<= ))(\w+)=(.*?)(?= \w+=|$)")

CARD_MARK = "[card]"
SECRET_MARK = "[secret]"

_RANK = r"(?:10|[2-9TJQKA])"
_SYMBOL = "[♣♦♥♠]"
# A card as the engine and the screens write it: a code ("QH", "10S", "TS"), a code in
# any case when quoted (user input echoed back: 'qh'), a label ("Q♥", "10\u200e♥" with
# a direction mark inside). Upper case codes alone, unquoted: "as" or "th" in a sentence
# must stay words; an "AS" in SQL text becomes "[card]", which costs nothing.
_CARD = re.compile(
    rf"(?<![A-Za-z0-9]){_RANK}[CDHS](?![A-Za-z0-9])"
    rf"|(?<=['\"])(?i:{_RANK}[CDHS])(?=['\"])"
    rf"|(?i:{_RANK})\u200e?{_SYMBOL}"
    rf"|{_SYMBOL}\u200e?(?i:{_RANK})(?![0-9])"
)
# Tokens whatever their source: a Telegram bot token ("123456:AA…", 35 characters after
# the colon), one inside a Bot API URL ("/bot<token>/…", also a short test token), and a
# Discord token (three base64url parts joined by dots).
_TOKEN = re.compile(
    r"(?<![0-9])[0-9]{3,}:[A-Za-z0-9_-]{30,}"
    r"|(?<=/bot)[0-9]+:[^/\s'\"?#]+"
    r"|[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}"
)
# A Discord interaction's token (good for 15 minutes of answers as the bot) in a URL.
_INTERACTION_TOKEN = re.compile(r"(/(?:webhooks|interactions)/[0-9]+/)[^/\s?#'\"]+")
_SHORTEST_SECRET = 4  # a shorter one is no secret, and replacing it would garble lines


class Redactor(logging.Filter):
    """Rewrites each record so no card or token reaches a log: its message (arguments
    formatted in), its exception's text and traceback, its stack. The configured secrets
    (the tokens, the webhook secret, the database password) are removed wherever they
    appear, as they are and URL-quoted; token shapes are removed even when not configured
    (a token of another bot, or one given on a command line)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        spellings = {
            spelling
            for secret in secrets
            if len(secret) >= _SHORTEST_SECRET
            for spelling in (secret, quote(secret, safe=""))
        }
        self.secrets = sorted(spellings, key=len, reverse=True)  # "abcd1" before "abcd"

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, SECRET_MARK)
        text = _TOKEN.sub(SECRET_MARK, text)
        text = _INTERACTION_TOKEN.sub(rf"\g<1>{SECRET_MARK}", text)
        return _CARD.sub(CARD_MARK, text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: still one line, and never its arguments
            message = f"{record.msg} (unformattable arguments)"
        record.msg, record.args = self.redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = _PLAIN.formatException(record.exc_info)
        if record.exc_text:
            # Formatters use this text as it is instead of formatting exc_info again.
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


_PLAIN = logging.Formatter()


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
        if record.exc_info or record.exc_text:
            text = record.exc_text or self.formatException(record.exc_info)  # type: ignore[arg-type]
            data["error"] = text.splitlines()[-1]
        return json.dumps(data, ensure_ascii=False)


def configure_logging(level: str = "INFO", fmt: str = "text", secrets: Iterable[str] = ()) -> None:
    """One handler on the root logger, for every logger (ours and the libraries'), and
    every record redacted on its way in (``Redactor``, given the configured secrets)."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    handler.addFilter(Redactor(secrets))
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
