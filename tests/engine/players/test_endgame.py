"""The exact search of the last tricks: the right count of tricks, and the right score
where a trick count is not enough (personal bids T41.8, Complex points TX.6)."""

from __future__ import annotations

import random

from engine.cards import FULL_MASK, parse_card
from engine.players import doubledummy
from engine.players.endgame import Endgame
from engine.players.knowledge import Knowledge
from engine.players.objective import exact_search
from engine.tricks import legal_mask
from tests.engine.players.support import playing_knowledge

HEARTS, SPADES = 2, 3


def mask(codes: str) -> int:
    return sum(1 << parse_card(code) for code in codes.split())


def test_counting_tricks_it_agrees_with_the_double_dummy_solver() -> None:
    rng = random.Random(17)
    for _ in range(40):
        deck = list(range(52))
        rng.shuffle(deck)
        left = rng.randrange(1, 5)
        hands = [sum(1 << card for card in deck[13 * s : 13 * s + left]) for s in range(4)]
        trump, leader = rng.randrange(-1, 4), rng.randrange(4)
        trick: list[int] = []
        seats: list[int] = []
        for index in range(rng.randrange(4)):
            seat = (leader + index) & 3
            legal = legal_mask(hands[seat], trick[0] // 13 if trick else -1)
            card = rng.choice([c for c in range(52) if legal >> c & 1])
            hands[seat] &= ~(1 << card)
            trick.append(card)
            seats.append(seat)
        me = (leader + len(trick)) & 3
        legal = legal_mask(hands[me], trick[0] // 13 if trick else -1)
        candidates = [c for c in range(52) if legal >> c & 1]
        search = Endgame(trump, 1 << me | 1 << (me ^ 2), lambda t, me=me: t[me] + t[me ^ 2])
        exact = search.solve(hands, trick, seats, leader, (0, 0, 0, 0), candidates)
        solved = doubledummy.solve(hands, trump, leader, trick)
        assert exact == {card: solved[card] for card in candidates}


def test_judging_a_played_card_agrees_with_valuing_every_card() -> None:
    """``judge`` proves most cards no better than the one played without valuing them;
    its best value, the played card's and the best cards are still exactly ``solve``'s,
    for either side to move (here a lone maximizer against three: Solo's game)."""
    rng = random.Random(23)
    for _ in range(60):
        deck = rng.sample(range(52), 16)
        hands = [sum(1 << card for card in deck[4 * s : 4 * s + 4]) for s in range(4)]
        trump, leader = rng.randrange(-1, 4), rng.randrange(4)
        trick: list[int] = []
        seats: list[int] = []
        for index in range(rng.randrange(4)):
            seat = (leader + index) & 3
            legal = legal_mask(hands[seat], trick[0] // 13 if trick else -1)
            card = rng.choice([c for c in range(52) if legal >> c & 1])
            hands[seat] &= ~(1 << card)
            trick.append(card)
            seats.append(seat)
        me = (leader + len(trick)) & 3
        legal = legal_mask(hands[me], trick[0] // 13 if trick else -1)
        candidates = [c for c in range(52) if legal >> c & 1]
        declarer = rng.randrange(4)
        values = Endgame(trump, 1 << declarer, lambda t, d=declarer: t[d]).solve(
            hands, trick, seats, leader, (0, 0, 0, 0), candidates
        )
        played = rng.choice(candidates)
        best = (max if me == declarer else min)(values.values())
        kept = sorted(c for c in candidates if values[c] == best) if values[played] != best else []
        search = Endgame(trump, 1 << declarer, lambda t, d=declarer: t[d])
        judged = search.judge(hands, trick, seats, leader, (0, 0, 0, 0), candidates, played)
        assert judged == (best, values[played], kept)


def knowledge(
    variant: str, seat: int, hands: list[str], trick: list[tuple[int, str]]
) -> Knowledge:
    """Seat ``seat``'s knowledge with ``hands`` still held; 11 tricks are taken (4, 3, 2, 2)
    against bids of 4, 3, 4 and 2."""
    held = [mask(hand) for hand in hands]
    return playing_knowledge(
        held[seat],
        FULL_MASK & ~(held[0] | held[1] | held[2] | held[3]),
        [hand.bit_count() for hand in held],
        variant=variant,
        seat=seat,
        trump=SPADES if variant != "trix_complex" else -1,
        trick=[(who, parse_card(code)) for who, code in trick],
        tricks_won=[4, 3, 2, 2],
        bids=[4, 3, 4, 2],
    )


def test_the_trick_goes_to_the_partner_who_still_needs_it() -> None:
    """Two tricks left. Seat 0 has made its 4; its partner (seat 2) has 2 of its 4. Seat 2's
    king of hearts is winning; seat 0 holds the ace and the 2. Either card gives the side
    both tricks (the double-dummy count is equal), but only the 2 lets seat 2 take them."""
    hands = ["AH 2H", "7C", "AC", "6C"]  # what is still held, the trick's cards gone
    know = knowledge("syrian41", 0, hands, [(1, "3H"), (2, "KH"), (3, "4H")])
    held = [mask(hand) for hand in hands]
    trick = [parse_card(code) for code in ("3H", "KH", "4H")]
    ace, two = parse_card("AH"), parse_card("2H")
    counted = doubledummy.solve(held, SPADES, 1, trick)
    assert counted[ace] == counted[two] == 2
    search, sign = exact_search(know)
    values = search.solve(held, trick, [1, 2, 3], 1, (0, 0, 0, 0), [ace, two])
    assert sign == 1
    assert values[two] - values[ace] == 8  # seat 2's bid of 4 made (+4) instead of broken (-4)


def test_complex_sheds_the_king_of_hearts_on_the_other_side() -> None:
    """Complex, seat 3 last to a spade trick its partner (seat 1) is winning, void in
    spades, holding K♥ and 4♣. Either way each side takes one trick; K♥ now costs its own
    side 75, kept for the club trick it goes to seat 0."""
    hands = ["7C", "5C", "6C", "KH 4C"]
    know = knowledge("trix_complex", 3, hands, [(0, "2S"), (1, "AS"), (2, "3S")])
    held = [mask(hand) for hand in hands]
    trick = [parse_card(code) for code in ("2S", "AS", "3S")]
    king, club = parse_card("KH"), parse_card("4C")
    search, sign = exact_search(know)
    values = search.solve(held, trick, [0, 1, 2], 0, (0, 0, 0, 0), [king, club])
    assert sign == 1
    assert values[club] - values[king] == 150
