"""What the computer-player tests share: drivers that check every decision, and "twin"
decks that deal a seat the same hand while moving every card it cannot see.

A twin deck must keep the public record of the deal possible, so the same actions replay
on it: cards already played stay in the hands that played them, a seat that did not
follow suit gets none of that suit (T41.7, TS.7, TX.5), the T41 dealer keeps the shown
card (T41.4), a doubler keeps its revealed doubled cards (TX.7), the first kingdom's owner
keeps 7♥ (TX.3), and a seat that passed in Trix gets none of the cards it could have laid
then (TX.9). These constraints are worked out here from the spectator view and the action
log, independently of ``engine.players.knowledge``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import engine
from engine.dealing import deck_for_hands
from engine.players.knowledge import Knowledge

Action = dict[str, Any]
Log = list[tuple[int, Action]]

VARIANTS = ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")
TARNEEB = ("syrian41", "tarneeb41_double")
SUITS = "CDHS"
RANKS = "23456789TJQKA"
CODES = tuple(rank + suit for suit in SUITS for rank in RANKS)
JACK = RANKS.index("J")


def shuffled_deck(seed: int) -> list[str]:
    deck = list(CODES)
    random.Random(f"players-test:{seed}").shuffle(deck)
    return deck


def first_seat(variant: str, dealer: int) -> int:
    """T41.3 / TS.2: dealing starts right of the dealer; TX.2: Trix deals from seat 0."""
    return 0 if variant == "trix_complex" else (dealer + 1) % 4


def hands_of_deck(deck: list[str], first: int) -> list[list[str]]:
    hands: list[list[str]] = [[], [], [], []]
    for index, code in enumerate(deck):
        hands[(first + index) % 4].append(code)
    return hands


def new_match(variant: str, deck: list[str], dealer: int = 0, seed: int = 5) -> engine.Match:
    options = None if variant == "trix_complex" else {"first_dealer": dealer}
    return engine.new_match(variant, seed=seed, options=options, decks=[deck])


def phase_key(phase: object, view: dict[str, Any], legal: list[Action]) -> str:
    """A label for the kind of decision: the phase, and for Trix play the contract and
    whether the seat had to pass."""
    if phase != "playing" or view["variant"] != "trix_complex":
        return str(phase)
    if view["contract"] == "complex":
        return "playing:complex"
    if legal == [{"type": "pass"}]:
        return "playing:trix:forced-pass"
    return "playing:trix:choice" if len(legal) > 1 else "playing:trix:single"


def step(match: engine.Match, seat: int, action: Action) -> None:
    match.apply(seat, action)  # type: ignore[arg-type]


# ---------------------------------------------------------------- twin decks


def layable(rows: dict[str, Any] | None) -> set[str]:
    """TX.9, re-derived: the J of each suit not started, else the cards next to its row."""
    cards = set()
    for suit in SUITS:
        row = (rows or {}).get(suit)
        if row is None:
            cards.add("J" + suit)
            continue
        low, high = RANKS.index(row["low"][0]), RANKS.index(row["high"][0])
        if low > 0:
            cards.add(RANKS[low - 1] + suit)
        if high < 12:
            cards.add(RANKS[high + 1] + suit)
    return cards


def constraints(
    match: engine.Match, log: Log, deal_hands: list[list[str]]
) -> tuple[list[set[str]], list[set[str]]]:
    """(fixed, forbidden) per seat for the current deal, from public facts only (plus
    which seat played which card, which everyone saw)."""
    spectator = match.view(None)
    fixed: list[set[str]] = [set(), set(), set(), set()]
    forbidden: list[set[str]] = [set(), set(), set(), set()]
    for seat, action in log:
        if action["type"] == "play":
            fixed[seat].add(action["card"])
    tricks = [(t["leader"], t["cards"]) for t in spectator.get("deal_tricks") or ()]
    if spectator["trick"]:
        current = spectator["trick"]
        tricks.append((current[0]["seat"], [entry["card"] for entry in current]))
    for leader, cards in tricks:
        led = cards[0][1]
        for offset, code in enumerate(cards[1:], start=1):
            if code[1] != led:  # did not follow: void in the led suit
                forbidden[(leader + offset) % 4] |= {c for c in CODES if c[1] == led}
    for entry in spectator.get("passes") or ():
        forbidden[entry["seat"]] |= layable(entry["rows"])
    dealer = spectator["dealer"]
    if spectator.get("shown_card") and dealer is not None:
        fixed[dealer].add(spectator["shown_card"])  # T41.4
    for entry in spectator.get("doubled") or ():
        fixed[entry["seat"]].add(entry["card"])  # TX.7
    if match.variant == "trix_complex" and match.deal_number == 1:
        fixed[spectator["owner"]].add("7H")  # TX.3
    for seat in range(4):
        assert fixed[seat] <= set(deal_hands[seat])
    return fixed, forbidden


def twin_hands(
    match: engine.Match, log: Log, deal_hands: list[list[str]], seat: int, rng: random.Random
) -> list[list[str]] | None:
    """Deal hands equal to ``deal_hands`` for ``seat`` and consistent with the public
    record, in which at least one hidden card has moved; ``None`` when no card can move."""
    fixed, forbidden = constraints(match, log, deal_hands)
    others = [s for s in range(4) if s != seat]
    pool = sorted(c for s in others for c in deal_hands[s] if c not in fixed[s])
    allowed = {c: [s for s in others if c not in forbidden[s]] for c in pool}
    for _ in range(400):
        cards = list(pool)
        rng.shuffle(cards)
        cards.sort(key=lambda c: len(allowed[c]))
        room = {s: len(deal_hands[s]) - len(fixed[s]) for s in others}
        new: list[list[str]] = [sorted(fixed[s]) if s != seat else [] for s in range(4)]
        for card in cards:
            options = [s for s in allowed[card] if room[s] > 0]
            if not options:
                break
            chosen = rng.choice(options)
            new[chosen].append(card)
            room[chosen] -= 1
        else:
            new[seat] = list(deal_hands[seat])
            if any(set(new[s]) != set(deal_hands[s]) for s in others):
                return new
    return None


def deck_from_hands(
    variant: str, hands: list[list[str]], dealer: int, last: str | None = None
) -> list[str]:
    """A deck dealing ``hands``; with ``last`` (a card of the dealer's), that card is dealt
    last, i.e. is ``deck[51]``: the T41 shown card (T41.4)."""
    ordered = [list(hand) for hand in hands]
    if last is not None:
        ordered[dealer].remove(last)
        ordered[dealer].append(last)
    return deck_for_hands(ordered, first_seat(variant, dealer))


def replay(match: engine.Match, log: Log, window_open: bool) -> None:
    """Apply ``log`` to a twin match. Who is asked in the doubling window depends on who
    holds K♥ and the queens, so there every seat the twin asks answers what it answered
    in the log, or nothing (TX.7); ``window_open``: whether the window is still open at
    the end of the log in the original match."""
    answers = {s: a for s, a in log if a["type"] == "double"}

    def close_window() -> None:
        while match.phase == "doubling":
            other = match.to_act[0]
            step(match, other, answers.get(other, {"type": "double", "cards": []}))

    for seat, action in log:
        if action["type"] == "double":
            if match.phase == "doubling" and seat in match.to_act:
                step(match, seat, action)
            continue
        close_window()
        step(match, seat, action)
    if not window_open:
        close_window()


def drive_until(
    match: engine.Match,
    choose: Callable[[engine.Match, int], Action],
    stop: Callable[[engine.Match, int, int], bool],
) -> tuple[Log, int | None]:
    """Play with ``choose`` until ``stop(match, seat, steps)`` holds for the seat about to
    act; returns the log so far and that seat (``None`` if the match ended first)."""
    log: Log = []
    while match.result is None:
        for seat in list(match.to_act):
            if stop(match, seat, len(log)):
                return log, seat
            action = choose(match, seat)
            step(match, seat, action)
            log.append((seat, action))
    return log, None


def playing_knowledge(
    hand: int,
    played: int,
    hand_sizes: list[int],
    *,
    variant: str = "syrian41",
    seat: int = 0,
    trump: int = 3,
    trick: list[tuple[int, int]] | None = None,
    tricks_won: list[int] | None = None,
    bids: list[int] | None = None,
) -> Knowledge:
    """A seat's knowledge in card play, built directly (spades trump, bids of 2, no tricks
    taken, unless told otherwise)."""
    return Knowledge(
        variant=variant,
        seat=seat,
        phase="playing",
        hand=hand,
        trump=trump,
        played=played,
        trick=trick or [],
        hand_sizes=hand_sizes,
        tricks_won=tricks_won or [0, 0, 0, 0],
        scores=[0, 0, 0, 0],
        dealer=0,
        bids=bids or [2, 2, 2, 2],
    )
