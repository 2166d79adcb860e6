"""The heuristic computer player ("easy"): rules of thumb, instant decisions.

It reads only its own view (``knowledge.read_view``) and picks among the view's legal
actions with the policies of ``bidding``, ``cardplay``, ``complex`` and ``layout``.
"""

from __future__ import annotations

from typing import Any

from engine.cards import CARD_CODES, SUIT_MASKS
from engine.match import Action
from engine.params import PARTNERSHIP_PARAMS, TARNEEB_SOLO
from engine.players.bidding import estimate_tricks, solo_call, spread, tarneeb_bid
from engine.players.cardplay import choose_play
from engine.players.complex import choose_doubles, complex_play, prefers_trix
from engine.players.knowledge import Knowledge, legal_of, read_view
from engine.players.layout import layout_play


def allies_of(know: Knowledge) -> int:
    """The seats on this seat's side, as a 4-bit set: the partner opposite (T41.1, TX.1);
    in solo the declarer is alone against the other three until the contract is beaten,
    and then every defender plays for its own tricks (TS.8 pays each its own)."""
    seat = know.seat
    if know.variant == "tarneeb_solo":
        declarer = know.declarer
        if declarer is None or declarer == seat:
            return 1 << seat
        left = 13 - sum(know.tricks_won)
        if know.tricks_won[declarer] + left < (know.contract_bid or TARNEEB_SOLO.min_bid):
            return 1 << seat  # the contract is beaten: now each defender scores its own tricks
        return 0b1111 & ~(1 << declarer)
    return 1 << seat | 1 << (seat ^ 2)


def danger_suits(know: Knowledge, allies: int) -> int:
    """Suits an opponent has shown it lacks while trumps are still out: leading them hands
    the opponents a ruff."""
    if know.trump < 0 or not know.out & SUIT_MASKS[know.trump]:
        return 0
    danger = 0
    for other in range(4):
        if not allies >> other & 1 and not know.voids[other] >> know.trump & 1:
            danger |= know.voids[other]
    return danger & ~(1 << know.trump)


def play_action(card: int) -> Action:
    return {"type": "play", "card": CARD_CODES[card]}


class HeuristicPlayer:
    """Decides at once from the view; deterministic, no random choices."""

    name = "heuristic"

    def decide(self, view: dict[str, Any]) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        know = read_view(view)
        if know.variant == "trix_complex":
            return self._trix(know, legal)
        if know.variant == "tarneeb_solo":
            return self._solo(know, legal)
        return self._tarneeb(know, legal)

    # ---------------------------------------------------------------- variants

    def _tarneeb(self, know: Knowledge, legal: list[Action]) -> Action:
        if know.phase == "bidding":
            bids = [action["value"] for action in legal]
            odds = spread(estimate_tricks(know.hand, know.trump))
            return {"type": "bid", "value": tarneeb_bid(bids, odds, **bid_context(know))}
        return self._trick_play(know)

    def _solo(self, know: Knowledge, legal: list[Action]) -> Action:
        if know.phase == "bidding":
            bids = [action["value"] for action in legal if action["type"] == "bid"]
            forced = all(action["type"] == "bid" for action in legal)
            best = max(estimate_tricks(know.hand, suit) for suit in range(4))
            call = solo_call(bids, spread(best + 0.5), forced)  # + the declarer's lead
            return {"type": "pass"} if call is None else {"type": "bid", "value": call}
        if know.phase == "trump":
            suit = max(range(4), key=lambda s: (estimate_tricks(know.hand, s), s))
            return {"type": "trump", "suit": "CDHS"[suit]}
        return self._trick_play(know)

    def _trick_play(self, know: Knowledge) -> Action:
        allies = allies_of(know)
        card = choose_play(
            know.hand,
            [card for _, card in know.trick],
            [seat for seat, _ in know.trick],
            know.trump,
            know.out,
            allies,
            danger_suits(know, allies),
        )
        return play_action(card)

    def _trix(self, know: Knowledge, legal: list[Action]) -> Action:
        if know.phase == "contract":
            return {
                "type": "contract",
                "contract": "trix" if prefers_trix(know.hand) else "complex",
            }
        if know.phase == "doubling":
            return {"type": "double", "cards": [CARD_CODES[c] for c in choose_doubles(know.hand)]}
        if know.contract == "trix":
            seat = know.seat
            opponents = [other for other in range(4) if other not in (seat, seat ^ 2)]
            friendly = know.lacks[opponents[0]] & know.lacks[opponents[1]]
            card = layout_play(know.hand, know.rows, friendly)
            return {"type": "pass"} if card < 0 else play_action(card)
        card = complex_play(
            know.hand,
            [card for _, card in know.trick],
            [seat for seat, _ in know.trick],
            know.out,
            allies_of(know),
            know.seat,
            know.doubled,
        )
        return play_action(card)


def bid_context(know: Knowledge) -> dict[str, Any]:
    """The T41/T41D facts a bid depends on, for ``bidding.tarneeb_bid``: the variant's
    rule parameters (``engine.params``) and this seat's position in the bidding."""
    return {
        "params": PARTNERSHIP_PARAMS[know.variant],
        "others": sum(bid for bid in know.bids if bid is not None),
        "last": know.seat == know.dealer,
        "score": know.scores[know.seat],
        "partner_score": know.scores[know.seat ^ 2],
    }


__all__ = ["HeuristicPlayer", "allies_of", "bid_context", "danger_suits"]
