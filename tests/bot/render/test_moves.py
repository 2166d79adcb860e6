"""The moves a page plays one by one (``bot.render.moves``): only public events, cards named
by code, label and words in the table's language, a trick's cards in their seats."""

from __future__ import annotations

from bot.render.moves import page_moves
from tests.bot.render.support import table


def test_a_private_event_is_never_a_move() -> None:
    events = [
        {"type": "hand", "to": 0, "cards": ["QH", "KS"]},
        {"type": "double_answered", "to": 1, "cards": ["QS"]},
    ]
    assert page_moves(table("trix_complex", "en"), events) == []


def test_a_card_is_named_in_words_in_the_tables_language() -> None:
    play = [{"type": "play", "seat": 2, "card": "QH"}]
    [english] = page_moves(table("syrian41", "en"), play)
    assert english["kind"] == "play" and english["seat"] == 2
    assert (english["card"], english["label"], english["name"]) == ("QH", "Q♥", "Queen of hearts")
    [arabic] = page_moves(table("syrian41", "ar"), play)
    assert arabic["name"] == "بنت كبة"


def test_a_trick_puts_each_card_in_the_seat_that_played_it_from_the_leader_on() -> None:
    won = {"type": "trick_won", "seat": 1, "leader": 3, "cards": ["2C", "AC", "TC", "3C"]}
    [trick] = page_moves(table("syrian41", "en"), [won])
    assert trick["winner"] == 1
    assert [(c["seat"], c["card"]) for c in trick["cards"]] == [
        (3, "2C"),
        (0, "AC"),
        (1, "TC"),
        (2, "3C"),
    ]
    assert trick["cards"][2]["name"] == "Ten of clubs"


def test_bids_passes_trump_and_contracts_are_announced_on_their_seat() -> None:
    events = [
        {"type": "bid", "seat": 1, "value": 7},
        {"type": "bid", "seat": 2, "value": "pass"},
        {"type": "trump", "seat": 1, "suit": "S"},
        {"type": "contract", "seat": 3, "contract": "complex", "kingdom": 1},
    ]
    moves = page_moves(table("tarneeb_solo", "en"), events)
    assert [(m["kind"], m["seat"], m["text"]) for m in moves] == [
        ("say", 1, "Bid 7"),
        ("say", 2, "Pass"),
        ("say", 1, "Trump ♠"),
        ("say", 3, "Complex"),
    ]
    assert moves[0]["say"].endswith(": Bid 7")
