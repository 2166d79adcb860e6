"""Rules summaries per variant, in Arabic and English (from shared/spec/rules.md).

Shown by ``/rules`` and when a table starts. Plain text (no Markdown or HTML), one title
line and short "• " lines, each text under 1,400 characters. The Arabic wording follows
the user's rule documents for each variant (seeds 000, 001, 002 and 004): تعهد/لمة in
Syrian Tarneeb 41, طلب/لطشة in Tarneeb 41 doubled, طلب/أكلة/فتّة in Solo Tarneeb, and
مملكة/صفقة/لمّة/دبل in Trix Complex.

In the Arabic texts, signed numbers ("−15", "+200") and card labels ("K♥", "7♥") are
wrapped in LRM marks, as ``bot.render.i18n.ltr`` does, so the bidi algorithm does not
show them as "15−" or "♥K" inside right-to-left lines.
"""

from __future__ import annotations

import re

LRM = "\u200e"
_LTR_RUN = re.compile(r"[+−]\d+|(?:10|[2-9JQKA])[♠♥♦♣]|×2")


def _ar(*lines: str) -> str:
    """An Arabic text: its lines joined, signed numbers and card labels kept LTR."""
    return _LTR_RUN.sub(lambda m: f"{LRM}{m.group()}{LRM}", "\n".join(lines))


def _en(*lines: str) -> str:
    return "\n".join(lines)


RULES: dict[str, dict[str, str]] = {
    "ar": {
        # T41, seed 000: تعهد، لمة، الورقة المكشوفة
        "syrian41": _ar(
            "طرنيب سوري 41",
            "• أربعة لاعبين في فريقين، والشريكان متقابلان. التعهدات واللمات والنقاط شخصية، "
            "ونقاط الفريق مجموع نقاط الشريكين.",
            "• ينتقل التوزيع إلى اليمين بعد كل توزيع. يوزَّع الورق ورقة ورقة ابتداءً من يمين "
            "الموزع، والموزع آخر من يستلم.",
            "• الطرنيب: تُكشف للجميع آخر ورقة من أوراق الموزع نفسه، والطرنيب هو الشكل الآخر "
            "من اللون نفسه (♣ مع ♠، و♦ مع ♥). لا يختاره أحد، وتبقى الورقة المكشوفة في يد الموزع.",
            "• التعهد: يبدأ من على يمين الموزع والموزع آخرًا، ويعلن كل لاعب مرة واحدة عدد "
            "اللمات التي سيأخذها بنفسه، من 2 إلى 13. لا يوجد باس.",
            "• إذا كان مجموع التعهدات أقل من 11 يُلغى التوزيع ويوزّع الموزع التالي من جديد.",
            "• اللعب: من على يمين الموزع يقود اللمة الأولى. اتباع الشكل إجباري لمن يملك منه، "
            "والفارغ يلعب أي ورقة ولا يُجبر على الطرنيب. تفوز أعلى ورقة طرنيب، وإلا فأعلى "
            "ورقة من الشكل المقود، والفائز يقود التالية.",
            "• النقاط: من أخذ تعهده أو أكثر يكسب قيمة تعهده، ومن نقص تُخصم منه. اللمات "
            "الزائدة لا تضيف شيئًا، والنقاط قد تصبح سالبة.",
            "• الفوز: يتأهل الفريق إذا بلغ أحد لاعبيه 41 أو أكثر وكانت نقاط شريكه أكبر من "
            "صفر. إذا تأهل الفريقان يفوز الأعلى مجموعًا، ومع التعادل التام تُلعب توزيعة إضافية.",
            "• انتهاء الوقت: يُعلن 2 (والموزع ما يلزم لبلوغ مجموع 11) وتُلعب أضعف ورقة قانونية.",
        ),
        # T41D, seed 002: طلب، لطشة/لطوش، جولة، تُلمّ الأوراق
        "tarneeb41_double": _ar(
            "طرنيب 41 مضاعف",
            "• أربعة لاعبين في فريقين، وكل لاعبين متقابلين فريق واحد. الطلب واللطوش والنقاط "
            "شخصية، ونقاط الفريق مجموع نقاط الشريكين.",
            "• ينتقل التوزيع إلى اليمين بعد كل جولة، والموزع آخر من يستلم. يُرتَّب ورقك حسب "
            "النوع تصاعديًا.",
            "• الطرنيب: تُكشف للجميع آخر ورقة يحصل عليها الموزع، والطرنيب هو النوع المعاكس من "
            "نفس اللون (♣ مع ♠، و♦ مع ♥).",
            "• الطلب: يبدأ من على يمين الموزع، ويطلب كل لاعب مرة واحدة عدد اللطوش التي يتوقع "
            "أخذها من 2 إلى 13، والرقم 6 غير موجود. من لديه 30 نقطة أو أكثر يُمنع من طلب 2 "
            "حتى تنزل نقاطه تحت 30.",
            "• إذا كان مجموع الطلبات 11 أو أقل تُلمّ الأوراق ويوزّع الموزع التالي؛ تبدأ اللعبة "
            "عند 12 أو أكثر.",
            "• اللعب: يبدأ اللاعب على يمين الموزع. من يملك النوع المقود يلعبه حصرًا، ومن لا "
            "يملكه يلعب أي ورقة ولا يُجبر على الطرنيب. تفوز أعلى ورقة طرنيب، وإلا فأعلى ورقة "
            "من النوع المقود.",
            "• النقاط: من حقق طلبه يكسب قيمته، ومن فشل تُخصم منه. الطلب 7 أو أكثر يُحسب "
            "مضاعفًا في الربح والخسارة (طلب 7 ناجح +14، طلب 8 فاشل −16).",
            "• الفوز: يتأهل الفريق إذا بلغ أحد لاعبيه 41 أو أكثر وكان شريكه فوق الصفر. إذا "
            "تأهل الفريقان يفوز الأعلى مجموعًا، ومع التعادل التام تُلعب جولة إضافية.",
            "• انتهاء الوقت: أصغر طلب مسموح (والموزع أصغر طلب يبلغ بالمجموع 12) وأضعف ورقة "
            "قانونية.",
        ),
        # TS, seed 001: طلب، أكلة/أكلات، فتّة، باس، كبوت، صن
        "tarneeb_solo": _ar(
            "طرنيب فردي",
            "• أربعة لاعبين، كل لاعب لنفسه. منشئ الطاولة يختار النتيجة النهائية: 31 "
            "(الافتراضي) أو 51 أو 61.",
            "• ينتقل التوزيع إلى اليمين بعد كل فتّة. لا تُكشف أي ورقة؛ الطرنيب يأتي من الطلب.",
            "• الطلب: يبدأ من على يمين الموزّع، وهو عدد الأكلات التي تتعهد بها وحدك من 7 إلى "
            "13، وكل طلب أعلى من الذي قبله. من قال «باس» خرج من المزايدة، وتنتهي حين يقول "
            "الآخرون كلهم «باس» بعد آخر طلب، أو فورًا عند طلب 13.",
            "• إذا قال الثلاثة الأوائل «باس» فالموزّع مجبر أن يطلب 7 على الأقل، ولا تُعاد التوزيعة.",
            "• الطرنيب: صاحب أعلى طلب يختاره من الأنواع الأربعة (لا صن)، ويفتح الأكلة الأولى.",
            "• اللعب: العب من النوع المطلوب إن كان معك، وإلا فأي ورقة، ولا تُجبر على القطع "
            "بالطرنيب. تأكل أعلى ورقة طرنيب، وإلا فأعلى ورقة من النوع المطلوب.",
            "• النقاط (تُلعب الأكلات الـ13 كلها): إن حقّق صاحب الطلب طلبه يأخذ عدد أكلاته ولا "
            "يأخذ الآخرون شيئًا؛ وإن أكل الـ13 دون أن يطلبها (كبوت) يأخذ 16؛ وإن فشل يُخصم منه "
            "طلبه ويأخذ كل واحد من الآخرين عدد أكلاته.",
            "• طلب 13: إن أكلها كلها يأخذ 26، وإلا يُخصم منه 16 ويأخذ الآخرون ضعف أكلاتهم.",
            "• الفوز: إذا وصل لاعب أو أكثر إلى النتيجة النهائية فالأعلى مجموعًا يفوز، وإن "
            "تساوى الأعلون تُلعب فتّة أخرى.",
            "• انتهاء الوقت: باس (والموزّع المجبر يطلب 7)، والطرنيب هو النوع الذي معك منه "
            "أكثر، وأضعف ورقة قانونية.",
        ),
        # TX, seed 004: مملكة، صفقة، الكومبلكس، تركس، لمّة، دبل، بنت، الولد J، باس
        "trix_complex": _ar(
            "تركس كومبلكس شراكة",
            "• أربعة لاعبين في فريقين، والشريكان متقابلان. النقاط تُسجَّل لكل لاعب، ومجموع "
            "الفريق مجموع نقاط الشريكين. لا يوجد ورق رابح (ترامب) في أي عقد.",
            "• المباراة أربع ممالك، في كل مملكة عقدان (الكومبلكس وتركس): 8 صفقات، لكل صفقة خلط "
            "جديد. من يحمل 7♥ في الصفقة الأولى صاحب المملكة الأولى، وتنتقل الملكية إلى اليمين "
            "بعد عقدي المملكة.",
            "• صاحب المملكة يختار العقد الأول ويأتي الآخر بعده تلقائيًا (عند انتهاء الوقت: "
            "الكومبلكس).",
            "• الكومبلكس: يقود صاحب المملكة، واللعب بنفس الشكل إجباري وإلا فأي ورقة، وتفوز "
            "أعلى ورقة من الشكل المطلوب. على آخذ اللمّة −15 للّمّة و−10 لكل ديناري و−25 لكل "
            "بنت و−75 لـ K♥ (بنت الديناري −10 و−25). مجموع الصفقة −500.",
            "• الدبل (الكومبلكس فقط، قبل اللمّة الأولى): من يحمل K♥ أو بنتًا يجوز له دبلها "
            "سرًّا، وتُكشف الدبلات معًا. من يأخذ البطاقة المدبَّلة عليه ضعفها (K♥ −150، البنت "
            "−50) ولصاحب الدبل 75 أو 25؛ فإن أخذها صاحبها فالمكسب لقائد اللمّة، وإن كان هو "
            "قائدها فعليه قيمتها فقط (−75 أو −25).",
            "• تركس: صف كل شكل يبدأ بالولد J ويمتد إلى A وإلى 2. العب J أو ورقة ملاصقة لطرف "
            "صفّها، ولا باس إلا بلا ورقة قانونية. ترتيب إفراغ اليد: الأول +200، الثاني +150، "
            "الثالث +100، الرابع +50.",
            "• بعد الصفقة الثامنة يفوز الفريق صاحب أعلى مجموع، والتساوي التام تعادل.",
            "• انتهاء الوقت: بلا دبل، وتُلعب أضعف ورقة قانونية أو الباس.",
        ),
    },
    "en": {
        "syrian41": _en(
            "Syrian Tarneeb 41",
            "• Four players in two teams; partners sit opposite. Bids, tricks and scores are "
            "personal; a team's score is the sum of both partners' scores.",
            "• The deal passes to the right after every hand. Cards are dealt one by one from "
            "the dealer's right; the dealer receives last.",
            "• Trump: the dealer's own last card is shown to all; trump is the other suit of the "
            "same colour (♣ with ♠, ♦ with ♥). Nobody chooses; the shown card stays in the "
            "dealer's hand.",
            "• Bidding: from the dealer's right, dealer last, each player bids once the number "
            "of tricks they will take themselves, 2 to 13. No pass.",
            "• If the four bids total less than 11, the hand is cancelled and the next dealer "
            "deals again.",
            "• Play: the player on the dealer's right leads the first trick. Follow suit if you "
            "can; if void, play any card (never forced to trump). The highest trump wins, else "
            "the highest card of the led suit; the winner leads next.",
            "• Scoring: take your bid or more and you gain your bid; fewer and you lose it. "
            "Extra tricks add nothing; scores may go negative.",
            "• Winning: a team qualifies when one partner has 41 or more and the other is above "
            "zero. If both teams qualify, the higher team total wins; an exact tie plays one "
            "more hand.",
            "• Timeout: you bid 2 (the dealer bids what brings the total to 11) and play your "
            "weakest legal card.",
        ),
        "tarneeb41_double": _en(
            "Tarneeb 41 with doubled high bids",
            "• Four players in two teams; partners sit opposite. Bids, tricks and scores are "
            "personal; a team's score is the sum of both partners' scores.",
            "• The deal passes to the right after every hand; the dealer receives last. Your "
            "hand is sorted by suit, ascending.",
            "• Trump: the dealer's last card is shown to all; trump is the other suit of the "
            "same colour (♣ with ♠, ♦ with ♥).",
            "• Bidding: from the dealer's right, each player bids once the tricks they expect "
            "to take, 2 to 13; 6 does not exist. With 30 points or more you may not bid 2 "
            "until your score drops below 30.",
            "• If the bids total 11 or less, the hand is cancelled and the next dealer deals; "
            "play needs a total of 12 or more.",
            "• Play: the player on the dealer's right leads. Follow suit if you can; if void, "
            "play any card (never forced to trump). The highest trump wins, else the highest "
            "card of the led suit.",
            "• Scoring: make your bid and you gain it; fail and you lose it. A bid of 7 or more "
            "counts double both ways (bid 7 made +14, bid 8 failed −16).",
            "• Winning: a team qualifies when one partner has 41 or more and the other is above "
            "zero. If both teams qualify, the higher team total wins; an exact tie plays one "
            "more hand.",
            "• Timeout: the smallest legal bid (the dealer: the smallest that brings the total "
            "to 12) and the weakest legal card.",
        ),
        "tarneeb_solo": _en(
            "Solo Tarneeb",
            "• Four players, each for themselves. The table's creator picks the target: 31 "
            "(default), 51 or 61.",
            "• The deal passes to the right after every hand. No card is shown; trump comes "
            "from the auction.",
            "• Auction: from the dealer's right, bid the tricks you alone will take, 7 to 13, "
            "each bid higher than the last. Whoever passes is out of the auction; it ends when "
            "all the others have passed after the last bid, or at once on a bid of 13.",
            "• If the first three all pass with no bid, the dealer must bid at least 7. "
            "No redeal.",
            "• Trump: the highest bidder (declarer) picks it from the four suits (no no-trump) "
            "and leads the first trick.",
            "• Play: follow suit if you can; if void, play any card — you are never forced to "
            "trump. The highest trump wins, else the highest card of the led suit.",
            "• Scoring (all 13 tricks are played): bid made, the declarer scores the tricks "
            "taken and nobody else scores; all 13 without bidding 13 (kaboot) scores 16; bid "
            "failed, the declarer loses the bid and each other player scores their tricks.",
            "• Bid 13: taking all 13 scores 26; otherwise the declarer loses 16 and the others "
            "score double their tricks.",
            "• Winning: once one or more players reach the target, the highest score wins; a "
            "tie at the top plays another hand.",
            "• Timeout: pass (the forced dealer bids 7), trump is your longest suit, and the "
            "weakest legal card is played.",
        ),
        "trix_complex": _en(
            "Trix Complex Partnership",
            "• Four players in two teams; partners sit opposite. Scores go to each player; the "
            "team total is both partners' scores. No trump in any contract.",
            "• Four kingdoms of two contracts (Complex, Trix): 8 deals, each freshly shuffled. "
            "Whoever holds 7♥ in the first deal owns the first kingdom; ownership "
            "then passes to the right after both contracts.",
            "• The owner picks which contract is played first (timeout: Complex); the other "
            "follows.",
            "• Complex: the owner leads; follow suit if you can, else any card; the highest "
            "card of the led suit wins. The taker gets −15 per trick, −10 per diamond, −25 per "
            "queen and −75 for K♥ (Q♦ costs −10 and −25). A deal totals −500.",
            "• Doubling (Complex only, before the first trick): holders of K♥ or queens may "
            "double them in secret; doubles are revealed together. Whoever takes a doubled "
            "card pays double (K♥ −150, queen −50) and the doubler gains 75 or 25; if the "
            "doubler takes it, the trick's leader gains instead; if the doubler also led that "
            "trick, it costs only −75 or −25.",
            "• Trix: each suit's row starts at its J and grows up to A and down to 2. Play a J "
            "or a card next to a row's end; pass only with no legal card. Emptying your "
            "hand first, second, third, fourth: +200, +150, +100, +50.",
            "• After the eighth deal the higher team total wins; equal totals are a draw.",
            "• Timeout: no double; the weakest legal card (or pass) is played.",
        ),
    },
}


def rules_text(variant: str, language: str) -> str:
    """The rules summary of ``variant`` in ``language`` (Arabic when the language is unknown;
    "en-US" counts as "en").

    >>> rules_text("syrian41", "en").splitlines()[0]
    'Syrian Tarneeb 41'
    >>> rules_text("tarneeb_solo", "fr").splitlines()[0]
    'طرنيب فردي'
    """
    code = language.replace("_", "-").split("-")[0].lower() if isinstance(language, str) else ""
    texts = RULES.get(code, RULES["ar"])
    if not isinstance(variant, str) or variant not in texts:
        raise ValueError(f"unknown variant: {variant!r}")
    return texts[variant]
