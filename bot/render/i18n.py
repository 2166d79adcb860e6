"""Every user-facing string, in Arabic (the default) and English, and the helpers that
make mixed Arabic, names, numbers and cards read correctly.

A small typed catalog rather than gettext/Babel: about a hundred strings, two languages,
no plural forms needed (counts are written as "label: number", which reads correctly in
Arabic without its six plural forms), no compile step, and a test that both languages
have the same keys and the same placeholders. Babel would earn its place with a third
language or translators working in .po files.

Direction: names are wrapped in FSI…PDI (first-strong isolates) so a Latin name inside
Arabic text, or an Arabic name inside English, keeps its own direction; numbers and card
labels in Arabic text are wrapped in LRM marks so "−14" and "10♥" are not reordered.
"""

from __future__ import annotations

import engine

LANGUAGES = ("ar", "en")
FSI, PDI, LRM = "\u2068", "\u2069", "\u200e"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_ORDER = "CDHS"
RANK_LABELS = {"T": "10"}

CATALOG: dict[str, dict[str, str]] = {
    "en": {
        # lobby
        "lobby_title": "🃏 {variant} — new table #{table}",
        "lobby_options": "Options: {options}",
        "opt_target": "target {value}",
        "opt_turn": "{value} s per card",
        "opt_bid": "{value} s per bid",
        "opt_difficulty_easy": "computers: easy",
        "opt_difficulty_hard": "computers: hard",
        "team_a": "Team A",
        "team_b": "Team B",
        "seat_empty": "(empty seat)",
        "seat_line": "Seat {seat}: {name}",
        "computer_mark": "🤖",
        "away_mark": "(computer playing)",
        "dm_needed": "Still to open a private chat with the bot: {names}",
        "lobby_waiting": "Waiting for {count} more — join, or add a computer.",
        "lobby_ready": "All four seats are filled: press Start.",
        "btn_join": "Join",
        "btn_leave": "Leave",
        "btn_add_computer": "Add computer",
        "btn_start": "Start",
        "btn_rules": "Rules",
        "btn_hand": "My hand",
        # the public table
        "table_title": "🃏 {variant} · table #{table} · deal {deal}",
        "kingdom_line": "Kingdom {kingdom} of 4 · owner {owner} · {contract}",
        "dealer_line": "Dealer: {dealer}",
        "shown_line": "Shown card: {card} · trump {suit}",
        "trump_line": "Trump: {suit}",
        "declarer_line": "Declarer: {name} · bid {bid}",
        "high_bid_line": "Highest bid: {bid} ({name})",
        "contract_complex": "Complex",
        "contract_trix": "Trix",
        "contract_choosing": "the owner is choosing",
        "doubling_open": "Doubling window open: holders of K♥ or a queen answer in secret.",
        "doubled_line": "Doubled: {cards}",
        "no_doubles": "Doubled: nothing",
        "player_line": "{marker}{name}{team}: {details}",
        "bid_value": "bid {bid}",
        "bid_pass": "pass",
        "bid_none": "bid —",
        "tricks_value": "tricks {tricks}",
        "score_value": "score {score}",
        "points_value": "this deal {points}",
        "cards_left": "cards {count}",
        "team_scores": "{team_a}: {a} · {team_b}: {b} · target {target}",
        "solo_target": "First to {target} wins",
        "trix_target": "After 8 deals the higher team total wins",
        "trick_line": "On the table: {plays}",
        "trick_empty": "On the table: —",
        "last_trick_line": "Last trick: {plays} → {winner}",
        "rows_title": "Rows:",
        "finished_line": "Out: {order}",
        "turn_line": "▶ {names} to {what}",
        "turn_time": "({time} left)",
        "what_bid": "bid",
        "what_play": "play",
        "what_trump": "name trump",
        "what_contract": "choose the contract",
        "what_double": "answer",
        "waiting_doubles": "▶ Waiting for the doubling answers {time}",
        # the private hand
        "hand_title": "Your hand — {variant}, deal {deal}",
        "your_turn": "▶ Your turn: {what}.",
        "not_your_turn": "Waiting for {names}.",
        "your_bid": "Your bid: {bid} · your tricks: {tricks}",
        "bids_so_far": "Bids so far: {bids} (total {total}; the deal needs {needed})",
        "pick_bid": "Choose your bid:",
        "pick_trump": "Choose trump:",
        "pick_contract": "Choose the contract for your kingdom:",
        "pick_doubles": "Double in secret? Tap cards to mark them, then confirm.",
        "btn_pass": "Pass",
        "btn_complex": "Complex",
        "btn_trix": "Trix",
        "btn_confirm_doubles": "Confirm: double {cards}",
        "btn_no_double": "Confirm: no double",
        "your_answer": "Your answer: {cards}",
        "answer_none": "no double",
        "must_pass": "No card fits: you must pass.",
        "hand_empty": "Your hand is empty.",
        # score sheet and result
        "sheet_title": "📋 Deal {deal} — score sheet",
        "sheet_cancelled": "Deal {deal} cancelled: bids total {total}, {needed} needed.",
        "sheet_line": "{name}: {details}",
        "made": "✓",
        "failed": "✗",
        "delta_total": "{delta} → {total}",
        "double_mark": "×2",
        "doubles_count": "doubled {count}",
        "place_value": "place {place}",
        "result_title": "🏁 Match over — {variant}",
        "result_winners": "Winners: {names}",
        "result_draw": "A draw: the team totals are equal.",
        "result_stopped": "The table was stopped.",
        "result_abandoned": "The table was abandoned (nobody played for too long).",
        "result_expired": "The lobby expired.",
        "final_scores": "Final scores:",
        # events (console and logs of play)
        "ev_bid": "{name} bids {bid}",
        "ev_pass": "{name} passes",
        "ev_play": "{name} plays {card}",
        "ev_trick": "{name} takes the trick",
        "ev_trick_points": "{name} takes the trick ({points})",
        "ev_trump": "{name} names trump {suit}",
        "ev_auction": "{name} wins the auction with {bid}",
        "ev_contract": "{name} chooses {contract}",
        "ev_doubles": "Doubles revealed: {cards}",
        "ev_out": "{name} is out, place {place} ({points})",
        "ev_deal": "New deal {deal}",
        "ev_cancelled": "Bids total {total} — deal cancelled, it passes to the next dealer",
        "ev_taken_over": "{name} is away: a computer plays the seat",
        "ev_reclaimed": "{name} is back",
        # refusals
        "refuse_unknown_table": "There is no such table (it may have ended).",
        "refuse_place_taken": "A table is already open here; finish or stop it first.",
        "refuse_not_in_lobby": "The table has already started.",
        "refuse_not_running": "The table is not being played.",
        "refuse_not_seated": "You do not have a seat at this table.",
        "refuse_already_seated": "You already have a seat at this table.",
        "refuse_seat_taken": "That seat is taken.",
        "refuse_seat_empty": "That seat is empty.",
        "refuse_table_full": "The table is full.",
        "refuse_not_enough_players": "Four seats must be filled to start.",
        "refuse_not_your_turn": "It is not your turn.",
        "refuse_stale": "That button is out of date; use the latest message.",
        "refuse_illegal": "That move is not allowed.",
        "refuse_not_allowed": "Only the table's creator or a chat admin can do that.",
        "refuse_not_away": "Your seat is not being played for you.",
        "refuse_bad_option": "That option is not valid.",
        "refuse_storage": "The move could not be saved; please try again.",
        "illegal_must_follow_suit": "You must follow suit.",
        "illegal_card_not_held": "You do not hold that card.",
        "illegal_not_playable": "That card does not fit the rows yet.",
        "illegal_pass_not_allowed": (
            "You cannot pass now: you hold a card that fits the rows, or you are the dealer"
            " and everyone else has passed."
        ),
        "illegal_bid_forbidden": "That bid does not exist in this variant.",
        "illegal_bid_two_forbidden": "With 30 points or more you may not bid 2.",
        "illegal_bid_too_low": "Your bid must be higher than the current one.",
        "illegal_already_answered": "You have already answered.",
        "illegal_not_doublable": "You may double only K♥ or a queen you hold.",
    },
    "ar": {
        "lobby_title": "🃏 {variant} — طاولة جديدة رقم {table}",
        "lobby_options": "الإعدادات: {options}",
        "opt_target": "الهدف {value}",
        "opt_turn": "{value} ثانية للورقة",
        "opt_bid": "{value} ثانية للطلب",
        "opt_difficulty_easy": "الكمبيوتر: سهل",
        "opt_difficulty_hard": "الكمبيوتر: صعب",
        "team_a": "الفريق الأول",
        "team_b": "الفريق الثاني",
        "seat_empty": "(مقعد فارغ)",
        "seat_line": "المقعد {seat}: {name}",
        "computer_mark": "🤖",
        "away_mark": "(يلعب عنه الكمبيوتر)",
        "dm_needed": "لم يفتح المحادثة الخاصة مع البوت بعد: {names}",
        "lobby_waiting": "المقاعد الفارغة: {count} — انضم أو أضف كمبيوتر.",
        "lobby_ready": "اكتملت المقاعد الأربعة: اضغط ابدأ.",
        "btn_join": "انضمام",
        "btn_leave": "مغادرة",
        "btn_add_computer": "إضافة كمبيوتر",
        "btn_start": "ابدأ",
        "btn_rules": "القواعد",
        "btn_hand": "ورقي",
        "table_title": "🃏 {variant} · الطاولة {table} · الجولة {deal}",
        "kingdom_line": "المملكة {kingdom} من 4 · صاحبها {owner} · {contract}",
        "dealer_line": "الموزّع: {dealer}",
        "shown_line": "الورقة المكشوفة: {card} · الطرنيب {suit}",
        "trump_line": "الطرنيب: {suit}",
        "declarer_line": "صاحب الطلب: {name} · الطلب {bid}",
        "high_bid_line": "أعلى طلب: {bid} ({name})",
        "contract_complex": "كومبلكس",
        "contract_trix": "تركس",
        "contract_choosing": "صاحب المملكة يختار",
        "doubling_open": "باب الدبل مفتوح: من معه شايب الكبة أو بنت يجيب سرًّا.",
        "doubled_line": "المدبّل: {cards}",
        "no_doubles": "المدبّل: لا شيء",
        "player_line": "{marker}{name}{team}: {details}",
        "bid_value": "الطلب {bid}",
        "bid_pass": "باس",
        "bid_none": "الطلب —",
        "tricks_value": "الأكلات {tricks}",
        "score_value": "النقاط {score}",
        "points_value": "هذه الجولة {points}",
        "cards_left": "الأوراق {count}",
        "team_scores": "{team_a}: {a} · {team_b}: {b} · الهدف {target}",
        "solo_target": "يفوز أول من يصل إلى {target}",
        "trix_target": "بعد 8 جولات يفوز الفريق صاحب المجموع الأعلى",
        "trick_line": "على الطاولة: {plays}",
        "trick_empty": "على الطاولة: —",
        "last_trick_line": "الأكلة الأخيرة: {plays} ← {winner}",
        "rows_title": "الصفوف:",
        "finished_line": "خرج: {order}",
        "turn_line": "▶ الدور على {names}: {what}",
        "turn_time": "(بقي {time})",
        "what_bid": "الطلب",
        "what_play": "اللعب",
        "what_trump": "اختيار الطرنيب",
        "what_contract": "اختيار العقد",
        "what_double": "الجواب",
        "waiting_doubles": "▶ بانتظار أجوبة الدبل {time}",
        "hand_title": "ورقك — {variant}، الجولة {deal}",
        "your_turn": "▶ دورك: {what}.",
        "not_your_turn": "بانتظار {names}.",
        "your_bid": "طلبك: {bid} · أكلاتك: {tricks}",
        "bids_so_far": "الطلبات حتى الآن: {bids} (المجموع {total} والمطلوب {needed})",
        "pick_bid": "اختر طلبك:",
        "pick_trump": "اختر الطرنيب:",
        "pick_contract": "اختر عقد مملكتك:",
        "pick_doubles": "تدبّل سرًّا؟ اضغط الأوراق لتعليمها ثم أكّد.",
        "btn_pass": "باس",
        "btn_complex": "كومبلكس",
        "btn_trix": "تركس",
        "btn_confirm_doubles": "تأكيد: دبل {cards}",
        "btn_no_double": "تأكيد: بلا دبل",
        "your_answer": "جوابك: {cards}",
        "answer_none": "بلا دبل",
        "must_pass": "لا ورقة تنزل: عليك أن تقول باس.",
        "hand_empty": "يدك فارغة.",
        "sheet_title": "📋 الجولة {deal} — ورقة النتائج",
        "sheet_cancelled": "أُلغيت الجولة {deal}: مجموع الطلبات {total} والمطلوب {needed}.",
        "sheet_line": "{name}: {details}",
        "made": "✓",
        "failed": "✗",
        "delta_total": "{delta} ← {total}",
        "double_mark": "×2",
        "doubles_count": "دبّل {count}",
        "place_value": "المركز {place}",
        "result_title": "🏁 انتهت المباراة — {variant}",
        "result_winners": "الفائزون: {names}",
        "result_draw": "تعادل: مجموع الفريقين متساوٍ.",
        "result_stopped": "أُوقفت الطاولة.",
        "result_abandoned": "تُركت الطاولة (لم يلعب أحد مدة طويلة).",
        "result_expired": "انتهت مهلة انتظار اللاعبين.",
        "final_scores": "النتائج النهائية:",
        "ev_bid": "{name} طلب {bid}",
        "ev_pass": "{name} قال باس",
        "ev_play": "{name} لعب {card}",
        "ev_trick": "{name} أكل الأكلة",
        "ev_trick_points": "{name} أكل الأكلة ({points})",
        "ev_trump": "{name} اختار الطرنيب {suit}",
        "ev_auction": "{name} ربح المزاد بطلب {bid}",
        "ev_contract": "{name} اختار {contract}",
        "ev_doubles": "كُشف الدبل: {cards}",
        "ev_out": "{name} خرج في المركز {place} ({points})",
        "ev_deal": "جولة جديدة {deal}",
        "ev_cancelled": "مجموع الطلبات {total} — أُلغيت الجولة وينتقل التوزيع",
        "ev_taken_over": "{name} غائب: الكمبيوتر يلعب مكانه",
        "ev_reclaimed": "{name} عاد",
        "refuse_unknown_table": "لا توجد هذه الطاولة (ربما انتهت).",
        "refuse_place_taken": "هناك طاولة مفتوحة هنا؛ أنهوها أو أوقفوها أولًا.",
        "refuse_not_in_lobby": "بدأت الطاولة بالفعل.",
        "refuse_not_running": "لا يُلعب على هذه الطاولة الآن.",
        "refuse_not_seated": "ليس لك مقعد على هذه الطاولة.",
        "refuse_already_seated": "لك مقعد على هذه الطاولة بالفعل.",
        "refuse_seat_taken": "هذا المقعد مأخوذ.",
        "refuse_seat_empty": "هذا المقعد فارغ.",
        "refuse_table_full": "الطاولة ممتلئة.",
        "refuse_not_enough_players": "يجب ملء المقاعد الأربعة للبدء.",
        "refuse_not_your_turn": "ليس دورك.",
        "refuse_stale": "هذا الزر قديم؛ استخدم أحدث رسالة.",
        "refuse_illegal": "هذه الحركة غير مسموحة.",
        "refuse_not_allowed": "هذا لمنشئ الطاولة أو مشرف المجموعة فقط.",
        "refuse_not_away": "لا أحد يلعب مكانك.",
        "refuse_bad_option": "هذا الخيار غير صالح.",
        "refuse_storage": "تعذّر حفظ الحركة؛ حاول مرة أخرى.",
        "illegal_must_follow_suit": "عليك أن تلعب من نفس النوع.",
        "illegal_card_not_held": "هذه الورقة ليست معك.",
        "illegal_not_playable": "هذه الورقة لا تنزل على الصفوف بعد.",
        "illegal_pass_not_allowed": (
            "لا يمكنك قول باس الآن: معك ورقة تنزل على الصفوف، أو أنت الموزّع وقال الجميع باس."
        ),
        "illegal_bid_forbidden": "هذا الطلب غير موجود في هذه اللعبة.",
        "illegal_bid_two_forbidden": "من 30 نقطة فما فوق لا يجوز طلب 2.",
        "illegal_bid_too_low": "يجب أن يكون طلبك أعلى من الطلب الحالي.",
        "illegal_already_answered": "لقد أجبت بالفعل.",
        "illegal_not_doublable": "لا تدبّل إلا شايب الكبة أو بنتًا معك.",
    },
}


def language_of(language: str | None) -> str:
    return language if language in LANGUAGES else "ar"


def t(language: str, key: str, **values: object) -> str:
    """The catalog string ``key`` in ``language`` (Arabic when unknown), filled in."""
    return CATALOG[language_of(language)][key].format(**values)


def has(language: str, key: str) -> bool:
    return key in CATALOG[language_of(language)]


def isolate(text: str) -> str:
    """A name or other run of unknown direction, kept in its own direction (FSI…PDI)."""
    return f"{FSI}{text}{PDI}"


def ltr(language: str, text: str) -> str:
    """Numbers, signs and card labels inside Arabic text, kept left to right."""
    return f"{LRM}{text}{LRM}" if language_of(language) == "ar" else text


def number(language: str, value: int) -> str:
    return ltr(language, str(value).replace("-", "−"))


def signed(language: str, value: int) -> str:
    """A score change with its sign: +4, −14, 0."""
    text = f"+{value}" if value > 0 else str(value).replace("-", "−")
    return ltr(language, text)


def card_label(code: str) -> str:
    """``"QH"`` → ``"Q♥"``, ``"TS"`` → ``"10♠"``."""
    return RANK_LABELS.get(code[0], code[0]) + SUIT_SYMBOLS[code[1]]


def card(language: str, code: str) -> str:
    return ltr(language, card_label(code))


def suit(code: str) -> str:
    return SUIT_SYMBOLS[code]


def variant_name(language: str, variant: str) -> str:
    info = engine.VARIANTS[variant]
    return info.name_ar if language_of(language) == "ar" else info.name_en


def joined(language: str, items: list[str]) -> str:
    return ("، " if language_of(language) == "ar" else ", ").join(items)


def clock(seconds: float) -> str:
    """Time left as m:ss."""
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"
