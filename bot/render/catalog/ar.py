"""Every user-facing string in Arabic (the default language), by key: the same keys and
placeholders as the English catalog."""

AR: dict[str, str] = {
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
    "away_mark": "يلعب عنه الكمبيوتر",
    "dm_needed": "لا يمكن مراسلتهم في المحادثة الخاصة — اضغط «افتح ورقي»: {names}",
    "lobby_waiting": "المقاعد الفارغة: {count} — انضم أو أضف كمبيوتر.",
    "lobby_ready": "اكتملت المقاعد الأربعة: اضغط ابدأ.",
    "btn_join": "انضمام",
    "btn_leave": "مغادرة",
    "btn_add_computer": "إضافة كمبيوتر",
    "btn_start": "ابدأ",
    "btn_rules": "القواعد",
    "btn_hand": "ورقي",
    "table_title": "🃏 {variant} · الطاولة {table} · الجولة {deal}",
    "kingdom_line": "المملكة {kingdom} من {kingdoms} · صاحبها {owner} · {contract}",
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
    "score_target": "الهدف {target}",
    "score_none": "لا تُلعب مباراة هنا بعد.",
    "trix_target": "بعد {deals} جولات يفوز الفريق صاحب المجموع الأعلى",
    "trick_line": "على الطاولة: {plays}",
    "trick_empty": "على الطاولة: —",
    "last_trick_line": "الأكلة الأخيرة: {plays} ← {winner}",
    "trick_n_line": "الأكلة {n}: {plays} ← {winner}",
    "rows_title": "الصفوف:",
    "finished_line": "خرج: {order}",
    "turn_line": "▶ الدور على {names}: {what}",
    "what_bid": "الطلب",
    "what_play": "اللعب",
    "what_trump": "اختيار الطرنيب",
    "what_contract": "اختيار العقد",
    "what_double": "الجواب",
    "waiting_doubles": "▶ بانتظار أجوبة الدبل",
    "hand_title": "ورقك — {variant}، الجولة {deal}",
    "your_turn": "▶ دورك: {what}.",
    "your_bid": "طلبك: {bid}",
    "partner_line": "{team}: أنت وشريكك {partner}",
    "you_mark": "أنت",
    "bids_total": "مجموع الطلبات حتى الآن {total} (والمطلوب {needed})",
    "trix_standing": "{team_a}: {a} · {team_b}: {b} · الجولة {deal} من {deals}",
    "waiting_line": "⏳ في الانتظار — اللعب مستمر في المجموعة، وستُظهر هذه الرسالة دورك القادم.",
    "doubles_awaited": "بانتظار أجوبة الدبل من اللاعبين الآخرين.",
    "hand_moved": "انتقل ورقك إلى رسالة أحدث في الأسفل.",
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
    "sheet_redeal": "يُخلط الورق ويوزّعه الموزّع التالي من جديد.",
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
    "refuse_stop_not_allowed": (
        "يوقف الطاولةَ منشئُها أو مشرفُ المجموعة فقط — أو أيُّ لاعب عليها إذا غادر منشئها المجموعة."
    ),
    "refuse_language_not_allowed": (
        "ما دامت طاولة تُلعب هنا، يغيّر لغةَ المجموعة لاعبوها أو مشرفُ المجموعة فقط."
    ),
    "refuse_not_away": "لا أحد يلعب مكانك.",
    "refuse_bad_option": "هذا الخيار غير صالح.",
    "refuse_moving": "تنتقل هذه الطاولة إلى خادم آخر للحظة؛ اضغط مرة أخرى بعد ثوانٍ.",
    "refuse_storage": "تعذّر حفظ الحركة؛ حاول مرة أخرى.",
    "refuse_record_not_over": "المباراة ما زالت تُلعب: يبقى الورق مخفيًا حتى نهايتها.",
    "refuse_record_not_player": "سجل المباراة للاعبيها فقط.",
    "refuse_review_not_over": (
        "هذه الجولة لم تنتهِ بعد: يبقى ورقها مخفيًا حتى نهايتها. يمكن مراجعة الجولات المنتهية."
    ),
    "refuse_review_busy": "مراجعتك السابقة في الطريق؛ انتظرها أولًا.",
    "refuse_rematch_not_over": "هذه المباراة لم تنتهِ.",
    "refuse_rematch_not_player": "لا يطلب مباراة أخرى إلا لاعبو المباراة.",
    "refuse_rematch_started": "بدأت المباراة الأخرى فعلًا.",
    "refuse_already_ready": "أكّدت من قبل.",
    "refuse_no_partners": "لا شركاء في الطرنيب الفردي.",
    "illegal_must_follow_suit": "عليك أن تلعب من نفس النوع.",
    "illegal_card_not_held": "هذه الورقة ليست معك.",
    "illegal_not_playable": "هذه الورقة لا تنزل على الصفوف بعد.",
    "illegal_pass_not_allowed": (
        "لا يمكنك قول باس الآن: معك ورقة تنزل على الصفوف، أو أنت الموزّع وقال الجميع باس."
    ),
    "illegal_bid_forbidden": "هذا الطلب غير موجود في هذه اللعبة.",
    "illegal_bid_two_forbidden": "من {no_two_from} نقطة فما فوق لا يجوز طلب {lowest_bid}.",
    "illegal_bid_too_low": "يجب أن يكون طلبك أعلى من الطلب الحالي.",
    "illegal_already_answered": "لقد أجبت بالفعل.",
    "illegal_not_doublable": "لا تدبّل إلا شايب الكبة أو بنتًا معك.",
    # rules summaries (/rules and a new table): one title line, short "• " lines; the
    # numbers are filled in from engine.params by bot/render/rules_text.py
    # T41, seed 000: تعهد، لمة، الورقة المكشوفة
    "rules_syrian41": "\n".join(
        (
            "طرنيب سوري 41",
            "• أربعة لاعبين في فريقين، والشريكان متقابلان. التعهدات واللمات والنقاط شخصية، "
            "ونقاط الفريق مجموع نقاط الشريكين.",
            "• ينتقل التوزيع إلى اليمين بعد كل توزيع. يوزَّع الورق ورقة ورقة ابتداءً من "
            "يمين الموزع، والموزع آخر من يستلم.",
            "• الطرنيب: تُكشف للجميع آخر ورقة من أوراق الموزع نفسه، والطرنيب هو الشكل الآخر "
            "من اللون نفسه (♣ مع ♠، و♦ مع ♥). لا يختاره أحد، وتبقى الورقة المكشوفة في يد "
            "الموزع.",
            "• التعهد: يبدأ من على يمين الموزع والموزع آخرًا، ويعلن كل لاعب مرة واحدة عدد "
            "اللمات التي سيأخذها بنفسه، من {min_bid} إلى {max_bid}. لا يوجد باس.",
            "• إذا كان مجموع التعهدات أقل من {min_total} يُلغى التوزيع ويوزّع الموزع التالي "
            "من جديد.",
            "• اللعب: من على يمين الموزع يقود اللمة الأولى. اتباع الشكل إجباري لمن يملك "
            "منه، والفارغ يلعب أي ورقة ولا يُجبر على الطرنيب. تفوز أعلى ورقة طرنيب، وإلا "
            "فأعلى ورقة من الشكل المقود، والفائز يقود التالية.",
            "• النقاط: من أخذ تعهده أو أكثر يكسب قيمة تعهده، ومن نقص تُخصم منه. اللمات "
            "الزائدة لا تضيف شيئًا، والنقاط قد تصبح سالبة.",
            "• الفوز: يتأهل الفريق إذا بلغ أحد لاعبيه {target} أو أكثر وكانت نقاط شريكه "
            "أكبر من صفر. إذا تأهل الفريقان يفوز الأعلى مجموعًا، ومع التعادل التام تُلعب "
            "توزيعة إضافية.",
            "• انتهاء الوقت: يُعلن {min_bid} (والموزع ما يلزم لبلوغ مجموع {min_total}) "
            "وتُلعب أضعف ورقة قانونية.",
        )
    ),
    # T41D, seed 002: طلب، لطشة/لطوش، جولة، تُلمّ الأوراق
    "rules_tarneeb41_double": "\n".join(
        (
            "طرنيب 41 مضاعف",
            "• أربعة لاعبين في فريقين، وكل لاعبين متقابلين فريق واحد. الطلب واللطوش والنقاط "
            "شخصية، ونقاط الفريق مجموع نقاط الشريكين.",
            "• ينتقل التوزيع إلى اليمين بعد كل جولة، والموزع آخر من يستلم. يُرتَّب ورقك حسب "
            "النوع تصاعديًا.",
            "• الطرنيب: تُكشف للجميع آخر ورقة يحصل عليها الموزع، والطرنيب هو النوع المعاكس "
            "من نفس اللون (♣ مع ♠، و♦ مع ♥).",
            "• الطلب: يبدأ من على يمين الموزع، ويطلب كل لاعب مرة واحدة عدد اللطوش التي "
            "يتوقع أخذها من {min_bid} إلى {max_bid}، والرقم {no_bid} غير موجود. من لديه "
            "{no_two_from} نقطة أو أكثر يُمنع من طلب {min_bid} حتى تنزل نقاطه تحت "
            "{no_two_from}.",
            "• إذا كان مجموع الطلبات {below_total} أو أقل تُلمّ الأوراق ويوزّع الموزع "
            "التالي؛ تبدأ اللعبة عند {min_total} أو أكثر.",
            "• اللعب: يبدأ اللاعب على يمين الموزع. من يملك النوع المقود يلعبه حصرًا، ومن لا "
            "يملكه يلعب أي ورقة ولا يُجبر على الطرنيب. تفوز أعلى ورقة طرنيب، وإلا فأعلى "
            "ورقة من النوع المقود.",
            "• النقاط: من حقق طلبه يكسب قيمته، ومن فشل تُخصم منه. الطلب {double_from} أو "
            "أكثر يُحسب مضاعفًا في الربح والخسارة (طلب {double_from} ناجح +{double_made}، "
            "طلب {double_next} فاشل −{double_failed}).",
            "• الفوز: يتأهل الفريق إذا بلغ أحد لاعبيه {target} أو أكثر وكان شريكه فوق "
            "الصفر. إذا تأهل الفريقان يفوز الأعلى مجموعًا، ومع التعادل التام تُلعب جولة "
            "إضافية.",
            "• انتهاء الوقت: أصغر طلب مسموح (والموزع أصغر طلب يبلغ بالمجموع {min_total}) "
            "وأضعف ورقة قانونية.",
        )
    ),
    # TS, seed 001: طلب، أكلة/أكلات، فتّة، باس، كبوت، صن
    "rules_tarneeb_solo": "\n".join(
        (
            "طرنيب فردي",
            "• أربعة لاعبين، كل لاعب لنفسه. منشئ الطاولة يختار النتيجة النهائية: {targets}.",
            "• ينتقل التوزيع إلى اليمين بعد كل فتّة. لا تُكشف أي ورقة؛ الطرنيب يأتي من الطلب.",
            "• الطلب: يبدأ من على يمين الموزّع، وهو عدد الأكلات التي تتعهد بها وحدك من "
            "{min_bid} إلى {max_bid}، وكل طلب أعلى من الذي قبله. من قال «باس» خرج من "
            "المزايدة، وتنتهي حين يقول الآخرون كلهم «باس» بعد آخر طلب، أو فورًا عند طلب "
            "{max_bid}.",
            "• إذا قال الثلاثة الأوائل «باس» فالموزّع مجبر أن يطلب {min_bid} على الأقل، ولا "
            "تُعاد التوزيعة.",
            "• الطرنيب: صاحب أعلى طلب يختاره من الأنواع الأربعة (لا صن)، ويفتح الأكلة الأولى.",
            "• اللعب: العب من النوع المطلوب إن كان معك، وإلا فأي ورقة، ولا تُجبر على القطع "
            "بالطرنيب. تأكل أعلى ورقة طرنيب، وإلا فأعلى ورقة من النوع المطلوب.",
            "• النقاط (تُلعب الأكلات الـ13 كلها): إن حقّق صاحب الطلب طلبه يأخذ عدد أكلاته "
            "ولا يأخذ الآخرون شيئًا؛ وإن أكل الـ13 دون أن يطلبها (كبوت) يأخذ {kaboot}؛ وإن "
            "فشل يُخصم منه طلبه ويأخذ كل واحد من الآخرين عدد أكلاته.",
            "• طلب {max_bid}: إن أكلها كلها يأخذ {grand_slam}، وإلا يُخصم منه "
            "{grand_slam_failed} ويأخذ الآخرون ضعف أكلاتهم.",
            "• الفوز: إذا وصل لاعب أو أكثر إلى النتيجة النهائية فالأعلى مجموعًا يفوز، وإن "
            "تساوى الأعلون تُلعب فتّة أخرى.",
            "• انتهاء الوقت: باس (والموزّع المجبر يطلب {min_bid})، والطرنيب هو النوع الذي "
            "معك منه أكثر، وأضعف ورقة قانونية.",
        )
    ),
    # TX, seed 004: مملكة، صفقة، الكومبلكس، تركس، لمّة، دبل، بنت، الولد J، باس
    "rules_trix_complex": "\n".join(
        (
            "تركس كومبلكس شراكة",
            "• أربعة لاعبين في فريقين، والشريكان متقابلان. النقاط تُسجَّل لكل لاعب، ومجموع "
            "الفريق مجموع نقاط الشريكين. لا يوجد ورق رابح (ترامب) في أي عقد.",
            "• المباراة أربع ممالك، في كل مملكة عقدان (الكومبلكس وتركس): {deals} صفقات، لكل "
            "صفقة خلط جديد. من يحمل 7♥ في الصفقة الأولى صاحب المملكة الأولى، وتنتقل الملكية "
            "إلى اليمين بعد عقدي المملكة.",
            "• صاحب المملكة يختار العقد الأول ويأتي الآخر بعده تلقائيًا (عند انتهاء الوقت: "
            "الكومبلكس).",
            "• الكومبلكس: يقود صاحب المملكة، واللعب بنفس الشكل إجباري وإلا فأي ورقة، وتفوز "
            "أعلى ورقة من الشكل المطلوب. على آخذ اللمّة −{trick_cost} للّمّة "
            "و−{diamond_cost} لكل ديناري و−{queen_cost} لكل بنت و−{king_cost} لـ K♥ (بنت "
            "الديناري −{diamond_cost} و−{queen_cost}). مجموع الصفقة −{complex_total}.",
            "• الدبل (الكومبلكس فقط، قبل اللمّة الأولى): من يحمل K♥ أو بنتًا يجوز له دبلها "
            "سرًّا، وتُكشف الدبلات معًا. من يأخذ البطاقة المدبَّلة عليه ضعفها (K♥ "
            "−{king_double}، البنت −{queen_double}) ولصاحب الدبل {king_cost} أو "
            "{queen_cost}؛ فإن أخذها صاحبها فالمكسب لقائد اللمّة، وإن كان هو قائدها فعليه "
            "قيمتها فقط (−{king_cost} أو −{queen_cost}).",
            "• تركس: صف كل شكل يبدأ بالولد J ويمتد إلى A وإلى 2. العب J أو ورقة ملاصقة لطرف "
            "صفّها، ولا باس إلا بلا ورقة قانونية. ترتيب إفراغ اليد: الأول +{first}، الثاني "
            "+{second}، الثالث +{third}، الرابع +{fourth}.",
            "• بعد الصفقة الثامنة يفوز الفريق صاحب أعلى مجموع، والتساوي التام تعادل.",
            "• انتهاء الوقت: بلا دبل، وتُلعب أضعف ورقة قانونية أو الباس.",
        )
    ),
    # computer players: one name per seat, so that three of them can be told apart
    "computer_0": "سليم",
    "computer_1": "نور",
    "computer_2": "رامي",
    "computer_3": "هدى",
    # the terminal table (sahra play)
    "console_resume": "متابعة مباراتك المحفوظة (الطاولة رقم {table}).",
    "console_new": "مباراة جديدة: مقعدك {seat} مع ثلاثة لاعبين كمبيوتر.",
    "console_prompt": "حركتك (رقم): ",
    "console_bad_number": "اكتب رقم إحدى الحركات المعروضة ({first}–{last}) من فضلك.",
    "console_saved": "أُغلق الإدخال: المباراة محفوظة. شغّل الأمر نفسه مرة أخرى للمتابعة.",
    "console_moves": "حركاتك:",
    "console_web": (
        "الطاولة مفتوحة في متصفحك على هذا الرابط (لك وحدك؛ {keys} يوقفها والمباراة تبقى"
        " محفوظة):\n{url}"
    ),
    "console_busy": (
        "عذرًا: نسخة أخرى من سهرة تستخدم الملف {file} الآن (بوت يعمل، أو مباراة في طرفية"
        " أخرى)، ولا يصح أن يتشاركا فيه. أوقفها، أو العب في ملف خاص بك: {option}"
    ),
    # Telegram: the command menu (/setMyCommands), help and replies
    "tg_cmd_new": ("افتح طاولة: /new syrian41 | tarneeb41_double | tarneeb_solo | trix_complex"),
    "tg_cmd_join": "اجلس على الطاولة المفتوحة",
    "tg_cmd_leave": "غادر الطاولة (يلعب الكمبيوتر مكانك)",
    "tg_cmd_addbot": "أضف لاعب كمبيوتر إلى مقعد فارغ",
    "tg_cmd_begin": "ابدأ المباراة عند اكتمال المقاعد الأربعة",
    "tg_cmd_hand": "استلم ورقك في المحادثة الخاصة",
    "tg_cmd_reclaim": "استرجع مقعدك من الكمبيوتر",
    "tg_cmd_stop": "أوقف الطاولة (منشئها أو مشرف)",
    "tg_cmd_score": "اعرض الطاولة والنتائج من جديد",
    "tg_cmd_rules": "قواعد اللعبة",
    "tg_cmd_lang": "لغة المجموعة: /lang ar أو /lang en",
    "tg_cmd_help": "كيف تلعب مع سهرة",
    "tg_cmd_top": "أفضل لاعبي المجموعة: /top [tarneeb | solo | trix]",
    "tg_cmd_stats": "أرقامك (في هذه المجموعة، أو كلها في الخاص)",
    "tg_cmd_history": "آخر عشر مباريات في المجموعة",
    "tg_cmd_record": "سجل مباراة منتهية كاملًا في الخاص: /record <الرقم>",
    "tg_top_usage": "استخدم ‎/top‎، أو ‎/top tarneeb‎ أو ‎/top solo‎ أو ‎/top trix‎.",
    "tg_record_usage": "استخدم ‎/record <الرقم>‎: الأرقام في ‎/history‎.",
    "tg_record_dm_needed": "افتح محادثة خاصة معي أولًا (أرسل لي ‎/start‎)، ثم اطلب من جديد.",
    "tg_record_sent": "📬 {name}: سجل المباراة في محادثتك الخاصة.",
    "tg_rematch_confirmed": "✓ أنت معنا: تبدأ المباراة الأخرى حين يجهز الجميع.",
    "tg_help": (
        "سهرة تستضيف الطرنيب والتركس على طاولة مجموعتكم.\n"
        "• ‎/new‎ يفتح طاولة (اختر اللعبة)، و‎/join‎ للجلوس، و‎/addbot‎ لإضافة "
        "كمبيوتر، و‎/begin‎ للبدء.\n"
        "• يصلك ورقك في محادثة خاصة معي: اضغط «افتح ورقي» مرة واحدة.\n"
        "• العب بالأزرار تحت ورقك؛ والمجموعة ترى الطاولة.\n"
        "• ‎/rules‎ يشرح اللعبة، و‎/lang‎ يبدّل بين العربية والإنجليزية."
    ),
    "tg_pick_variant": "أي لعبة؟",
    "tg_pick_target": "الطرنيب الفردي: اللعب حتى أي نتيجة؟",
    "tg_open_dm": "افتح ورقي",
    # true both for a player who never opened the private chat and for one who
    # blocked the bot: Telegram answers the two alike
    "tg_dm_needed": (
        "{name}، لا أستطيع الوصول إليك في المحادثة الخاصة: إما أنها لم تُفتح قط أو "
        "أنني محظور فيها. اضغط الزر (وألغِ حظري إن كنت حظرتني) لتستلم ورقك."
    ),
    "tg_dm_welcome": "أهلًا بك في سهرة! سيصلك ورقك هنا. استخدم ‎/new‎ في مجموعة لفتح طاولة.",
    "tg_dm_bound": "أنت على الطاولة رقم {table}. ورقك في الأسفل.",
    "tg_no_table": "لا توجد طاولة هنا. افتح واحدة بـ ‎/new‎.",
    "tg_not_a_group": "تُفتح الطاولات في المجموعات: أضفني إلى مجموعة واستخدم ‎/new‎ هناك.",
    "tg_lang_set": "لغة المجموعة الآن العربية (للطاولات والرسائل الجديدة).",
    "tg_lang_usage": "استخدم ‎/lang ar‎ أو ‎/lang en‎.",
    "tg_sent_to_dm": "أُرسل إلى محادثتك الخاصة.",
    "tg_rules_sent": "📬 {name}: أُرسلت القواعد إلى محادثتك الخاصة.",
    "tg_unknown_variant": (
        "لا أعرف اللعبة {word}. اختر واحدة من: syrian41 (أو 41)، tarneeb41_double "
        "(double)، tarneeb_solo (solo)، trix_complex (trix)."
    ),
    "tg_new_unknown_words": (
        "لم أفهم: {words}. استخدم ‎/new‎ [اللعبة] [الهدف] [easy|hard] — اللعبة "
        "syrian41 (41) أو tarneeb41_double (double) أو tarneeb_solo (solo) أو "
        "trix_complex (trix)؛ والهدف للطرنيب الفردي وحده: {targets}؛ وeasy أو hard "
        "للاعبي الكمبيوتر."
    ),
    "tg_new_bad_target": ("الطرنيب الفردي يُلعب حتى {targets}، وليس {target}. مثلًا: ‎/new solo 51‎"),
    "tg_new_no_target": (
        "لعبة {game} ليس لها نتيجة هدف (الطرنيب الفردي وحده يُلعب حتى {targets}): "
        "أرسل ‎/new {variant}‎ بلا رقم."
    ),
    "tg_rules_unknown": (
        "لا أعرف اللعبة {word}. استخدم ‎/rules‎ مع واحدة من: syrian41 (أو 41)، "
        "tarneeb41_double (double)، tarneeb_solo (solo)، trix_complex (trix)."
    ),
    "tg_no_arguments": "الأمر ‎{command}‎ لا يأخذ شيئًا بعده: أرسل ‎{command}‎ وحده.",
    # Discord: the permissions by the names its settings screens use, and replies
    "dc_perm_view_channel": "عرض القناة (View Channel)",
    "dc_perm_send_messages": "إرسال الرسائل (Send Messages)",
    "dc_perm_send_messages_in_threads": ("إرسال الرسائل في المواضيع (Send Messages in Threads)"),
    "dc_perm_read_message_history": "قراءة سجل الرسائل (Read Message History)",
    "dc_missing_permissions": (
        "لا أستطيع نشر طاولة هنا: ينقصني إذن {permissions} في هذه القناة. يستطيع "
        "مشرف الخادم منحه من أذونات القناة، ثم افتحوا الطاولة من جديد."
    ),
    "dc_post_refused": (
        "لم يسمح لي ديسكورد بنشر الطاولة هنا ({reason})، فأغلقتها. حين يمنحني مشرف "
        "الخادم إذن {permissions} في هذه القناة افتحوها من جديد."
    ),
    "dc_unknown_command": (
        "هذا الأمر قديم أو ناقص. اكتب ‎/sahra‎ واختر أمرًا من القائمة (قد يتأخر "
        "ديسكورد قليلًا في عرض أحدث الأوامر)."
    ),
    "dc_failed": "عذرًا، لم ينجح ذلك. حاول مرة أخرى.",
    "dc_web_off": "لا يمكن فتح الطاولة صفحةً هنا؛ العب في المحادثة.",
    # Discord: slash command descriptions (Discord has no Arabic locale: both are shown)
    "dc_cmd_group": "طاولات سهرة للورق",
    "dc_cmd_new": "افتح طاولة في هذه القناة",
    "dc_cmd_join": "اجلس على الطاولة",
    "dc_cmd_leave": "غادر (يلعب الكمبيوتر مكانك)",
    "dc_cmd_addbot": "أضف لاعب كمبيوتر",
    "dc_cmd_begin": "ابدأ عند اكتمال المقاعد",
    "dc_cmd_reclaim": "استرجع مقعدك",
    "dc_cmd_stop": "أوقف الطاولة (منشئها أو مدير الخادم)",
    "dc_cmd_hand": "ورقك (لا يراه غيرك)",
    "dc_cmd_score": "اعرض الطاولة من جديد",
    "dc_cmd_rules": "قواعد اللعبة",
    "dc_cmd_lang": "لغة القناة: ar أو en",
    "dc_cmd_top": "أفضل لاعبي القناة",
    "dc_cmd_stats": "أرقامك",
    "dc_cmd_history": "آخر عشر مباريات في القناة",
    "dc_cmd_record": "سجل مباراة منتهية كاملًا (للاعبيها)",
    "dc_cmd_play": "افتح الطاولة هنا",
    "dc_cmd_launch": "افتح طاولة سهرة للورق",  # the Activity's Entry Point command
    # the match record (after the match)
    "record_title": "📜 سجل المباراة — {variant}",
    "record_unfinished": "انتهت المباراة قبل أن تُحسم.",
    "record_deal": "🃏 الجولة {deal} · الموزّع {dealer}",
    "record_deal_trix": (
        "🃏 الجولة {deal} · المملكة {kingdom} من {kingdoms} · صاحبها {owner} · {contract}"
    ),
    "record_hands": "الورق كما وُزّع:",
    "record_bids": "الطلبات: {bids}",
    "record_auction": "المزاد: {calls}",
    "record_tricks": "الأكلات:",
    "record_trick_line": "{n}. {plays} ← {winner}",
    "record_open_trick": "أكلة لم تكتمل: {plays}",
    "record_layout": "اللعب بالترتيب:",
    "record_result": "النتيجة:",
    "record_unfinished_deal": "انتهت المباراة في منتصف هذه الجولة.",
    # the league: leaderboard, stats, history (bot/render/league.py)
    "family_tarneeb": "طرنيب ٤١",
    "family_solo": "الطرنيب الفردي",
    "family_trix": "تركس كومبلكس",
    "top_title": "🏆 أفضل اللاعبين هنا — {game}",
    "top_empty": "لم يُكمل أحد هنا بعدُ عدد المباريات اللازم من هذه اللعبة ({count}).",
    "top_line": "{place}. {name} — {rating} · المباريات {matches} · الانتصارات {wins}",
    "top_footer": (
        "التقييم = ١٠٠٠ + ٤٠ × (المهارة − ٣ × عدم اليقين)؛ "
        "يظهر اللاعب بعد عدد من المباريات هنا: {count}."
    ),
    "stats_title_here": "📊 {name} — مبارياتك في هذه المحادثة",
    "stats_title_all": "📊 {name} — كل مبارياتك",
    "stats_empty": "لا مباراة منتهية بعد.",
    "stats_line": (
        "{game}: المباريات {matches} · الانتصارات {wins} ({rate}) · التقييم {rating} · {rank}"
    ),
    "stats_rank": "المرتبة {rank} من {of}",
    "stats_unranked": "بلا ترتيب بعد",
    "stats_left": "الانسحابات: {count} (تُحسب خسارة)",
    "stats_tarneeb": "طلبات ناجحة {made} · متوسط الطلب {bid}",
    "stats_solo": "عقود {declared} · ناجحة {made} · متوسط الطلب {bid} · جولات الـ١٣ أكلة {kaboot}",
    "stats_trix": "متوسط مملكتك {kingdom} · دبل ربحته {won} · خسرته {lost}",
    "history_title": "📜 آخر المباريات هنا",
    "history_empty": "لا مباراة منتهية هنا بعد.",
    "history_draw": "تعادل",
    "history_winners": "الفائزون: {names}",
    "history_line": "#{table} · {when} · {game} · {players} · {outcome} · {scores}",
    "history_footer": "سجل المباراة كاملًا، للاعبيها: {command} <الرقم>",
    # rematch (bot/render/lobby.py)
    "rematch_title": "🔁 {variant} — مباراة أخرى بعد الطاولة #{old} (الطاولة #{table})",
    "rematch_waiting": (
        "بانتظار {count} ليضغطوا «جاهز»؛ بعد {seconds} ثانية يأخذ الكمبيوتر مقاعد من لم يؤكّد."
    ),
    "rematch_filled": "🤖 الكمبيوتر يلعب عن من لم يؤكّد: {names}",
    "btn_ready": "جاهز",
    "btn_swap": "بدّلوا الشركاء",
    "btn_rematch": "مباراة أخرى",
    "btn_record": "سجل المباراة",
    # the web table's own texts (bot/render/page.py: PAGE_STRINGS)
    "btn_reclaim": "استعد مقعدي",
    "web_title": "سهرة",
    "web_connecting": "جارٍ الاتصال…",
    "web_reconnecting": "انقطع الاتصال — جارٍ إعادة الاتصال…",
    "web_failed": "تعذّر فتح الطاولة.",
    "web_last_trick": "الأكلة الأخيرة",
    "web_hide_last_trick": "إخفاء الأكلة الأخيرة",
    "web_last_deal": "الجولة الأخيرة",
    "web_watching": "أنت تشاهد هذه الطاولة.",
    "web_your_hand": "ورقك",
    "web_scores": "النتائج",
    "web_close": "إغلاق",
    "web_language": "English",
    "web_dealer": "الموزّع",
    "web_tricks": "الأكلات",
    "web_cards": "الأوراق",
    "web_points": "النقاط",
    "web_seconds": "{seconds} ث",
    "web_bid": "الطلب",
    "web_computer": "كمبيوتر",
    "web_away": "غائب",
    "web_kingdom": "المملكة",
    "web_open": "🃏 افتح الطاولة",
    "web_link_ready": "رابطك الشخصي إلى الطاولة (صالح عشر دقائق، ولك وحدك):",
    "web_denied_bad_launch": (
        "تعذّر التحقق من بيانات تيليغرام لهذه الصفحة، أو أنها قديمة. "
        "افتح الطاولة من جديد من زر المجموعة."
    ),
    "web_denied_bad_link": (
        "هذا الرابط لم يعد صالحًا (يعمل الرابط مرة واحدة ولمدة عشر دقائق). "
        "اطلب رابطًا جديدًا بزر «افتح الطاولة»."
    ),
    "web_denied_bad_session": "انتهت جلستك. افتح الطاولة من جديد من المحادثة.",
    "web_denied_unknown_table": "لم تعد هذه الطاولة قيد اللعب.",
    "web_denied_not_member": (
        "لا يشاهد هذه الطاولة إلا أعضاء محادثتها. "
        "اطلب أن تُضاف إلى المحادثة، ثم افتح الطاولة من هناك."
    ),
    "web_denied_starting": "الطاولة تعود إلى العمل؛ جارٍ إعادة الاتصال…",
    "web_denied_too_many": "رسائل كثيرة جدًا من هذه الصفحة؛ قُطع الاتصال.",
    "web_denied_too_many_pages": "فُتحت هذه الطاولة في نوافذ أخرى كثيرة؛ فأُغلقت هذه النافذة.",
    "web_denied_no_hello": (
        "لم تعرّف الصفحة بنفسها في الوقت المحدد؛ افتح الطاولة من جديد من المحادثة."
    ),
    "web_denied_internal": "حدث خطأ على الطاولة. حاول مرة أخرى من فضلك.",
    "web_denied_bad_frame": "أرسلت الصفحة شيئًا لم تفهمه الطاولة.",
    # النشاط داخل ديسكورد (issue 34).
    "web_denied_not_in_activity": (
        "لا يُظهرك ديسكورد في هذا النشاط. أغلقه وشغّله من جديد من القناة."
    ),
    "web_denied_activity_unavailable": (
        "لا تستطيع الطاولة تسجيل دخولك عبر ديسكورد الآن. أخبر مشرفي الخادم من فضلك؛"
        " زر الطاولة في القناة ما زال يعمل."
    ),
    "web_denied_bad_activity": "لم يستطع ديسكورد تأكيد من فتح هذا النشاط. أغلقه وشغّله من جديد.",
    "web_denied_no_table_here": (
        "لا طاولة في هذه القناة بعد. ابدأ واحدة بالأمر ‎/sahra‎ (new) ثم افتح النشاط من جديد."
    ),
    "web_denied_other_channel": "هذه الطاولة تُلعب في قناة أخرى.",
    "web_start_title": "لا طاولة في هذه القناة بعد",
    "web_start_prompt": "اختر لعبة لتبدأ طاولة هنا:",
    # The phone table (issue 33): cards and moves in words, the felt's facts.
    "rank_A": "آس",
    "rank_K": "شايب",
    "rank_Q": "بنت",
    "rank_J": "شب",
    "rank_T": "عشرة",
    "rank_9": "تسعة",
    "rank_8": "ثمانية",
    "rank_7": "سبعة",
    "rank_6": "ستة",
    "rank_5": "خمسة",
    "rank_4": "أربعة",
    "rank_3": "ثلاثة",
    "rank_2": "اثنين",
    "suit_S": "بستوني",
    "suit_H": "كبة",
    "suit_D": "ديناري",
    "suit_C": "سباتي",
    "card_words": "{rank} {suit}",
    "web_bid_words": "طلب {bid}",
    "web_trump_words": "الحكم {suit}",
    "web_follow": "لازم تلعب {suit}",
    "web_not_now": "لا يمكن لعب هذه الورقة الآن.",
    "web_wait_turn": "انتظر دورك.",
    "web_plays": "{name}: {card}",
    "web_takes": "{name} أكل الأكلة",
    "web_says": "{name}: {said}",
    "web_deal_no": "الجولة {deal}",
    "web_trick": "الأكلة",
    "web_bid_total": "الطلبات {total} من {needed}",
    "web_result_title": "الجولة {deal}",
    "web_made": "نجح",
    "web_broken": "كُسر",
    "web_total": "المجموع",
    "web_continue": "تابع",
    "web_to_win": "إلى {target}",
    "web_rules": "القواعد",
    "web_seat": "مقعد",
    "web_turn_of": "دور {name}",
    "web_doubles": "المدبّل",
    "web_contract": "العقد",
    "web_declarer": "صاحب الطلب",
    "btn_review": "🔁 مراجعة الجولة",
    "replay_title": "مراجعة الجولة {deal}",
    "replay_hands": "الورق كما وُزّع",
    "replay_auction": "الطلبات",
    "replay_play": "اللعب",
    "replay_result": "النتيجة",
    "replay_previous": "السابق",
    "replay_next": "التالي",
    "replay_start": "البداية",
    "replay_end": "النهاية",
    "replay_close": "العودة إلى الطاولة",
    "replay_step": "الخطوة {step} من {steps}",
    "replay_note": (
        "تفترض العلامات أن أوراق الأيدي الأربع كلها مكشوفة: فقد تكون الورقة المعلَّمة"
        " هي اللعبة الصحيحة بما كان اللاعب يعرفه وقتها."
    ),
    "replay_pending": "التحليل قيد الإعداد؛ اطلبه مرة أخرى بعد قليل.",
    "replay_cost": "−{cost} بالأوراق المكشوفة؛ الأفضل: {better}",
    "replay_unit_tricks": "أكلات",
    "replay_unit_points": "نقاط",
    "replay_side": (
        "{names}: بالأوراق المكشوفة تُجمع {makeable} بهذا الحكم؛ الطلب {bid}، والمأخوذ {took}."
    ),
    "replay_side_no_bid": (
        "{names}: بالأوراق المكشوفة تُجمع {makeable} بهذا الحكم؛ والمأخوذ {took}."
    ),
    "replay_lost": "{name}: خسر {lost} {unit} بأوراق معلَّمة.",
    "replay_not_exact": (
        "لا يمكن تعليم أي ورقة في هذه الجولة بدقة: لا يُبحث إلا في الأكلات الأخيرة، وفي عقود"
        " الأكلات وحدها."
    ),
    "replay_no_analysis": "لا يوجد تحليل لهذه الجولة.",
}
