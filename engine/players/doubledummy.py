"""Exact double-dummy play of a Tarneeb deal: Bo Haglund's DDS (the solver bridge programs
use), through the ``libdds`` that the ``endplay`` wheel ships.

Only the shared library is loaded (with ``ctypes``), never the ``endplay`` package: its
import pulls in numpy and matplotlib, and Sahra needs one function, ``SolveBoard``. DDS
plays by bridge's trick rules, which are Tarneeb's (T41.7, TS.7: follow suit, the highest
trump wins, else the highest card of the suit led), with all four hands known; it returns,
for every card the seat to move may play, the number of the remaining tricks its side
(seats s and s+2) then takes with best play by everyone.

DDS keeps search state per "thread slot": two calls must never share a slot at once (they
crash the process). ``SLOTS`` slots are made; a call borrows a free one, so any number of
Python threads may solve at once, ``SLOTS`` of them in parallel. The results are exact,
so they do not depend on the slot, the order of calls, or DDS's cache.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import queue
from collections.abc import Sequence

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


def available() -> bool:
    """Whether DDS could be loaded (the search player falls back to play-outs if not)."""
    return _LIBRARY is not None


def _dds_suit(card: int) -> int:
    return 3 - suit_of(card)  # ours C D H S = 0..3, DDS's S H D C = 0..3


def solve(
    hands: Sequence[int], trump: int, leader: int, trick: Sequence[int] = ()
) -> dict[int, int]:
    """For every card the seat to move may play: the tricks its side takes from here
    (the trick in progress included). ``hands``: each seat's cards still held (bit masks,
    the cards of ``trick`` already out); ``trump``: a suit, or -1 for none; ``leader``:
    who led ``trick``, the cards played to it so far in order."""
    library = _LIBRARY
    if library is None:
        raise DoubleDummyError("DDS is not installed (the endplay wheel)")
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
    future = _FutureTricks()
    slot = _FREE.get()
    try:
        code = library.SolveBoard(deal, -1, 3, 1, ctypes.byref(future), slot)
    finally:
        _FREE.put(slot)
    if code != 1:
        message = ctypes.create_string_buffer(80)
        library.ErrorMessage(code, message)
        raise DoubleDummyError(message.value.decode(errors="replace"))
    tricks: dict[int, int] = {}
    for index in range(future.cards):
        suit = 3 - future.suit[index]
        ranks = 1 << future.rank[index] | future.equals[index]  # the card and its equals
        for rank in range(2, 15):
            if ranks >> rank & 1:
                tricks[suit * 13 + rank - 2] = future.score[index]
    return tricks


__all__ = ["DoubleDummyError", "available", "solve"]
