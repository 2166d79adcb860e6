"""DDS through ``engine.players.doubledummy``: exact tricks per card, whoever asks."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

from engine.cards import CARD_BY_CODE, SUIT_MASKS
from engine.players.doubledummy import analyse_play, available, solve
from engine.tricks import trick_winner


def hand(codes: str) -> int:
    mask = 0
    for code in codes.split():
        mask |= 1 << CARD_BY_CODE[code]
    return mask


def test_a_known_ending_is_solved_card_by_card() -> None:
    """West led the ace of spades (trump); North (to move) holds KS JS AH 7H TD 2D 9C.
    Covering with the jack keeps the king for a trick; the king alone loses one."""
    assert available()
    north = hand("KS JS AH 7H TD 2D 9C")
    east = hand("TS 9S QH JH 3H QD JC")
    south = hand("8S 7S TH 9H AD KD AC")
    west = hand("QS 3S KH 2H JD TC")
    tricks = solve([north, east, south, west], trump=3, leader=3, trick=[CARD_BY_CODE["AS"]])
    assert tricks == {CARD_BY_CODE["JS"]: 4, CARD_BY_CODE["KS"]: 3}


def test_a_last_trick_is_won_by_who_wins_it_on_the_table() -> None:
    rng = random.Random(4)
    for _ in range(50):
        cards = rng.sample(range(52), 4)
        trump = rng.randrange(-1, 4)
        tricks = solve([1 << c for c in cards], trump, leader=0)
        winner = trick_winner(cards, trump)
        assert tricks == {cards[0]: int(winner % 2 == 0)}  # seats 0 and 2 are one side


def test_threads_solving_at_once_get_what_one_thread_gets() -> None:
    rng = random.Random(7)
    deals = []
    for _ in range(24):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[9 * s : 9 * s + 9]) for s in range(4)]
        deals.append((hands, rng.randrange(4)))
    alone = [solve(hands, trump, 0) for hands, trump in deals]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda deal: solve(deal[0], deal[1], 0), deals))
    assert together == alone
    assert all(max(result.values()) <= 9 for result in alone)


def legal_cards(hand: int, trick: list[int]) -> list[int]:
    following = hand & SUIT_MASKS[trick[0] // 13] if trick else 0
    hand = following or hand
    return [card for card in range(52) if hand >> card & 1]


def test_play_analysis_agrees_with_a_solve_of_every_position_for_the_leaders_side() -> None:
    """``analyse_play`` (one AnalysePlayBin call) against SolveBoard asked afresh before
    every card of a random play: the leader's side's total tricks, those taken included,
    DDS's own count being the other side's (bridge's declarer is not on lead)."""
    assert available()
    rng = random.Random(11)
    for _ in range(12):
        deck = rng.sample(range(52), 24)
        hands = [sum(1 << c for c in deck[6 * s : 6 * s + 6]) for s in range(4)]
        trump, leader = rng.randrange(-1, 4), rng.randrange(4)
        held, plays, trick, seats = list(hands), [], [], []
        won = [0, 0]  # by side: seat % 2
        lead, truth = leader, []
        while len(plays) < 24:
            seat = (lead + len(trick)) % 4
            best = max(solve(held, trump, lead, trick).values()) + won[seat % 2]
            truth.append(best if seat % 2 == leader % 2 else 6 - best)
            card = rng.choice(legal_cards(held[seat], trick))
            held[seat] &= ~(1 << card)
            trick.append(card)
            seats.append(seat)
            plays.append(card)
            if len(trick) == 4:
                lead = seats[trick_winner(trick, trump)]
                won[lead % 2] += 1
                trick, seats = [], []
        truth.append(won[leader % 2])
        assert analyse_play(hands, trump, leader, plays) == truth
        assert analyse_play(hands, trump, leader, plays[:9]) == truth[:10]
