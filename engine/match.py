"""The public ``Match`` surface every variant shares (the engine contract).

A variant subclass holds its rules in a handful of hooks (``_legal``, ``_apply_parsed``,
``_auto``, ``_view_extra``); this class does what must be identical everywhere: seat and
action validation, dealing from stacked or seeded decks, views, and the JSON round trip.

Every hook validates before it mutates, so a refused action (``IllegalAction``) leaves the
match exactly as it was.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from enum import StrEnum
from typing import Any, ClassVar

from engine.actions import PLAY, parse_action
from engine.cards import CARD_BY_CODE, codes_of
from engine.dealing import deal_hands, seeded_deck, validate_decks
from engine.errors import IllegalAction

Event = dict[str, Any]
Action = dict[str, Any]

JSON_FORMAT = 1


class Phase(StrEnum):
    BIDDING = "bidding"
    TRUMP = "trump"
    CONTRACT = "contract"
    DOUBLING = "doubling"
    PLAYING = "playing"
    FINISHED = "finished"


FINISHED = Phase.FINISHED  # module constants: cheaper to look up than Enum members


def check_seat(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise IllegalAction("bad_seat", f"there is no seat {seat!r}; seats are 0 to 3")
    return seat


class Match(ABC):
    """One match of one variant: deals, bids, tricks, scores, until a result."""

    variant: ClassVar[str] = ""
    teams: ClassVar[bool] = True
    option_defaults: ClassVar[dict[str, object]] = {}
    _registry: ClassVar[dict[str, type[Match]]] = {}

    # Attributes written to JSON, beyond the common ones below. Values must be plain
    # JSON types (ints, strings, None, lists, dicts) so the round trip is exact.
    _state_fields: ClassVar[tuple[str, ...]] = ()
    _common_fields: ClassVar[tuple[str, ...]] = (
        "phase",
        "deal_number",
        "_seed",
        "_options",
        "_decks",
        "_dealer",
        "_scores",
        "_hands",
        "_dealt",
        "_turn",
        "_result",
        "_history",
    )

    phase: Phase
    deal_number: int
    _seed: int
    _options: dict[str, Any]
    _decks: list[list[int]]
    _dealer: int | None
    _scores: list[int]
    _hands: list[int]
    _dealt: list[int]
    _turn: int
    _result: dict[str, Any] | None
    _history: list[dict[str, Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.variant:
            Match._registry[cls.variant] = cls

    def __init__(
        self,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        decks: object = None,
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an int, not {seed!r}")
        self._seed = seed
        self._options = self._validate_options(options or {})
        self._decks = validate_decks(decks)
        self.phase = Phase.BIDDING
        self.deal_number = 0
        self._dealer = None
        self._scores = [0, 0, 0, 0]
        self._hands = [0, 0, 0, 0]
        self._dealt = [0, 0, 0, 0]
        self._turn = -1
        self._result = None
        self._history = []

    # ---------------------------------------------------------------- options

    @classmethod
    def _validate_options(cls, options: object) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise ValueError("options must be a dict")
        unknown = set(options) - set(cls.option_defaults)
        if unknown:
            raise ValueError(f"{cls.variant} does not take option(s) {sorted(unknown)}")
        merged = {**cls.option_defaults, **options}
        for key, value in merged.items():
            cls._check_option(key, value)
        return merged

    @classmethod
    def _check_option(cls, key: str, value: object) -> None:
        if (
            key == "first_dealer"
            and value is not None
            and (type(value) is not int or value not in (0, 1, 2, 3))
        ):
            raise ValueError(f"first_dealer must be a seat 0..3, not {value!r}")

    # ---------------------------------------------------------------- dealing

    def _deal(self, first: int) -> tuple[list[int], list[Event]]:
        """Deal the next deck (stacked, else seeded) starting with seat ``first``; returns the
        deck and the deal's events (one public, four private)."""
        index = self.deal_number
        deck = self._decks[index] if index < len(self._decks) else seeded_deck(self._seed, index)
        self.deal_number += 1
        self._hands = deal_hands(deck, first)
        self._dealt = list(self._hands)
        events: list[Event] = [
            {
                "type": "deal",
                "deal_number": self.deal_number,
                "dealer": self._dealer,
                "first": first,
            }
        ]
        events.extend(
            {"type": "hand", "to": seat, "cards": codes_of(self._hands[seat])} for seat in range(4)
        )
        return deck, events

    # ---------------------------------------------------------------- public API

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    @property
    def dealer(self) -> int | None:
        return self._dealer

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def team_scores(self) -> list[int] | None:
        if not self.teams:
            return None
        scores = self._scores
        return [scores[0] + scores[2], scores[1] + scores[3]]

    @property
    def result(self) -> dict[str, Any] | None:
        if self._result is None:
            return None
        return {"winners": list(self._result["winners"]), "draw": self._result["draw"]}

    @property
    def to_act(self) -> list[int]:
        """Seats whose input is awaited (several only in Trix's doubling window)."""
        return [] if self._turn < 0 else [self._turn]

    def _awaits(self, seat: int) -> bool:
        """``seat in self.to_act``, without building the list (hot path)."""
        return seat == self._turn

    def hand(self, seat: int) -> list[str]:
        """That seat's current cards as canonical codes, by suit then rank."""
        return codes_of(self._hands[check_seat(seat)])

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action that seat may take now; empty when it is not theirs to act."""
        if type(seat) is not int or not 0 <= seat <= 3:
            return []  # negative "seats" must never index a hand (turn is -1 or -2 at times)
        if seat == self._turn or self._awaits(seat):
            return self._legal(seat)
        return []

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply one action; returns its events. Refusal raises ``IllegalAction`` and
        changes nothing."""
        if type(seat) is not int or not 0 <= seat <= 3:
            seat = check_seat(seat)
        if self.phase is FINISHED:
            raise IllegalAction("match_over", "the match is over")
        # Card plays are nearly every action; spare them the general parser.
        if type(action) is dict and action.get("type") == "play":
            code = action.get("card")
            card = CARD_BY_CODE.get(code) if type(code) is str else None
            if card is not None:
                return self._play(seat, card)
        kind, payload = parse_action(action)
        return self._apply_parsed(seat, kind, payload)

    def auto_action(self, seat: int) -> Action | None:
        """The action the timeout rules prescribe for that seat, or ``None`` if it is not
        that seat's turn."""
        if not self._awaits(check_seat(seat)):
            return None
        return self._auto(seat)

    def forced_action(self, seat: int) -> Action | None:
        """The single legal action when the seat has exactly one, else ``None`` (TX.12)."""
        legal = self.legal_actions(seat)
        return legal[0] if len(legal) == 1 else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, JSON-ready; ``view(None)`` is the spectator's and
        holds no hidden card."""
        if seat is not None:
            seat = check_seat(seat)
        view: dict[str, Any] = {
            "variant": self.variant,
            "phase": str(self.phase),
            "deal_number": self.deal_number,
            "dealer": self._dealer,
            "seat": seat,
            "turn": self.to_act,
            "hand": None if seat is None else codes_of(self._hands[seat]),
            "hand_sizes": [hand.bit_count() for hand in self._hands],
            "scores": list(self._scores),
            "team_scores": self.team_scores,
            "trump": None,
            "shown_card": None,
            "bids": [None, None, None, None],
            "trick": [],
            "last_trick": None,
            "tricks_won": [0, 0, 0, 0],
            "contract": None,
            "owner": None,
            "doubled": [],
            "rows": None,
            "finished_order": [],
            "history": [dict(entry) for entry in self._history],
            "options": dict(self._options),
            "result": self.result,
        }
        if seat is not None:
            view["legal_actions"] = self.legal_actions(seat)
        self._view_extra(view, seat)
        return view

    def to_json(self) -> str:
        """The whole match as JSON text; ``Match.from_json`` restores it exactly."""
        state: dict[str, Any] = {"format": JSON_FORMAT, "variant": self.variant}
        for name in self._common_fields + self._state_fields:
            state[name] = getattr(self, name)
        return json.dumps(state, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """Restore a match saved by ``to_json``; ``ValueError`` if the text is not one."""
        state = json.loads(text)
        if not isinstance(state, dict) or state.get("format") != JSON_FORMAT:
            raise ValueError("not a Sahra match snapshot")
        variant_cls = Match._registry.get(state.get("variant", ""))
        if variant_cls is None:
            raise ValueError(f"unknown variant {state.get('variant')!r}")
        match = variant_cls.__new__(variant_cls)
        try:
            for name in match._common_fields + match._state_fields:
                setattr(match, name, state[name])
            match.phase = Phase(state["phase"])
        except (KeyError, ValueError) as error:
            raise ValueError(f"incomplete match snapshot: {error}") from None
        return match

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.variant} deal {self.deal_number} {self.phase}"
            f" scores {self._scores}>"
        )

    # ---------------------------------------------------------------- hooks

    @abstractmethod
    def _legal(self, seat: int) -> list[Action]:
        """Legal actions of a seat that is to act (phase and turn already checked)."""

    @abstractmethod
    def _apply_parsed(self, seat: int, kind: str, payload: Any) -> list[Event]:
        """Check every rule for the parsed action, then (only then) mutate."""

    def _play(self, seat: int, card: int) -> list[Event]:
        """A ``play`` action (the most frequent one, so ``apply`` calls it directly)."""
        return self._apply_parsed(seat, PLAY, card)

    @abstractmethod
    def _auto(self, seat: int) -> Action:
        """The timeout move of a seat that is to act."""

    @abstractmethod
    def _view_extra(self, view: dict[str, Any], seat: int | None) -> None:
        """Add the variant's own keys to a view; must not reveal another seat's cards."""

    # ---------------------------------------------------------------- helpers

    def _require(self, seat: int, phase: Phase, what: str) -> None:
        """Refuse an action outside its phase or out of turn."""
        if self.phase is not phase:
            raise IllegalAction(
                "wrong_phase", f"you cannot {what} now: the match is in the {self.phase} phase"
            )
        if not self._awaits(seat):
            raise IllegalAction("not_your_turn", f"it is not seat {seat}'s turn")

    def _finish(self, winners: list[int]) -> Event:
        self.phase = Phase.FINISHED
        self._turn = -1
        self._result = {"winners": sorted(winners), "draw": not winners}
        return {"type": "match_over", "result": self.result}


__all__ = ["Action", "Event", "Match", "Phase", "check_seat"]
