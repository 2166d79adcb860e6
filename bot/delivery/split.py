"""Texts made to fit a platform's message: the sending layer's guarantee that no text over
the platform's limit ever goes out (Telegram refuses a text over 4,096 UTF-16 units, and a
callback toast over 200; Discord a content over 2,000 characters).

Two ways, chosen by what the message is:

- a reply posted once and never edited may become several messages (``pieces``): cut at
  paragraph boundaries (a blank line), else at line ends, else inside a line (at a space
  when there is one), sent in order, its buttons on the last piece;
- a message edited in place (a table, a hand) or a toast stays one message (``fit``): cut
  at a line and marked "…". The renderers keep those short already; this is the last
  guard, never the plan.

A platform measures the text it receives, which may not be the text drawn: Discord's
adapter escapes markdown, so its ``Limit`` measures the escaped text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.render.fitting import text_length
from bot.render.model import Screen

ELLIPSIS = "…"
# Boundaries a long text is cut at, the most natural first; "" means inside a line.
_BOUNDARIES = ("\n\n", "\n", "")


@dataclass(frozen=True)
class Limit:
    """The most text one message may carry, as the platform counts the text sent."""

    most: int
    measure: Callable[[str], int] = text_length

    def fits(self, text: str) -> bool:
        return self.measure(text) <= self.most


TELEGRAM = Limit(4096)  # sendMessage / editMessageText, in UTF-16 code units
TELEGRAM_TOAST = Limit(200)  # answerCallbackQuery's text


def split_text(text: str, limit: Limit) -> list[str]:
    """All of ``text`` in order, in pieces that each fit ``limit``: whole paragraphs
    packed together while they fit, a paragraph too long for one piece cut at its
    lines, and a line too long cut inside. No piece is blank (a platform refuses an
    empty message); a text that fits is one piece, unchanged."""
    if limit.fits(text):
        return [text]
    pieces = [piece.strip("\n") for piece in _split(text, limit, _BOUNDARIES)]
    return [piece for piece in pieces if piece.strip()]


def pieces(screen: Screen, limit: Limit) -> list[Screen]:
    """A posted reply as the messages it takes, in order; the buttons go on the last."""
    texts = split_text(screen.text, limit)
    if not texts:
        return [screen]
    return [Screen(text) for text in texts[:-1]] + [Screen(texts[-1], screen.rows)]


def fit_text(text: str, limit: Limit) -> str:
    """``text`` as one message: whole if it fits, else its first lines marked "…" (the
    first line itself cut, if it alone is too long)."""
    if limit.fits(text):
        return text
    lines = text.split("\n")
    kept: list[str] = []
    for line in lines:
        if not limit.fits("\n".join([*kept, line, ELLIPSIS])):
            break
        kept.append(line)
    if kept:
        return "\n".join([*kept, ELLIPSIS])
    return _longest_prefix(lines[0], limit, ELLIPSIS) + ELLIPSIS


def fit(screen: Screen, limit: Limit) -> Screen:
    """A message edited in place, kept to one message of at most the limit."""
    text = fit_text(screen.text, limit)
    return screen if text == screen.text else Screen(text, screen.rows)


def _split(text: str, limit: Limit, boundaries: tuple[str, ...]) -> list[str]:
    if limit.fits(text):
        return [text]
    boundary, finer = boundaries[0], boundaries[1:]
    if not boundary:
        return _cut(text, limit)
    packed: list[str] = []
    current: str | None = None
    for part in text.split(boundary):
        for chunk in _split(part, limit, finer):
            candidate = chunk if current is None else f"{current}{boundary}{chunk}"
            if current is not None and not limit.fits(candidate):
                packed.append(current)
                current = chunk
            else:
                current = candidate
    if current is not None:
        packed.append(current)
    return packed


def _cut(line: str, limit: Limit) -> list[str]:
    """A line too long for one message, in pieces that fit, cut after a space where
    there is one in the second half of a piece."""
    parts: list[str] = []
    while not limit.fits(line):
        head = _longest_prefix(line, limit)
        space = head.rfind(" ")
        if space > len(head) // 2:
            head = head[: space + 1]
        parts.append(head.rstrip(" "))
        line = line[len(head) :]
    return [*parts, line]


def _longest_prefix(text: str, limit: Limit, suffix: str = "") -> str:
    """The longest start of ``text`` that fits with ``suffix`` after it (binary search:
    the measure grows with the text)."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if limit.fits(text[:middle] + suffix):
            low = middle
        else:
            high = middle - 1
    return text[:low] or text[:1]
