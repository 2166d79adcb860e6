"""Trix Complex Partnership (``trix_complex``, TX): four kingdoms of two contracts.

Each deal is dealt from seat 0 (TX.2). The kingdom owner picks Complex or Trix for the
kingdom's first deal and the other contract follows (TX.3–TX.4). Complex is trick play
without trump where the taker collects every penalty (TX.5–TX.6), after a secret,
simultaneous doubling window (TX.7–TX.8); Trix lays the cards out in rows from the jacks
(TX.9–TX.10). After eight deals the higher team total wins, an exact tie is a draw (TX.11).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, ClassVar

from engine.actions import CONTRACT, DOUBLE, PASS, PLAY
from engine.cards import CARD_CODES, cards_of, parse_card
from engine.errors import IllegalAction
from engine.match import Action, Event, Phase
from engine.params import TRIX_COMPLEX as PARAMS
from engine.params import TrixParams
from engine.trickplay import TrickPlayMatch
from engine.tricks import NO_TRUMP, weakest_card

COMPLEX, TRIX = PARAMS.contracts  # TX.3
DEALS = PARAMS.deals  # TX.3: 4 kingdoms × 2 contracts
SEVEN_OF_HEARTS = parse_card("7H")  # TX.3: its holder in deal 1 owns the first kingdom
KING_OF_HEARTS = parse_card("KH")
QUEENS = tuple(parse_card(f"Q{suit}") for suit in "CDHS")
# TX.7, TX.8: the doublable cards and their value v (the undoubled penalty of TX.6)
DOUBLABLE = {
    KING_OF_HEARTS: PARAMS.king_of_hearts_cost,
    **{queen: PARAMS.queen_cost for queen in QUEENS},
}
DOUBLABLE_MASK = sum(1 << card for card in DOUBLABLE)
TRICK_PENALTY = -PARAMS.trick_cost  # TX.6
DIAMOND_PENALTY = -PARAMS.diamond_cost  # TX.6
DIAMONDS = 1
JACK = 9  # rank index of J (2..A = 0..12)
PLACINGS = PARAMS.placings  # TX.10
DOUBLING_TURN = -2  # ``_turn`` while several seats answer at once


def trick_points(cards: list[int], leader: int, winner: int, doubled: dict[int, int]) -> list[int]:
    """TX.6 and TX.8: what a finished Complex trick costs or earns each seat.

    ``cards`` in play order from ``leader``; ``doubled`` maps each doubled card to its
    doubler (who played it: a card never changes hands).

    >>> kh, qd = parse_card("KH"), parse_card("QD")
    >>> trick_points([parse_card("2H"), kh, qd, parse_card("5H")], 0, 3, {})
    [0, 0, 0, -125]
    >>> trick_points([parse_card("2D"), qd, parse_card("5D"), parse_card("AD")], 0, 3, {qd: 1})
    [0, 25, 0, -105]
    """
    points = [0, 0, 0, 0]
    points[winner] += TRICK_PENALTY
    for card in cards:
        if card // 13 == DIAMONDS:
            points[winner] += DIAMOND_PENALTY
        value = DOUBLABLE.get(card)
        if value is None:
            continue
        doubler = doubled.get(card)
        if doubler is None:
            points[winner] -= value
        elif winner != doubler:  # case 1: someone else takes it, the doubler's partner too
            points[winner] -= 2 * value
            points[doubler] += value
        elif leader != doubler:  # case 2: forced onto its owner by the leader
            points[doubler] -= 2 * value
            points[leader] += value
        else:  # case 3: the doubler led it and nobody beat it
            points[doubler] -= value
    return points


def layout_mask(rows: list[list[int] | None]) -> int:
    """TX.9: the cards that may be laid now — the J of a suit not started, or the card
    next to either end of a started suit's row."""
    mask = 0
    for suit, row in enumerate(rows):
        base = suit * 13
        if row is None:
            mask |= 1 << (base + JACK)
            continue
        low, high = row
        if low > 0:
            mask |= 1 << (base + low - 1)
        if high < 12:
            mask |= 1 << (base + high + 1)
    return mask


def extend_row(rows: list[list[int] | None], card: int) -> None:
    """Lay ``card`` on its suit's row (TX.9): start the row, or extend it down or up."""
    suit, rank = divmod(card, 13)
    row = rows[suit]
    if row is None:
        rows[suit] = [rank, rank]
    elif rank < row[0]:
        row[0] = rank
    else:
        row[1] = rank


def placing_points(finished: list[int]) -> list[int]:
    """TX.10: +200/150/100 in the order hands were emptied, +50 for the seat left over."""
    points = [PLACINGS[3]] * 4
    for place, seat in enumerate(finished):
        points[seat] = PLACINGS[place]
    return points


class TrixComplex(TrickPlayMatch):
    variant = "trix_complex"
    teams = True
    params: ClassVar[TrixParams] = PARAMS
    # TX.2: there is no dealer; first_dealer is accepted (every variant takes it) and ignored.
    option_defaults: ClassVar[dict[str, object]] = {"first_dealer": None}
    _state_fields = (
        *TrickPlayMatch._trick_fields,
        "_owner",
        "_kingdom",
        "_contract",
        "_first_contract",
        "_pending",
        "_answers",
        "_doubled",
        "_rows",
        "_finished",
        "_deal_points",
        "_passes",
    )

    _owner: int
    _kingdom: int  # 1..4
    _contract: str | None
    _first_contract: str | None  # the owner's choice for the current kingdom
    _pending: list[int]  # seats still to answer in the doubling window (secret, TX.7)
    _answers: list[list[int] | None]  # each seat's secret answer until the reveal
    _doubled: list[list[int]]  # [card, doubler], revealed
    _rows: list[list[int] | None]  # Trix: per suit [low rank, high rank] or None
    _finished: list[int]  # Trix: seats in the order they emptied their hands
    _deal_points: list[int]  # this deal's points so far (credited at its end)
    _passes: list[list[Any]]  # Trix: [seat, rows when it passed] — public (TX.9)

    @classmethod
    def _validate_options(cls, options: object) -> dict[str, Any]:
        validated = super()._validate_options(options)
        validated.pop("first_dealer", None)  # TX.2: accepted, and ignored
        return validated

    def __init__(
        self, seed: int = 0, options: dict[str, Any] | None = None, decks: object = None
    ) -> None:
        super().__init__(seed, options, decks)
        self._kingdom = 1
        self._owner = 0
        self._first_contract = None
        self._deal_next()
        # TX.3: the holder of 7♥ in the first deal owns the first kingdom.
        self._owner = next(s for s in range(4) if self._hands[s] >> SEVEN_OF_HEARTS & 1)
        self._turn = self._owner

    # ---------------------------------------------------------------- deals

    def _deal_next(self) -> list[Event]:
        """Deal from seat 0 (TX.2) and reset the per-deal state."""
        _, events = self._deal(first=0)
        self._reset_tricks(NO_TRUMP)  # TX.1: no trump in any contract
        self._contract = None
        self._pending = []
        self._answers = [None, None, None, None]
        self._doubled = []
        self._rows = [None, None, None, None]
        self._finished = []
        self._deal_points = [0, 0, 0, 0]
        self._passes = []
        self.phase = Phase.CONTRACT
        self._turn = self._owner
        events[0]["owner"] = self._owner
        events[0]["kingdom"] = self._kingdom
        return events

    def _begin(self, contract: str) -> list[Event]:
        self._contract = contract
        events: list[Event] = [
            {
                "type": "contract",
                "seat": self._owner,
                "contract": contract,
                "kingdom": self._kingdom,
            }
        ]
        if contract == TRIX:
            self.phase = Phase.PLAYING
            self._turn = self._owner  # TX.9: the owner plays first
            return events
        # TX.7: every holder of K♥ or a queen answers at once; the others are not asked.
        self._pending = [s for s in range(4) if self._hands[s] & DOUBLABLE_MASK]
        self.phase = Phase.DOUBLING
        self._turn = DOUBLING_TURN
        events.append({"type": "doubling_open"})
        return events

    def _next_deal(self) -> list[Event]:
        if self.deal_number == DEALS:
            # TX.11: the higher team total wins; an exact tie is a draw for all four.
            team_a, team_b = self.team_scores or [0, 0]
            winners = [] if team_a == team_b else ([0, 2] if team_a > team_b else [1, 3])
            return [self._finish(winners)]
        if self._first_contract is None:
            raise AssertionError("a kingdom's first contract is always chosen")
        if self.deal_number % len(PARAMS.contracts) == 0:
            # both contracts played: the kingdom passes right (TX.3)
            self._owner = (self._owner + 1) & 3
            self._kingdom += 1
            self._first_contract = None
            return self._deal_next()
        events = self._deal_next()
        other = TRIX if self._first_contract == COMPLEX else COMPLEX
        events.extend(self._begin(other))  # TX.4: the second contract follows by itself
        return events

    def _score_deal(self, extra: dict[str, Any], cards: dict[str, Any]) -> list[Event]:
        """Credit the deal's points and move on. ``extra`` goes into the history and the
        ``hand_scored`` event; ``cards`` (naming this deal's cards) only into the event,
        since views must never name a card that may now be in a new hand."""
        deltas = self._deal_points
        scores = self._scores
        for seat in range(4):
            scores[seat] += deltas[seat]
        entry = {
            "deal_number": self.deal_number,
            "kingdom": self._kingdom,
            "owner": self._owner,
            "contract": self._contract,
            "deltas": list(deltas),
            "scores": list(scores),
            **extra,
        }
        self._history.append(entry)
        scored: Event = {"type": "hand_scored", **entry, **cards, "team_scores": self.team_scores}
        return [scored, *self._next_deal()]

    # ---------------------------------------------------------------- contract choice

    def _choose(self, seat: int, contract: str) -> list[Event]:
        self._require(seat, Phase.CONTRACT, "choose the contract")
        self._first_contract = contract
        return self._begin(contract)

    # ---------------------------------------------------------------- doubling (TX.7)

    def _awaits(self, seat: int) -> bool:
        if self._turn == DOUBLING_TURN:
            return seat in self._pending
        return seat == self._turn

    @property
    def to_act(self) -> list[int]:
        if self._turn == DOUBLING_TURN:
            return list(self._pending)
        return super().to_act

    def _double(self, seat: int, cards: tuple[int, ...]) -> list[Event]:
        if self.phase is not Phase.DOUBLING:
            raise IllegalAction("wrong_phase", f"you cannot double now: the phase is {self.phase}")
        if self._answers[seat] is not None:
            raise IllegalAction("already_answered", "you have already answered")
        if seat not in self._pending:
            raise IllegalAction("not_your_turn", "you hold no card that may be doubled")
        for card in cards:
            if card not in DOUBLABLE or not self._hands[seat] >> card & 1:
                raise IllegalAction(
                    "not_doublable",
                    f"you may double only K♥ or a queen you hold, not {CARD_CODES[card]}",
                )
        self._answers[seat] = list(cards)
        self._pending.remove(seat)
        # The answer stays secret (TX.7): only its author hears of it.
        events: list[Event] = [
            {"type": "double_answered", "to": seat, "cards": [CARD_CODES[c] for c in cards]}
        ]
        if not self._pending:
            events.extend(self._reveal())
        return events

    def _reveal(self) -> list[Event]:
        """All answers in: reveal every double together and start play (TX.7)."""
        self._doubled = sorted(
            [card, seat] for seat, cards in enumerate(self._answers) for card in cards or []
        )
        self._answers = [None, None, None, None]
        self._start_play(self._owner)  # TX.5: the owner leads the first trick
        return [
            {
                "type": "doubles_revealed",
                "doubled": [
                    {"card": CARD_CODES[card], "seat": seat} for card, seat in self._doubled
                ],
            }
        ]

    def _double_options(self, seat: int) -> list[Action]:
        held = cards_of(self._hands[seat] & DOUBLABLE_MASK)
        return [
            {"type": "double", "cards": [CARD_CODES[c] for c in subset]}
            for size in range(len(held) + 1)
            for subset in combinations(held, size)
        ]

    # ---------------------------------------------------------------- Complex (TX.5–TX.8)

    def _after_trick(self, winner: int, trick: list[list[int]], event: Event) -> None:
        doubled = {card: seat for card, seat in self._doubled}
        points = trick_points([card for _, card in trick], trick[0][0], winner, doubled)
        event["points"] = points
        for seat in range(4):
            self._deal_points[seat] += points[seat]

    def _end_of_deal(self) -> list[Event]:
        doubled = [{"card": CARD_CODES[c], "seat": s} for c, s in self._doubled]
        doubles = [sum(1 for _, s in self._doubled if s == seat) for seat in range(4)]
        return self._score_deal(
            {"tricks": list(self._tricks_won), "doubles": doubles}, {"doubled": doubled}
        )

    # ---------------------------------------------------------------- Trix (TX.9–TX.10)

    def _layout_cards(self, seat: int) -> int:
        return self._hands[seat] & layout_mask(self._rows)

    def _next_with_cards(self, seat: int) -> int:
        following = (seat + 1) & 3
        while not self._hands[following]:  # TX.9: an empty hand is skipped
            following = (following + 1) & 3
        return following

    def _lay(self, seat: int, card: int) -> list[Event]:
        self._require(seat, Phase.PLAYING, "play a card")
        hand = self._hands[seat]
        if not hand >> card & 1:
            raise IllegalAction("card_not_held", f"you do not hold {CARD_CODES[card]}")
        if not layout_mask(self._rows) >> card & 1:
            raise IllegalAction(
                "not_playable",
                f"{CARD_CODES[card]} does not fit: lay a J of a new suit or a card next to an end"
                " of its suit's row",
            )
        self._hands[seat] = hand & ~(1 << card)
        extend_row(self._rows, card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": CARD_CODES[card]}]
        if not self._hands[seat]:
            events.append(self._place(seat, "hand_emptied"))
            if len(self._finished) == 3:
                # TX.10: the last seat takes fourth place at once and keeps its cards; it
                # did not empty its hand, so it is not in finished_order.
                last = next(s for s in range(4) if s not in self._finished)
                events.append(self._place(last, "placed_fourth"))
                rows = self._rows_view()
                order = {"finished_order": list(self._finished), "fourth": last}
                return events + self._score_deal(order, {"rows": rows})
        self._turn = self._next_with_cards(seat)
        return events

    def _place(self, seat: int, kind: str) -> Event:
        place = len(self._finished)
        if kind == "hand_emptied":
            self._finished.append(seat)
        self._deal_points[seat] += PLACINGS[place]
        return {
            "type": kind,
            "seat": seat,
            "place": place + 1,
            "points": PLACINGS[place],
        }

    def _pass(self, seat: int) -> list[Event]:
        if self._contract != TRIX:
            raise IllegalAction("wrong_action", "passing is only for Trix, with no card to lay")
        self._require(seat, Phase.PLAYING, "pass")
        if self._layout_cards(seat):
            raise IllegalAction(
                "pass_not_allowed", "you hold a card you can lay: you must play it"
            )
        # Everyone saw the pass, so everyone knows the seat held no layable card then.
        self._passes.append([seat, [None if row is None else list(row) for row in self._rows]])
        self._turn = self._next_with_cards(seat)
        return [{"type": "pass", "seat": seat}]

    def _rows_view(
        self, rows: list[list[int] | None] | None = None
    ) -> dict[str, dict[str, str] | None]:
        view: dict[str, dict[str, str] | None] = {}
        for suit, row in enumerate(self._rows if rows is None else rows):
            letter = "CDHS"[suit]
            view[letter] = None
            if row is not None:
                base = suit * 13
                view[letter] = {
                    "low": CARD_CODES[base + row[0]],
                    "high": CARD_CODES[base + row[1]],
                }
        return view

    # ---------------------------------------------------------------- hooks

    def _play(self, seat: int, card: int) -> list[Event]:
        if self._contract == TRIX:
            return self._lay(seat, card)
        return super()._play(seat, card)

    def _legal(self, seat: int) -> list[Action]:
        if self.phase is Phase.CONTRACT:
            return [
                {"type": "contract", "contract": COMPLEX},
                {"type": "contract", "contract": TRIX},
            ]
        if self.phase is Phase.DOUBLING:
            return self._double_options(seat)
        if self._contract == TRIX:
            cards = cards_of(self._layout_cards(seat))
            if not cards:
                return [{"type": "pass"}]
            return [{"type": "play", "card": CARD_CODES[c]} for c in cards]
        return self._legal_plays(seat)

    def _apply_parsed(self, seat: int, kind: str, payload: Any) -> list[Event]:
        if kind == PLAY:
            return self._play(seat, payload)
        if kind == CONTRACT:
            return self._choose(seat, payload)
        if kind == DOUBLE:
            return self._double(seat, payload)
        if kind == PASS:
            return self._pass(seat)
        raise IllegalAction("wrong_action", f"there is no {kind!r} in {self.variant}")

    def _auto(self, seat: int) -> Action:
        if self.phase is Phase.CONTRACT:
            return {"type": "contract", "contract": COMPLEX}  # TX.4, TX.13
        if self.phase is Phase.DOUBLING:
            return {"type": "double", "cards": []}  # TX.13: no double
        if self._contract == TRIX:
            # TX.13: the lowest-ranked legal card, rank ties by suit C < D < H < S; else pass.
            cards = self._layout_cards(seat)
            if not cards:
                return {"type": "pass"}
            return {"type": "play", "card": CARD_CODES[weakest_card(cards, NO_TRUMP)]}
        return self._auto_play(seat)  # TX.13: Complex, the weakest legal card

    def _view_extra(self, view: dict[str, Any], seat: int | None) -> None:
        self._trick_view(view)
        view["trump"] = None
        view["contract"] = self._contract
        view["owner"] = self._owner
        view["kingdom"] = self._kingdom
        view["first_contract"] = self._first_contract
        view["deal_points"] = list(self._deal_points)
        view["doubling"] = self.phase is Phase.DOUBLING
        view["doubled"] = [{"card": CARD_CODES[c], "seat": s} for c, s in self._doubled]
        if self.phase is Phase.DOUBLING:
            # TX.7: who is asked and who has answered stay secret; a seat sees only itself.
            view["turn"] = [seat] if seat is not None and seat in self._pending else []
            own = self._answers[seat] if seat is not None else None
            view["my_answer"] = None if own is None else [CARD_CODES[c] for c in own]
            view["doubled"] = (
                [] if own is None else [{"card": CARD_CODES[c], "seat": seat} for c in own]
            )
        view["rows"] = self._rows_view() if self._contract == TRIX else None
        view["passes"] = [
            {"seat": passer, "rows": self._rows_view(rows)} for passer, rows in self._passes
        ]
        view["finished_order"] = list(self._finished)
        view["deals_total"] = DEALS
