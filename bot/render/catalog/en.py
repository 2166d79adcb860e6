"""Every user-facing string in English, by key (the Arabic catalog has the same keys and
placeholders; ``tests/bot/render/test_i18n.py`` checks it)."""

EN: dict[str, str] = {
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
    "away_mark": "computer playing",
    "dm_needed": "Not reachable in a private chat — tap “Open my hand”: {names}",
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
    "kingdom_line": "Kingdom {kingdom} of {kingdoms} · owner {owner} · {contract}",
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
    "score_target": "target {target}",
    "score_none": "No match is being played here yet.",
    "trix_target": "After {deals} deals the higher team total wins",
    "trick_line": "On the table: {plays}",
    "trick_empty": "On the table: —",
    "last_trick_line": "Last trick: {plays} → {winner}",
    "trick_n_line": "Trick {n}: {plays} → {winner}",
    "rows_title": "Rows:",
    "finished_line": "Out: {order}",
    "turn_line": "▶ {names} to {what}",
    "what_bid": "bid",
    "what_play": "play",
    "what_trump": "name trump",
    "what_contract": "choose the contract",
    "what_double": "answer",
    "waiting_doubles": "▶ Waiting for the doubling answers",
    # the private hand
    "hand_title": "Your hand — {variant}, deal {deal}",
    "your_turn": "▶ Your turn: {what}.",
    "your_bid": "Your bid: {bid}",
    "partner_line": "{team}: you and your partner {partner}",
    "you_mark": "you",
    "bids_total": "Bids so far total {total} (the deal needs {needed})",
    "trix_standing": "{team_a}: {a} · {team_b}: {b} · deal {deal} of {deals}",
    "waiting_line": (
        "⏳ Waiting — the game goes on in the group; this message will show your next turn."
    ),
    "doubles_awaited": "Waiting for the other players' doubling answers.",
    "hand_moved": "Your hand has moved to a newer message below.",
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
    "sheet_redeal": "The cards are shuffled and dealt again by the next dealer.",
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
    "refuse_stop_not_allowed": (
        "Only the table's creator or a chat admin can stop it — or any player at "
        "the table once its creator has left the chat."
    ),
    "refuse_language_not_allowed": (
        "While a table is being played here, only its players or a chat admin can "
        "change the chat's language."
    ),
    "refuse_not_away": "Your seat is not being played for you.",
    "refuse_bad_option": "That option is not valid.",
    "refuse_moving": "This table is changing servers for a moment; press again in a few seconds.",
    "refuse_storage": "The move could not be saved; please try again.",
    "refuse_record_not_over": (
        "The match is still being played: its cards stay hidden until it ends."
    ),
    "refuse_record_not_player": "Only the match's players may see its record.",
    "refuse_review_not_over": (
        "That deal is not over yet: its cards stay hidden until it ends. Finished deals"
        " can be reviewed."
    ),
    "refuse_review_busy": "Your last review is still on its way; wait for it first.",
    "refuse_rematch_not_over": "That match is not over.",
    "refuse_rematch_not_player": "Only the match's players may ask for a rematch.",
    "refuse_rematch_started": "The rematch has already started.",
    "refuse_already_ready": "You are already confirmed.",
    "refuse_no_partners": "Solo Tarneeb has no partners to swap.",
    "illegal_must_follow_suit": "You must follow suit.",
    "illegal_card_not_held": "You do not hold that card.",
    "illegal_not_playable": "That card does not fit the rows yet.",
    "illegal_pass_not_allowed": (
        "You cannot pass now: you hold a card that fits the rows, or you are the dealer"
        " and everyone else has passed."
    ),
    "illegal_bid_forbidden": "That bid does not exist in this variant.",
    "illegal_bid_two_forbidden": "With {no_two_from} points or more you may not bid {lowest_bid}.",
    "illegal_bid_too_low": "Your bid must be higher than the current one.",
    "illegal_already_answered": "You have already answered.",
    "illegal_not_doublable": "You may double only K♥ or a queen you hold.",
    # rules summaries (/rules and a new table): one title line, short "• " lines; the
    # numbers are filled in from engine.params by bot/render/rules_text.py
    "rules_syrian41": "\n".join(
        (
            "Syrian Tarneeb 41",
            "• Four players in two teams; partners sit opposite. Bids, tricks and scores "
            "are personal; a team's score is the sum of both partners' scores.",
            "• The deal passes to the right after every hand. Cards are dealt one by one "
            "from the dealer's right; the dealer receives last.",
            "• Trump: the dealer's own last card is shown to all; trump is the other suit "
            "of the same colour (♣ with ♠, ♦ with ♥). Nobody chooses; the shown card stays "
            "in the dealer's hand.",
            "• Bidding: from the dealer's right, dealer last, each player bids once the "
            "number of tricks they will take themselves, {min_bid} to {max_bid}. No pass.",
            "• If the four bids total less than {min_total}, the hand is cancelled and the "
            "next dealer deals again.",
            "• Play: the player on the dealer's right leads the first trick. Follow suit if "
            "you can; if void, play any card (never forced to trump). The highest trump "
            "wins, else the highest card of the led suit; the winner leads next.",
            "• Scoring: take your bid or more and you gain your bid; fewer and you lose it. "
            "Extra tricks add nothing; scores may go negative.",
            "• Winning: a team qualifies when one partner has {target} or more and the "
            "other is above zero. If both teams qualify, the higher team total wins; an "
            "exact tie plays one more hand.",
            "• Timeout: you bid {min_bid} (the dealer bids what brings the total to "
            "{min_total}) and play your weakest legal card.",
        )
    ),
    "rules_tarneeb41_double": "\n".join(
        (
            "Tarneeb 41 with doubled high bids",
            "• Four players in two teams; partners sit opposite. Bids, tricks and scores "
            "are personal; a team's score is the sum of both partners' scores.",
            "• The deal passes to the right after every hand; the dealer receives last. "
            "Your hand is sorted by suit, ascending.",
            "• Trump: the dealer's last card is shown to all; trump is the other suit of "
            "the same colour (♣ with ♠, ♦ with ♥).",
            "• Bidding: from the dealer's right, each player bids once the tricks they "
            "expect to take, {min_bid} to {max_bid}; {no_bid} does not exist. With "
            "{no_two_from} points or more you may not bid {min_bid} until your score drops "
            "below {no_two_from}.",
            "• If the bids total {below_total} or less, the hand is cancelled and the next "
            "dealer deals; play needs a total of {min_total} or more.",
            "• Play: the player on the dealer's right leads. Follow suit if you can; if "
            "void, play any card (never forced to trump). The highest trump wins, else the "
            "highest card of the led suit.",
            "• Scoring: make your bid and you gain it; fail and you lose it. A bid of "
            "{double_from} or more counts double both ways (bid {double_from} made "
            "+{double_made}, bid {double_next} failed −{double_failed}).",
            "• Winning: a team qualifies when one partner has {target} or more and the "
            "other is above zero. If both teams qualify, the higher team total wins; an "
            "exact tie plays one more hand.",
            "• Timeout: the smallest legal bid (the dealer: the smallest that brings the "
            "total to {min_total}) and the weakest legal card.",
        )
    ),
    "rules_tarneeb_solo": "\n".join(
        (
            "Solo Tarneeb",
            "• Four players, each for themselves. The table's creator picks the target: "
            "{targets}.",
            "• The deal passes to the right after every hand. No card is shown; trump comes "
            "from the auction.",
            "• Auction: from the dealer's right, bid the tricks you alone will take, "
            "{min_bid} to {max_bid}, each bid higher than the last. Whoever passes is out "
            "of the auction; it ends when all the others have passed after the last bid, or "
            "at once on a bid of {max_bid}.",
            "• If the first three all pass with no bid, the dealer must bid at least "
            "{min_bid}. No redeal.",
            "• Trump: the highest bidder (declarer) picks it from the four suits (no "
            "no-trump) and leads the first trick.",
            "• Play: follow suit if you can; if void, play any card — you are never forced "
            "to trump. The highest trump wins, else the highest card of the led suit.",
            "• Scoring (all 13 tricks are played): bid made, the declarer scores the tricks "
            "taken and nobody else scores; all 13 without bidding {max_bid} (kaboot) scores "
            "{kaboot}; bid failed, the declarer loses the bid and each other player scores "
            "their tricks.",
            "• Bid {max_bid}: taking all 13 scores {grand_slam}; otherwise the declarer "
            "loses {grand_slam_failed} and the others score double their tricks.",
            "• Winning: once one or more players reach the target, the highest score wins; "
            "a tie at the top plays another hand.",
            "• Timeout: pass (the forced dealer bids {min_bid}), trump is your longest "
            "suit, and the weakest legal card is played.",
        )
    ),
    "rules_trix_complex": "\n".join(
        (
            "Trix Complex Partnership",
            "• Four players in two teams; partners sit opposite. Scores go to each player; "
            "the team total is both partners' scores. No trump in any contract.",
            "• Four kingdoms of two contracts (Complex, Trix): {deals} deals, each freshly "
            "shuffled. Whoever holds 7♥ in the first deal owns the first kingdom; ownership "
            "then passes to the right after both contracts.",
            "• The owner picks which contract is played first (timeout: Complex); the other "
            "follows.",
            "• Complex: the owner leads; follow suit if you can, else any card; the highest "
            "card of the led suit wins. The taker gets −{trick_cost} per trick, "
            "−{diamond_cost} per diamond, −{queen_cost} per queen and −{king_cost} for K♥ "
            "(Q♦ costs −{diamond_cost} and −{queen_cost}). A deal totals −{complex_total}.",
            "• Doubling (Complex only, before the first trick): holders of K♥ or queens may "
            "double them in secret; doubles are revealed together. Whoever takes a doubled "
            "card pays double (K♥ −{king_double}, queen −{queen_double}) and the doubler "
            "gains {king_cost} or {queen_cost}; if the doubler takes it, the trick's leader "
            "gains instead; if the doubler also led that trick, it costs only −{king_cost} "
            "or −{queen_cost}.",
            "• Trix: each suit's row starts at its J and grows up to A and down to 2. Play "
            "a J or a card next to a row's end; pass only with no legal card. Emptying your "
            "hand first, second, third, fourth: +{first}, +{second}, +{third}, +{fourth}.",
            "• After the eighth deal the higher team total wins; equal totals are a draw.",
            "• Timeout: no double; the weakest legal card (or pass) is played.",
        )
    ),
    # computer players: one name per seat, so that three of them can be told apart
    "computer_0": "Salim",
    "computer_1": "Nour",
    "computer_2": "Rami",
    "computer_3": "Huda",
    # the terminal table (sahra play)
    "console_resume": "Resuming your saved match (table #{table}).",
    "console_new": "A new match: you sit in seat {seat} with three computer players.",
    "console_prompt": "Your move (number): ",
    "console_bad_number": "Please type the number of one of the moves listed ({first}–{last}).",
    "console_saved": "Input closed: the match is saved. Run the same command again to resume.",
    "console_moves": "Your moves:",
    "console_web": (
        "The table is open in your browser at this link (for you only; {keys} stops, the"
        " match stays saved):\n{url}"
    ),
    "console_busy": (
        "Sorry: another Sahra is using {file} right now (a running bot, or a match in"
        " another terminal), and the two must not share it. Stop it, or play in a file of"
        " your own: {option}"
    ),
    # Telegram: the command menu (/setMyCommands), help and replies
    "tg_cmd_new": ("open a table: /new syrian41 | tarneeb41_double | tarneeb_solo | trix_complex"),
    "tg_cmd_join": "take a seat at the open table",
    "tg_cmd_leave": "leave the table (a computer plays for you)",
    "tg_cmd_addbot": "fill a seat with a computer player",
    "tg_cmd_begin": "start the match when four seats are filled",
    "tg_cmd_hand": "get your cards in a private chat",
    "tg_cmd_reclaim": "take your seat back from the computer",
    "tg_cmd_stop": "stop the table (its creator or an admin)",
    "tg_cmd_score": "show the table and the scores again",
    "tg_cmd_rules": "the rules of a variant",
    "tg_cmd_lang": "the group's language: /lang ar or /lang en",
    "tg_cmd_help": "how to play with Sahra",
    "tg_cmd_top": "this group's best players: /top [tarneeb | solo | trix]",
    "tg_cmd_stats": "your own figures (this group's, or all in private)",
    "tg_cmd_history": "this group's last ten matches",
    "tg_cmd_record": "a finished match's whole record, privately: /record <number>",
    "tg_top_usage": "Use /top, or /top tarneeb, /top solo or /top trix.",
    "tg_record_usage": "Use /record <number>: the numbers are in /history.",
    "tg_record_dm_needed": "Open a private chat with me first (send me /start), then ask again.",
    "tg_record_sent": "📬 {name}: the match record is in your private chat.",
    "tg_rematch_confirmed": "✓ You are in: the rematch starts when everyone is ready.",
    "tg_help": (
        "Sahra hosts Tarneeb and Trix at your group's table.\n"
        "• /new opens a table (choose the game), /join takes a seat, /addbot adds a "
        "computer, /begin starts.\n"
        "• Your cards come in a private chat with me: tap “Open my hand” once.\n"
        "• Play with the buttons under your hand; the group sees the table.\n"
        "• /rules explains a game; /lang switches between Arabic and English."
    ),
    "tg_pick_variant": "Which game?",
    "tg_pick_target": "Solo Tarneeb: play to which score?",
    "tg_open_dm": "Open my hand",
    # true both for a player who never opened the private chat and for one who
    # blocked the bot: Telegram answers the two alike
    "tg_dm_needed": (
        "{name}, I cannot reach you in a private chat: either it was never opened "
        "or I am blocked there. Tap the button (and unblock me if you blocked me) "
        "to get your cards."
    ),
    "tg_dm_welcome": (
        "Welcome to Sahra! Your cards will come here. Use /new in a group to open a table."
    ),
    "tg_dm_bound": "You are at table #{table}. Your cards are below.",
    "tg_no_table": "There is no table here. Open one with /new.",
    "tg_not_a_group": "Tables are opened in groups: add me to a group and use /new there.",
    "tg_lang_set": "The group's language is now English (for new tables and messages).",
    "tg_lang_usage": "Use /lang ar or /lang en.",
    "tg_sent_to_dm": "Sent to your private chat.",
    "tg_rules_sent": "📬 {name}: the rules are in your private chat.",
    "tg_unknown_variant": (
        "I do not know the game {word}. Choose one of: syrian41 (or 41), "
        "tarneeb41_double (double), tarneeb_solo (solo), trix_complex (trix)."
    ),
    "tg_new_unknown_words": (
        "I did not understand: {words}. Use /new [game] [target] [easy|hard] — the "
        "game is syrian41 (41), tarneeb41_double (double), tarneeb_solo (solo) or "
        "trix_complex (trix); a target only for tarneeb_solo: {targets}; easy or "
        "hard for the computer players."
    ),
    "tg_new_bad_target": (
        "Solo Tarneeb is played to {targets}, not {target}. For example: /new solo 51"
    ),
    "tg_new_no_target": (
        "{game} has no target score (only Solo Tarneeb is played to {targets}): "
        "send /new {variant} without a number."
    ),
    "tg_rules_unknown": (
        "I do not know the game {word}. Use /rules with one of: syrian41 (or 41), "
        "tarneeb41_double (double), tarneeb_solo (solo), trix_complex (trix)."
    ),
    "tg_no_arguments": "{command} takes nothing after it: send just {command}",
    # Discord: the permissions by the names its settings screens use, and replies
    "dc_perm_view_channel": "View Channel",
    "dc_perm_send_messages": "Send Messages",
    "dc_perm_send_messages_in_threads": "Send Messages in Threads",
    "dc_perm_read_message_history": "Read Message History",
    "dc_missing_permissions": (
        "I cannot post a table here: I am missing {permissions} in this channel. A "
        "server admin can grant it in the channel's permissions; then open the "
        "table again."
    ),
    "dc_post_refused": (
        "Discord did not let me post the table here ({reason}), so I closed it. "
        "Once a server admin grants me {permissions} in this channel, open it "
        "again."
    ),
    "dc_unknown_command": (
        "That command is out of date or incomplete. Type /sahra and pick one from "
        "the list (Discord may take a moment to show the newest commands)."
    ),
    "dc_failed": "Sorry, that did not work. Please try again.",
    "dc_web_off": "The table cannot be opened as a page here; play it in the chat.",
    # Discord: slash command descriptions (Discord has no Arabic locale: both are shown)
    "dc_cmd_group": "Sahra card tables",
    "dc_cmd_new": "Open a table in this channel",
    "dc_cmd_join": "Take a seat",
    "dc_cmd_leave": "Leave (a computer plays for you)",
    "dc_cmd_addbot": "Fill a seat with a computer",
    "dc_cmd_begin": "Start when four seats are filled",
    "dc_cmd_reclaim": "Take your seat back",
    "dc_cmd_stop": "Stop the table (creator or Manage Server)",
    "dc_cmd_hand": "Your cards (only you see them)",
    "dc_cmd_score": "Show the table again",
    "dc_cmd_rules": "The rules of a game",
    "dc_cmd_lang": "The channel's language: ar or en",
    "dc_cmd_top": "This channel's best players",
    "dc_cmd_stats": "Your own figures",
    "dc_cmd_history": "This channel's last ten matches",
    "dc_cmd_record": "A finished match's whole record (its players only)",
    "dc_cmd_play": "Open the table here",
    "dc_cmd_launch": "Open Sahra's card table",  # the Activity's Entry Point command
    # the match record (after the match)
    "record_title": "📜 Match record — {variant}",
    "record_unfinished": "The match ended before a result.",
    "record_deal": "🃏 Deal {deal} · dealer {dealer}",
    "record_deal_trix": (
        "🃏 Deal {deal} · kingdom {kingdom} of {kingdoms} · owner {owner} · {contract}"
    ),
    "record_hands": "Hands as dealt:",
    "record_bids": "Bids: {bids}",
    "record_auction": "Auction: {calls}",
    "record_tricks": "Tricks:",
    "record_trick_line": "{n}. {plays} → {winner}",
    "record_open_trick": "Unfinished trick: {plays}",
    "record_layout": "Plays in order:",
    "record_result": "Result:",
    "record_unfinished_deal": "The match ended during this deal.",
    # the league: leaderboard, stats, history (bot/render/league.py)
    "family_tarneeb": "Tarneeb 41",
    "family_solo": "Solo Tarneeb",
    "family_trix": "Trix Complex",
    "top_title": "🏆 Top players here — {game}",
    "top_empty": "Nobody has {count} finished matches of this game here yet.",
    "top_line": "{place}. {name} — {rating} · matches {matches} · wins {wins}",
    "top_footer": (
        "Rating = 1000 + 40 × (skill − 3 × uncertainty); listed from {count} matches here."
    ),
    "stats_title_here": "📊 {name} — matches in this chat",
    "stats_title_all": "📊 {name} — all your matches",
    "stats_empty": "No finished match yet.",
    "stats_line": "{game}: matches {matches} · wins {wins} ({rate}) · rating {rating} · {rank}",
    "stats_rank": "rank {rank} of {of}",
    "stats_unranked": "not ranked yet",
    "stats_left": "left: {count} (counted as losses)",
    "stats_tarneeb": "bids made {made} · average bid {bid}",
    "stats_solo": (
        "contracts {declared} · made {made} · average bid {bid} · 13-trick deals {kaboot}"
    ),
    "stats_trix": "average own kingdom {kingdom} · doubles won {won} · lost {lost}",
    "history_title": "📜 The last matches here",
    "history_empty": "No finished match here yet.",
    "history_draw": "a draw",
    "history_winners": "won: {names}",
    "history_line": "#{table} · {when} · {game} · {players} · {outcome} · {scores}",
    "history_footer": "A match's whole record, for its players: {command} <number>",
    # rematch (bot/render/lobby.py)
    "rematch_title": "🔁 {variant} — rematch of table #{old} (table #{table})",
    "rematch_waiting": (
        "Waiting for {count} to tap Ready; after {seconds} s computers take the seats of "
        "those who did not."
    ),
    "rematch_filled": "🤖 Computers play for those who did not confirm: {names}",
    "btn_ready": "Ready",
    "btn_swap": "Swap partners",
    "btn_rematch": "Rematch",
    "btn_record": "Match record",
    # the web table's own texts (bot/render/page.py: PAGE_STRINGS)
    "btn_reclaim": "Take my seat back",
    "web_title": "Sahra",
    "web_connecting": "Connecting…",
    "web_reconnecting": "Connection lost — reconnecting…",
    "web_failed": "The table could not be opened.",
    "web_last_trick": "Last trick",
    "web_hide_last_trick": "Hide the last trick",
    "web_last_deal": "Last deal",
    "web_watching": "You are watching this table.",
    "web_your_hand": "Your hand",
    "web_scores": "Scores",
    "web_close": "Close",
    "web_language": "العربية",
    "web_dealer": "Dealer",
    "web_tricks": "Tricks",
    "web_cards": "Cards",
    "web_points": "Points",
    "web_seconds": "{seconds} s",
    "web_bid": "Bid",
    "web_computer": "computer",
    "web_away": "away",
    "web_kingdom": "Kingdom",
    "web_open": "🃏 Open the table",
    "web_link_ready": "Your personal link to the table (valid for 10 minutes, for you only):",
    "web_denied_bad_launch": (
        "Telegram's launch data for this page could not be verified, or it is too old. "
        "Open the table again from the group's button."
    ),
    "web_denied_bad_link": (
        "This link is not valid any more (links work once and for 10 minutes). "
        "Ask the table for a new one with Open the table."
    ),
    "web_denied_bad_session": "Your session has ended. Open the table again from the chat.",
    "web_denied_unknown_table": "This table is not being played any more.",
    "web_denied_not_member": (
        "Only members of this table's chat can watch it. Ask to be added to the chat, "
        "then open the table from there."
    ),
    "web_denied_starting": "The table is starting up again; reconnecting…",
    "web_denied_too_many": "Too many messages from this page; it was disconnected.",
    "web_denied_too_many_pages": (
        "This table was opened in too many other windows; this one was closed."
    ),
    "web_denied_no_hello": (
        "The page did not say who it is in time; open the table again from the chat."
    ),
    "web_denied_internal": "Something went wrong at the table. Please try again.",
    "web_denied_bad_frame": "The page sent something the table did not understand.",
    # The Activity inside Discord (issue 34).
    "web_denied_not_in_activity": (
        "Discord does not show you in this Activity. Close it and launch it again from the"
        " channel."
    ),
    "web_denied_activity_unavailable": (
        "The table cannot sign you in through Discord right now. Please tell the server's"
        " admins; the table's button in the channel still works."
    ),
    "web_denied_bad_activity": (
        "Discord could not confirm who opened this Activity. Close it and launch it again."
    ),
    "web_denied_no_table_here": (
        "There is no table in this channel yet. Start one with /sahra new, then open the"
        " Activity again."
    ),
    "web_denied_other_channel": "This table is played in another channel.",
    "web_start_title": "No table in this channel yet",
    "web_start_prompt": "Choose a game to start a table here:",
    # The phone table (issue 33): cards and moves in words, the felt's facts.
    "rank_A": "Ace",
    "rank_K": "King",
    "rank_Q": "Queen",
    "rank_J": "Jack",
    "rank_T": "Ten",
    "rank_9": "Nine",
    "rank_8": "Eight",
    "rank_7": "Seven",
    "rank_6": "Six",
    "rank_5": "Five",
    "rank_4": "Four",
    "rank_3": "Three",
    "rank_2": "Two",
    "suit_S": "spades",
    "suit_H": "hearts",
    "suit_D": "diamonds",
    "suit_C": "clubs",
    "card_words": "{rank} of {suit}",
    "web_bid_words": "Bid {bid}",
    "web_trump_words": "Trump {suit}",
    "web_follow": "Follow {suit}",
    "web_not_now": "That card cannot be played now.",
    "web_wait_turn": "Wait for your turn.",
    "web_plays": "{name}: {card}",
    "web_takes": "{name} takes the trick",
    "web_says": "{name}: {said}",
    "web_deal_no": "Deal {deal}",
    "web_trick": "Trick",
    "web_bid_total": "Bids {total} of {needed}",
    "web_result_title": "Deal {deal}",
    "web_made": "made",
    "web_broken": "broken",
    "web_total": "Total",
    "web_continue": "Continue",
    "web_to_win": "to {target}",
    "web_rules": "Rules",
    "web_seat": "Seat",
    "web_turn_of": "{name}'s turn",
    "web_doubles": "Doubled",
    "web_contract": "Contract",
    "web_declarer": "Declarer",
    "btn_review": "🔁 Review",
    "replay_title": "Deal {deal}: review",
    "replay_hands": "Hands as dealt",
    "replay_auction": "Bidding",
    "replay_play": "Play",
    "replay_result": "Result",
    "replay_previous": "Previous",
    "replay_next": "Next",
    "replay_start": "Start",
    "replay_end": "End",
    "replay_close": "Back to the table",
    "replay_step": "Step {step} of {steps}",
    "replay_note": (
        "The marks assume every hand is visible (double dummy): a marked card may still have"
        " been the right play with what the player knew."
    ),
    "replay_pending": "The analysis is being prepared; ask again in a moment.",
    "replay_cost": "−{cost} double dummy; better: {better}",
    "replay_unit_tricks": "tricks",
    "replay_unit_points": "points",
    "replay_side": (
        "{names}: double dummy makes {makeable} with this trump; bid {bid}, took {took}."
    ),
    "replay_side_no_bid": "{names}: double dummy makes {makeable} with this trump; took {took}.",
    "replay_lost": "{name}: {lost} {unit} lost to marked cards.",
    "replay_not_exact": (
        "No card of this deal can be marked exactly: only the last tricks are searched, and"
        " only in the trick contracts."
    ),
    "replay_no_analysis": "There is no analysis for this deal.",
}
