"""Discord's strings (the catalog's ``dc_`` entries), and our plain text made literal.

Every screen is plain text, but Discord reads message content as markdown and mentions,
so a player named ``**x**`` or ``<@&1>`` would format or tag the table. ``plain`` escapes
what Discord's markdown would act on; a backslash before ASCII punctuation is shown as
that character alone, so the text reads exactly as rendered (suits, Arabic and the
direction marks are untouched). ``discord.utils.escape_markdown`` is not enough on its
own: it leaves ``<…>`` (mentions, channels, emoji, timestamps) and ordered lists alone, and
puts its backslash before the indentation of ``  - x``, where Discord shows it.
"""

from __future__ import annotations

import re

import discord

from bot.delivery.split import Limit, fit_text, split_text
from bot.render.fitting import text_length
from bot.render.i18n import language_of, t

# Emphasis, underline, strike, spoilers, code, masked links, and <@…> <#…> <:e:…> <t:…>.
_INLINE = re.compile(r"[\\*_~|`\[<]")
# At a line's start: quotes, headings, subtext and bullet lists, then ordered lists.
_BLOCK = re.compile(r"^([ \t]*)([>#-])", re.MULTILINE)
_ORDERED = re.compile(r"^([ \t]*\d+)\.(?=[ \t])", re.MULTILINE)


def plain(text: str) -> str:
    """``text`` as Discord will show it literally: no markdown, no mention of anyone."""
    text = _INLINE.sub(r"\\\g<0>", text)
    text = _BLOCK.sub(r"\1\\\2", text)
    text = _ORDERED.sub(r"\1\\.", text)
    # allowed_mentions already stops the ping; this keeps @everyone from even looking
    # like one if a message were ever sent without it.
    return discord.utils.escape_mentions(text)


def _sent_length(text: str) -> int:
    """A text's length as Discord receives it: escaped (UTF-16 units: never fewer than
    the characters Discord counts)."""
    return text_length(plain(text))


# A message's content: 2,000 characters, counted in what is sent (the escaped text).
CONTENT = Limit(2000, _sent_length)


def message_content(text: str) -> str:
    """A message edited in place (a hand) or one answer, as sent: one message, escaped."""
    return plain(fit_text(text, CONTENT))


def message_contents(text: str) -> list[str]:
    """A reply as sent: escaped, in as many messages as it takes, in order."""
    return [plain(piece) for piece in split_text(text, CONTENT)]


def text(language: str, key: str, **values: object) -> str:
    """The catalog's ``dc_<key>`` string (``bot/render/catalog``)."""
    return t(language, f"dc_{key}", **values)


def describe(command: str) -> str:
    """A slash command's description in English and Arabic together: Discord has no
    Arabic locale to translate it into, and it allows 100 characters."""
    return f"{t('en', f'dc_cmd_{command}')} · {t('ar', f'dc_cmd_{command}')}"[:100]


def permission_list(language: str, names: list[str]) -> str:
    """The permissions by their names in Discord's settings, joined for a sentence."""
    # By the names Discord's own settings screens use (English there even for Arabic
    # readers, so the Arabic catalog gives both).
    labels = [t(language, f"dc_perm_{name}") for name in names]
    return (" و" if language_of(language) == "ar" else " and ").join(labels)
