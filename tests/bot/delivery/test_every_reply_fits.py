"""Every text the bot can answer with fits its platform once through the sending layer:
each string of the catalogs (every command's reply and refusal, both languages) filled in
with the longest names, the rules of every variant and of all four together, and the
league's boards full of long names. Through the outbox each arrives whole, in messages
Telegram (4,096 UTF-16 units) or Discord (2,000 characters, once escaped) accepts; kept
to one message (a screen edited in place, a Discord hand or answer) it fits; as a
Telegram toast it fits 200 characters, and a toast's own texts fit it uncut."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

import pytest

from bot.delivery import REPLY, Outbox
from bot.delivery.split import TELEGRAM, TELEGRAM_TOAST
from bot.discord.texts import CONTENT, message_content, message_contents, plain
from bot.render.codes import NEW_VARIANTS
from bot.render.fitting import text_length
from bot.render.i18n import CATALOG, LANGUAGES, isolate
from bot.render.league import history_text, leaderboard_text, stats_text
from bot.render.model import Screen
from bot.render.notices import refusal_notice
from bot.render.rules_text import rules_text
from bot.telegram.handlers import toast
from storage.league import BoardEntry, FamilyStats, PastMatch
from tests.bot.virtual_time import VirtualTime

# The longest names each platform lets through (``_player`` keeps 64 characters), drawn
# to cost the most: astral letters count two UTF-16 units on Telegram; markdown
# characters are each escaped with a backslash on Discord.
LONGEST = {"telegram": "𝓐" * 64, "discord": "*_" * 32}
# Texts only one platform sends (the console has no message size).
ONLY = {"tg_": "telegram", "dc_": "discord", "console_": ""}
# Telegram's own texts a callback answers with (a toast), besides the refusals.
TELEGRAM_TOASTS = ("tg_sent_to_dm", "tg_rematch_confirmed", "tg_record_sent", "tg_record_dm")
FORMATTER = string.Formatter()


def filled(language: str, key: str, name: str) -> str:
    """A catalog string with every blank filled by four of the longest names."""
    template = CATALOG[language][key]
    blanks = {field for _, field, _, _ in FORMATTER.parse(template) if field}
    value = ", ".join([isolate(name)] * 4)
    return template.format(**dict.fromkeys(blanks, value))


def league_texts(language: str, name: str) -> list[str]:
    board = [BoardEntry(str(n), name, 40.0, 1.0, 999, 999) for n in range(10)]
    figures = {"deals": 999, "bids_made": 999, "bid_total": 9999, "kaboot": 99}
    stats = [(FamilyStats(family, 999, 999, 99, 99, figures, 40.0, 1.0), (1, 999))
             for family in ("tarneeb", "solo", "trix")]  # fmt: skip
    history = [PastMatch(n, "syrian41", 1.8e9, [name] * 4, [False] * 4, [0, 2], False,
                         [-999, 999, -999, 999]) for n in range(10)]  # fmt: skip
    return [
        leaderboard_text(language, "tarneeb", board, 5),
        stats_text(language, name, stats, here=True),
        history_text(language, history, "/record"),
    ]


def replies(platform: str) -> list[tuple[str, str]]:
    """(what, text) for every text ``platform`` may answer with."""
    name = LONGEST[platform]
    found = []
    for language in LANGUAGES:
        for key in CATALOG[language]:
            only = next((p for prefix, p in ONLY.items() if key.startswith(prefix)), platform)
            if only == platform:
                found.append((f"{language}:{key}", filled(language, key, name)))
        every = "\n\n".join(rules_text(variant, language) for variant in NEW_VARIANTS)
        found.append((f"{language}:rules of all four", every))
        found += [(f"{language}:rules {v}", rules_text(v, language)) for v in NEW_VARIANTS]
        found += [
            (f"{language}:league {n}", t) for n, t in enumerate(league_texts(language, name))
        ]
    return found


def telegram_accepts(text: str) -> bool:
    """sendMessage's rule: 1 to 4,096 characters, counted in UTF-16 code units."""
    return bool(text.strip()) and len(text.encode("utf-16-le")) // 2 <= 4096


def discord_accepts(text: str) -> bool:
    """A message's content as Discord receives it (escaped): at most 2,000 characters."""
    return bool(text.strip()) and len(plain(text)) <= 2000


PLATFORMS = {"telegram": (TELEGRAM, telegram_accepts), "discord": (CONTENT, discord_accepts)}


@dataclass
class Platform:
    """The platform's side of the wire: what it accepts, and every message it took."""

    accepts: object
    messages: dict[str, list[str]] = field(default_factory=dict)  # chat -> texts, in order

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        assert callable(self.accepts) and self.accepts(screen.text), (chat, len(screen.text))
        self.messages.setdefault(chat, []).append(screen.text)
        return str(len(self.messages[chat]))

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        await self.send(chat, screen)


def words(text: str) -> str:
    """The text without its whitespace: what a split may not change."""
    return re.sub(r"\s", "", text)


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_every_reply_arrives_whole_in_messages_the_platform_accepts(platform: str) -> None:
    limit, accepts = PLATFORMS[platform]
    time = VirtualTime()
    wire = Platform(accepts)
    box = Outbox(
        wire, clock=time, sleep=time.sleep, limit=limit, max_pending_replies=None, bot_limit=None
    )
    texts = replies(platform)
    for number, (_, text) in enumerate(texts):
        box.post(str(number), "reply", Screen(text), group=False, keep=False, priority=REPLY)
    await box.flush()
    split = 0
    for number, (what, text) in enumerate(texts):
        arrived = wire.messages.get(str(number), [])
        assert words("".join(arrived)) == words(text), what
        split += len(arrived) > 1
    assert split  # the rules of all four games take more than one message on both


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_every_text_kept_to_one_message_fits(platform: str) -> None:
    limit, accepts = PLATFORMS[platform]
    time = VirtualTime()
    wire = Platform(accepts)
    box = Outbox(wire, clock=time, sleep=time.sleep, limit=limit, bot_limit=None)
    texts = replies(platform)
    for number, (_, text) in enumerate(texts):
        box.show(str(number), "screen", Screen(text), group=False)  # edited in place later
    await box.flush()
    assert all(len(wire.messages[str(n)]) == 1 for n in range(len(texts)))


def test_every_discord_interaction_answer_fits_and_is_whole() -> None:
    for what, text in replies("discord"):
        sent = message_contents(text)
        assert all(len(piece) <= 2000 and piece.strip() for piece in sent), what
        assert words("".join(sent)) == words(plain(text)), what
        assert len(message_content(text)) <= 2000, what  # a hand, an edit: one message


def toast_texts(language: str) -> list[tuple[str, str]]:
    """What a callback answers with: every refusal (each rule an illegal move may break)
    and Telegram's own toasts, naming one player by the longest name."""
    name = isolate(LONGEST["telegram"])
    found = []
    for key, template in CATALOG[language].items():
        if key.startswith("refuse_"):
            found.append((key, refusal_notice(language, key.removeprefix("refuse_")).text))
        elif key.startswith("illegal_"):
            detail = key.removeprefix("illegal_")
            found.append((key, refusal_notice(language, "illegal", detail).text))
        elif key.startswith(TELEGRAM_TOASTS):
            blanks = {f for _, f, _, _ in FORMATTER.parse(template) if f}
            found.append((key, template.format(**dict.fromkeys(blanks, name))))
    return found


def test_every_telegram_toast_fits_and_its_own_texts_fit_uncut() -> None:
    for what, text in replies("telegram"):
        answer = toast(text)
        assert answer is not None and text_length(answer) <= TELEGRAM_TOAST.most, what
    for language in LANGUAGES:
        for key, text in toast_texts(language):
            assert toast(text) == text, (language, key)
