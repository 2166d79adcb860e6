"""Discord's own strings (Arabic and English), and our plain text made literal in Discord.

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

from bot.render.i18n import language_of

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


# The permissions the README asks server admins to grant, by the name Discord's own
# settings screens use (English there even for Arabic readers, so both are given).
PERMISSION_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "view_channel": "View Channel",
        "send_messages": "Send Messages",
        "send_messages_in_threads": "Send Messages in Threads",
        "read_message_history": "Read Message History",
    },
    "ar": {
        "view_channel": "عرض القناة (View Channel)",
        "send_messages": "إرسال الرسائل (Send Messages)",
        "send_messages_in_threads": "إرسال الرسائل في المواضيع (Send Messages in Threads)",
        "read_message_history": "قراءة سجل الرسائل (Read Message History)",
    },
}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "missing_permissions": "I cannot post a table here: I am missing {permissions} in"
        " this channel. A server admin can grant it in the channel's permissions; then open"
        " the table again.",
        "post_refused": "Discord did not let me post the table here ({reason}), so I closed"
        " it. Once a server admin grants me {permissions} in this channel, open it again.",
        "unknown_command": "That command is out of date or incomplete. Type /sahra and pick"
        " one from the list (Discord may take a moment to show the newest commands).",
        "failed": "Sorry, that did not work. Please try again.",
    },
    "ar": {
        "missing_permissions": "لا أستطيع نشر طاولة هنا: ينقصني إذن {permissions} في هذه"
        " القناة. يستطيع مشرف الخادم منحه من أذونات القناة، ثم افتحوا الطاولة من جديد.",
        "post_refused": "لم يسمح لي ديسكورد بنشر الطاولة هنا ({reason})، فأغلقتها. حين يمنحني"
        " مشرف الخادم إذن {permissions} في هذه القناة افتحوها من جديد.",
        "unknown_command": "هذا الأمر قديم أو ناقص. اكتب \u200e/sahra\u200e واختر أمرًا من"
        " القائمة (قد يتأخر ديسكورد قليلًا في عرض أحدث الأوامر).",
        "failed": "عذرًا، لم ينجح ذلك. حاول مرة أخرى.",
    },
}


def text(language: str, key: str, **values: object) -> str:
    return TEXTS[language_of(language)][key].format(**values)


def permission_list(language: str, names: list[str]) -> str:
    """The permissions by their names in Discord's settings, joined for a sentence."""
    labels = [PERMISSION_NAMES[language_of(language)][name] for name in names]
    return (" و" if language_of(language) == "ar" else " and ").join(labels)
