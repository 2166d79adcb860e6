"""Exact double-dummy play of a Tarneeb deal: Bo Haglund's DDS (the solver bridge programs
use), through the ``libdds`` that the ``endplay`` wheel ships.

Only the shared library is loaded (with ``ctypes``), never the ``endplay`` package: its
import pulls in numpy and matplotlib, and Sahra needs two functions: ``SolveBoard``, and
``AnalysePlayBin`` for the review after a deal (``engine.review``). DDS plays by bridge's
trick rules, which are Tarneeb's (T41.7, TS.7: follow suit, the highest trump wins, else
the highest card of the suit led), with all four hands known; it returns, for every card
the seat to move may play, the number of the remaining tricks its side (seats s and s+2)
then takes with best play by everyone.

DDS keeps search state per "thread slot": two calls must never share a slot at once (they
crash the process). ``SLOTS`` slots are made; a call borrows a free one (or runs on the
``Slot`` its caller holds), so any number of Python threads may solve at once, ``SLOTS``
of them in parallel. The results are exact,
so they do not depend on the slot, the order of calls, or DDS's cache.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import queue
from collections.abc import Sequence
from typing import Any

from engine.cards import rank_of, suit_of

SLOTS = max(1, min(4, os.cpu_count() or 1))


class _Deal(ctypes.Structure):
    # DDS's ``deal``: hands N, E, S, W; suits S, H, D, C; a rank r (2..14) is bit 1 << r.
    _fields_ = [
        ("trump", ctypes.c_int),
        ("first", ctypes.c_int),
        ("currentTrickSuit", ctypes.c_int * 3),
        ("currentTrickRank", ctypes.c_int * 3),
        ("remainCards", (ctypes.c_uint * 4) * 4),
    ]


class _FutureTricks(ctypes.Structure):
    _fields_ = [
        ("nodes", ctypes.c_int),
        ("cards", ctypes.c_int),
        ("suit", ctypes.c_int * 13),
        ("rank", ctypes.c_int * 13),
        ("equals", ctypes.c_int * 13),
        ("score", ctypes.c_int * 13),
    ]


class _PlayTrace(ctypes.Structure):
    # DDS's ``playTraceBin``: the cards played in order, suits and ranks as in ``_Deal``.
    _fields_ = [
        ("number", ctypes.c_int),
        ("suit", ctypes.c_int * 52),
        ("rank", ctypes.c_int * 52),
    ]


class _SolvedPlay(ctypes.Structure):
    # DDS's ``solvedPlay``: a count of tricks before the first card and after each one.
    _fields_ = [
        ("number", ctypes.c_int),
        ("tricks", ctypes.c_int * 53),
    ]


class DoubleDummyError(RuntimeError):
    """DDS refused a position (it cannot come from a real deal)."""


def _load() -> ctypes.CDLL | None:
    spec = importlib.util.find_spec("endplay")  # finds the package without running it
    if spec is None or spec.origin is None:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "_dds", "libdds.so")
    if not os.path.exists(path):
        return None
    library = ctypes.CDLL(path)
    library.SetMaxThreads(SLOTS)
    return library


_LIBRARY = _load()
_FREE: queue.SimpleQueue[int] = queue.SimpleQueue()
for _slot in range(SLOTS):
    _FREE.put(_slot)


class Slot:
    """One thread slot held for a run of calls (``with Slot() as slot:``). DDS keeps its
    transposition table per slot and reuses it for a position of the deal it last solved,
    so positions of one deal solved on the slot that analysed its play are found 2-3 times
    faster than on a slot that last saw another deal."""

    number = -1

    def __enter__(self) -> Slot:
        self.number = _FREE.get()
        return self

    def __exit__(self, *_: object) -> None:
        _FREE.put(self.number)
        self.number = -1


def _call(slot: Slot | None, function: Any, *arguments: Any) -> int:
    """``function(*arguments, slot)`` on the slot given, or on one borrowed for the call."""
    if slot is not None and slot.number >= 0:
        return int(function(*arguments, slot.number))
    with Slot() as borrowed:
        return int(function(*arguments, borrowed.number))


def available() -> bool:
    """Whether DDS could be loaded (the search player falls back to play-outs if not)."""
    return _LIBRARY is not None


def _dds_suit(card: int) -> int:
    return 3 - suit_of(card)  # ours C D H S = 0..3, DDS's S H D C = 0..3


def _deal(hands: Sequence[int], trump: int, leader: int, trick: Sequence[int]) -> _Deal:
    deal = _Deal()
    deal.trump = 4 if trump < 0 else 3 - trump
    deal.first = leader
    for index, card in enumerate(trick):
        deal.currentTrickSuit[index] = _dds_suit(card)
        deal.currentTrickRank[index] = rank_of(card) + 2
    for seat in range(4):
        hand = hands[seat]
        while hand:
            low = hand & -hand
            card = low.bit_length() - 1
            deal.remainCards[seat][_dds_suit(card)] |= 1 << (rank_of(card) + 2)
            hand ^= low
    return deal


def _library() -> ctypes.CDLL:
    library = _LIBRARY
    if library is None:
        raise DoubleDummyError("DDS is not installed (the endplay wheel)")
    return library


def _check(library: ctypes.CDLL, code: int) -> None:
    if code != 1:
        message = ctypes.create_string_buffer(80)
        library.ErrorMessage(code, message)
        raise DoubleDummyError(message.value.decode(errors="replace"))


def solve(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int] = (),
    slot: Slot | None = None,
) -> dict[int, int]:
    """For every card the seat to move may play: the tricks its side takes from here
    (the trick in progress included). ``hands``: each seat's cards still held (bit masks,
    the cards of ``trick`` already out); ``trump``: a suit, or -1 for none; ``leader``:
    who led ``trick``, the cards played to it so far in order; ``slot``: one held by the
    caller, else one is borrowed for the call."""
    library = _library()
    deal = _deal(hands, trump, leader, trick)
    future = _FutureTricks()
    _check(library, _call(slot, library.SolveBoard, deal, -1, 3, 1, ctypes.byref(future)))
    return _scores(future)


def _scores(future: _FutureTricks) -> dict[int, int]:
    tricks: dict[int, int] = {}
    for index in range(future.cards):
        suit = 3 - future.suit[index]
        ranks = 1 << future.rank[index] | future.equals[index]  # the card and its equals
        for rank in range(2, 15):
            if ranks >> rank & 1:
                tricks[suit * 13 + rank - 2] = future.score[index]
    return tricks


def best_cards(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    tricks: int,
    slot: Slot | None = None,
) -> list[int]:
    """Every card with which the side to move takes ``tricks`` from here, its best (the
    arguments as ``solve``'s). Cheaper than ``solve``: DDS proves the target for each card
    instead of valuing every card. ``DoubleDummyError`` if no card takes that many."""
    library = _library()
    deal = _deal(hands, trump, leader, trick)
    future = _FutureTricks()
    _check(library, _call(slot, library.SolveBoard, deal, tricks, 2, 1, ctypes.byref(future)))
    scores = _scores(future)
    if not scores or min(scores.values()) != tricks:
        raise DoubleDummyError(f"no card takes {tricks} tricks here")
    return sorted(scores)


def analyse_play(
    hands: Sequence[int],
    trump: int,
    leader: int,
    plays: Sequence[int],
    slot: Slot | None = None,
) -> list[int]:
    """The tricks the leader's side (seats ``leader`` and ``leader + 2``) takes with best
    play by everyone: before the first card of ``plays``, then after each card, the tricks
    it took within ``plays`` counted in (so every figure is a total from the start and they
    compare). ``hands``: each seat's cards as ``leader`` is about to lead a fresh trick;
    ``plays``: legal cards in play order from there. One DDS call (``AnalysePlayBin``),
    which solves the start and then each position from the last one's bounds.

    DDS counts the tricks of the side NOT on lead at the start (bridge's declarer, whose
    left-hand opponent leads): its ``tricks[0]`` is the cards in hand minus the leader's
    solved score, and a trick taken by the leader's side adds nothing to it (PlayAnalyser.cpp,
    ``running_declarer``). This turns it round. DDS stops after the second last trick (the
    last one is forced): the figure after its 48th card stands for the rest."""
    library = _library()
    deal = _deal(hands, trump, leader, ())
    trace = _PlayTrace()
    trace.number = len(plays)
    for index, card in enumerate(plays):
        trace.suit[index] = _dds_suit(card)
        trace.rank[index] = rank_of(card) + 2
    solved = _SolvedPlay()
    _check(library, _call(slot, library.AnalysePlayBin, deal, trace, ctypes.byref(solved)))
    total = hands[leader].bit_count()
    theirs = list(solved.tricks[: solved.number])
    theirs += theirs[-1:] * (len(plays) + 1 - len(theirs))
    return [total - count for count in theirs]


__all__ = ["DoubleDummyError", "Slot", "analyse_play", "available", "best_cards", "solve"]
