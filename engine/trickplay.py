"""Trick play as a phase: the part of a match that Tarneeb and Trix Complex share.

Holds the current trick, the last trick, the tricks of the deal and each seat's count;
validates and applies ``play`` actions with the rules of ``engine.tricks``. A subclass
decides what a finished trick is worth (``_after_trick``) and what happens when the
13th trick is over (``_end_of_deal``).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

from engine.cards import CARD_CODES, SUIT_MASKS, codes_of, suit_codes
from engine.errors import IllegalAction
from engine.match import Action, Event, Match, Phase
from engine.tricks import NO_TRUMP, legal_mask, trick_winner, weakest_card

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
PLAYING = Phase.PLAYING


class TrickPlayMatch(Match):
    """A match whose deals are played out in tricks."""

    _trick_fields: ClassVar[tuple[str, ...]] = (
        "_trump",
        "_leader",
        "_trick",
        "_last_trick",
        "_deal_tricks",
        "_tricks_won",
    )

    _trump: int
    _leader: int
    _trick: list[list[int]]  # [seat, card] in play order
    _last_trick: list[list[int]] | None
    _deal_tricks: list[list[Any]]  # [leader, winner, [cards in play order]]
    _tricks_won: list[int]

    def _reset_tricks(self, trump: int = NO_TRUMP) -> None:
        self._trump = trump
        self._leader = -1
        self._trick = []
        # A new deal starts with no last trick: the previous deal's cards are in the new
        # hands now, and a view must not name a card that is in a hand. The deal's final
        # trick reaches every audience in its ``trick_won`` event.
        self._last_trick = None
        self._deal_tricks = []
        self._tricks_won = [0, 0, 0, 0]

    def _start_play(self, leader: int) -> None:
        self.phase = Phase.PLAYING
        self._leader = leader
        self._turn = leader

    # ---------------------------------------------------------------- play

    def _legal_cards(self, seat: int) -> int:
        trick = self._trick
        return legal_mask(self._hands[seat], trick[0][1] // 13 if trick else -1)

    def _legal_plays(self, seat: int) -> list[Action]:
        trick = self._trick
        hand = self._hands[seat]
        if trick:
            led = trick[0][1] // 13
            following = hand >> (13 * led) & 0x1FFF
            if following:  # the usual case: one suit's codes from the table
                codes = suit_codes(led, following)
                return [{"type": "play", "card": code} for code in codes]
        return [{"type": "play", "card": code} for code in codes_of(hand)]

    def _auto_play(self, seat: int) -> Action:
        """Timeout in play: the weakest legal card (T41.11, T41D.7, TS.10, TX.13 Complex)."""
        return {
            "type": "play",
            "card": CARD_CODES[weakest_card(self._legal_cards(seat), self._trump)],
        }

    def _play(self, seat: int, card: int) -> list[Event]:
        """Validate and apply one card (T41.7, TS.7, TX.5)."""
        if self.phase is not PLAYING or seat != self._turn:
            self._require(seat, Phase.PLAYING, "play a card")
        hand = self._hands[seat]
        if not hand >> card & 1:
            raise IllegalAction("card_not_held", f"you do not hold {CARD_CODES[card]}")
        trick = self._trick
        if trick:
            led = trick[0][1] // 13
            if card // 13 != led and hand & SUIT_MASKS[led]:
                raise IllegalAction(
                    "must_follow_suit",
                    f"you must follow suit: {SUIT_NAMES[led]} were led and you hold some",
                )
        self._hands[seat] = hand & ~(1 << card)
        trick.append([seat, card])
        events: list[Event] = [{"type": "play", "seat": seat, "card": CARD_CODES[card]}]
        if len(trick) < 4:
            self._turn = (seat + 1) & 3
            return events
        (leader, c0), (_, c1), (_, c2), (_, c3) = trick
        cards = [c0, c1, c2, c3]
        winner = trick[trick_winner(cards, self._trump)][0]
        self._tricks_won[winner] += 1
        self._last_trick = trick
        self._trick = []
        self._deal_tricks.append([leader, winner, cards])
        won: Event = {
            "type": "trick_won",
            "seat": winner,
            "leader": leader,
            "cards": [CARD_CODES[c0], CARD_CODES[c1], CARD_CODES[c2], CARD_CODES[c3]],
        }
        events.append(won)
        self._after_trick(winner, trick, won)
        if self._hands[winner]:  # hands shrink together: one empty hand ends the deal
            self._leader = self._turn = winner
        else:
            events.extend(self._end_of_deal())
        return events

    def _after_trick(self, winner: int, trick: list[list[int]], event: Event) -> None:
        """Score a finished trick (Trix Complex penalties); Tarneeb only counts it."""

    @abstractmethod
    def _end_of_deal(self) -> list[Event]:
        """Score the deal just played and deal the next one, or finish the match."""

    # ---------------------------------------------------------------- view

    def _trick_view(self, view: dict[str, Any]) -> None:
        def entries(trick: list[list[int]]) -> list[dict[str, Any]]:
            return [{"seat": seat, "card": CARD_CODES[card]} for seat, card in trick]

        view["trump"] = "CDHS"[self._trump] if self._trump >= 0 else None
        view["leader"] = self._leader if self._leader >= 0 else None
        view["trick"] = entries(self._trick)
        view["last_trick"] = None if self._last_trick is None else entries(self._last_trick)
        view["tricks_won"] = list(self._tricks_won)
        # Every card played this deal is public; computer players count cards from here.
        view["deal_tricks"] = [
            {"leader": leader, "winner": winner, "cards": [CARD_CODES[c] for c in cards]}
            for leader, winner, cards in self._deal_tricks
        ]
