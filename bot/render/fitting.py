"""Text cut to a platform's message size: Telegram allows 4,096 characters counted in
UTF-16 code units, Discord 2,000. Everything is measured in UTF-16 units, which are never
fewer than Python's characters, so one measure is safe for both platforms."""

from __future__ import annotations


def text_length(text: str) -> int:
    """The length Telegram measures (UTF-16 code units): an emoji outside the basic plane
    counts two."""
    return len(text.encode("utf-16-le")) // 2


def fitted(text: str, limit: int) -> str:
    """At most ``limit`` units, cut at a line and marked "…" (a screen too long for one
    message: a history names four players a match, a name may be 64 characters long)."""
    if text_length(text) <= limit:
        return text
    lines: list[str] = []
    for line in text.splitlines():
        if text_length("\n".join([*lines, line, "…"])) > limit:
            break
        lines.append(line)
    return "\n".join([*lines, "…"])


def split_lines(text: str, limit: int) -> list[str]:
    """All of ``text`` in pieces of at most ``limit`` units, lines packed greedily (a line
    longer than that, cut at the limit)."""
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        for part in _cut(line, limit):
            candidate = f"{current}\n{part}" if current else part
            if current and text_length(candidate) > limit:
                pieces.append(current)
                current = part
            else:
                current = candidate
    return [*pieces, current]


def _cut(line: str, limit: int) -> list[str]:
    """A line in pieces of at most ``limit`` (almost always the line itself)."""
    parts: list[str] = []
    while text_length(line) > limit:
        end = limit
        while text_length(line[:end]) > limit:
            end -= 1
        parts.append(line[:end])
        line = line[end:]
    return [*parts, line]
