"""Telegram's own strings (command menu, help, replies), Arabic and English, in the same
typed form as ``bot.render.i18n`` (a test checks both languages have the same keys)."""

from __future__ import annotations

from bot.render.i18n import language_of

COMMANDS: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("new", "open a table: /new syrian41 | tarneeb41_double | tarneeb_solo | trix_complex"),
        ("join", "take a seat at the open table"),
        ("leave", "leave the table (a computer plays for you)"),
        ("addbot", "fill a seat with a computer player"),
        ("begin", "start the match when four seats are filled"),
        ("hand", "get your cards in a private chat"),
        ("reclaim", "take your seat back from the computer"),
        ("stop", "stop the table (its creator or an admin)"),
        ("score", "show the table and the scores again"),
        ("rules", "the rules of a variant"),
        ("lang", "the group's language: /lang ar or /lang en"),
        ("help", "how to play with Sahra"),
    ],
    "ar": [
        ("new", "افتح طاولة: /new syrian41 | tarneeb41_double | tarneeb_solo | trix_complex"),
        ("join", "اجلس على الطاولة المفتوحة"),
        ("leave", "غادر الطاولة (يلعب الكمبيوتر مكانك)"),
        ("addbot", "أضف لاعب كمبيوتر إلى مقعد فارغ"),
        ("begin", "ابدأ المباراة عند اكتمال المقاعد الأربعة"),
        ("hand", "استلم ورقك في المحادثة الخاصة"),
        ("reclaim", "استرجع مقعدك من الكمبيوتر"),
        ("stop", "أوقف الطاولة (منشئها أو مشرف)"),
        ("score", "اعرض الطاولة والنتائج من جديد"),
        ("rules", "قواعد اللعبة"),
        ("lang", "لغة المجموعة: /lang ar أو /lang en"),
        ("help", "كيف تلعب مع سهرة"),
    ],
}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "help": (
            "Sahra hosts Tarneeb and Trix at your group's table.\n"
            "• /new opens a table (choose the game), /join takes a seat, /addbot adds a"
            " computer, /begin starts.\n"
            "• Your cards come in a private chat with me: tap “Open my hand” once.\n"
            "• Play with the buttons under your hand; the group sees the table.\n"
            "• /rules explains a game; /lang switches between Arabic and English."
        ),
        "pick_variant": "Which game?",
        "pick_target": "Solo Tarneeb: play to which score?",
        "open_dm": "Open my hand",
        # True both for a player who never opened the private chat and for one who
        # blocked the bot: Telegram answers the two alike.
        "dm_needed": "{name}, I cannot reach you in a private chat: either it was never"
        " opened or I am blocked there. Tap the button (and unblock me if you blocked me)"
        " to get your cards.",
        "dm_welcome": "Welcome to Sahra! Your cards will come here. Use /new in a group to open"
        " a table.",
        "dm_bound": "You are at table #{table}. Your cards are below.",
        "no_table": "There is no table here. Open one with /new.",
        "not_a_group": "Tables are opened in groups: add me to a group and use /new there.",
        "lang_set": "The group's language is now English (for new tables and messages).",
        "lang_usage": "Use /lang ar or /lang en.",
        "sent_to_dm": "Sent to your private chat.",
        "unknown_variant": "I do not know the game {word}. Choose one of: syrian41 (or 41),"
        " tarneeb41_double (double), tarneeb_solo (solo), trix_complex (trix).",
        "new_unknown_words": "I did not understand: {words}. Use /new [game] [target]"
        " [easy|hard] — the game is syrian41 (41), tarneeb41_double (double), tarneeb_solo"
        " (solo) or trix_complex (trix); a target only for tarneeb_solo: 31, 51 or 61;"
        " easy or hard for the computer players.",
        "new_bad_target": "Solo Tarneeb is played to 31, 51 or 61, not {target}. For example:"
        " /new solo 51",
        "new_no_target": "{game} has no target score (only Solo Tarneeb is played to 31, 51"
        " or 61): send /new {variant} without a number.",
        "rules_unknown": "I do not know the game {word}. Use /rules with one of: syrian41"
        " (or 41), tarneeb41_double (double), tarneeb_solo (solo), trix_complex (trix).",
        "no_arguments": "{command} takes nothing after it: send just {command}",
        "stop_not_allowed": "Only the table's creator or a group admin can stop it — or any"
        " player at the table once its creator has left the group.",
    },
    "ar": {
        "help": (
            "سهرة تستضيف الطرنيب والتركس على طاولة مجموعتكم.\n"
            "• ‎/new‎ يفتح طاولة (اختر اللعبة)، و‎/join‎ للجلوس، و‎/addbot‎ لإضافة كمبيوتر،"
            " و‎/begin‎ للبدء.\n"
            "• يصلك ورقك في محادثة خاصة معي: اضغط «افتح ورقي» مرة واحدة.\n"
            "• العب بالأزرار تحت ورقك؛ والمجموعة ترى الطاولة.\n"
            "• ‎/rules‎ يشرح اللعبة، و‎/lang‎ يبدّل بين العربية والإنجليزية."
        ),
        "pick_variant": "أي لعبة؟",
        "pick_target": "الطرنيب الفردي: اللعب حتى أي نتيجة؟",
        "open_dm": "افتح ورقي",
        "dm_needed": "{name}، لا أستطيع الوصول إليك في المحادثة الخاصة: إما أنها لم تُفتح"
        " قط أو أنني محظور فيها. اضغط الزر (وألغِ حظري إن كنت حظرتني) لتستلم ورقك.",
        "dm_welcome": "أهلًا بك في سهرة! سيصلك ورقك هنا. استخدم ‎/new‎ في مجموعة لفتح طاولة.",
        "dm_bound": "أنت على الطاولة رقم {table}. ورقك في الأسفل.",
        "no_table": "لا توجد طاولة هنا. افتح واحدة بـ ‎/new‎.",
        "not_a_group": "تُفتح الطاولات في المجموعات: أضفني إلى مجموعة واستخدم ‎/new‎ هناك.",
        "lang_set": "لغة المجموعة الآن العربية (للطاولات والرسائل الجديدة).",
        "lang_usage": "استخدم ‎/lang ar‎ أو ‎/lang en‎.",
        "sent_to_dm": "أُرسل إلى محادثتك الخاصة.",
        "unknown_variant": "لا أعرف اللعبة {word}. اختر واحدة من: syrian41 (أو 41)،"
        " tarneeb41_double (double)، tarneeb_solo (solo)، trix_complex (trix).",
        "new_unknown_words": "لم أفهم: {words}. استخدم ‎/new‎ [اللعبة] [الهدف] [easy|hard] —"
        " اللعبة syrian41 (41) أو tarneeb41_double (double) أو tarneeb_solo (solo) أو"
        " trix_complex (trix)؛ والهدف للطرنيب الفردي وحده: 31 أو 51 أو 61؛ وeasy أو hard"
        " للاعبي الكمبيوتر.",
        "new_bad_target": "الطرنيب الفردي يُلعب حتى 31 أو 51 أو 61، وليس {target}. مثلًا:"
        " ‎/new solo 51‎",
        "new_no_target": "لعبة {game} ليس لها نتيجة هدف (الطرنيب الفردي وحده يُلعب حتى 31 أو"
        " 51 أو 61): أرسل ‎/new {variant}‎ بلا رقم.",
        "rules_unknown": "لا أعرف اللعبة {word}. استخدم ‎/rules‎ مع واحدة من: syrian41 (أو"
        " 41)، tarneeb41_double (double)، tarneeb_solo (solo)، trix_complex (trix).",
        "no_arguments": "الأمر ‎{command}‎ لا يأخذ شيئًا بعده: أرسل ‎{command}‎ وحده.",
        "stop_not_allowed": "يوقف الطاولةَ منشئُها أو مشرفُ المجموعة فقط — أو أيُّ لاعب"
        " عليها إذا غادر منشئها المجموعة.",
    },
}


def text(language: str, key: str, **values: object) -> str:
    return TEXTS[language_of(language)][key].format(**values)
