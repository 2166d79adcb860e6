"""Rules summaries per variant, in Arabic and English (from shared/spec/rules.md): the
texts are the catalog's ``rules_<variant>`` entries; this fills in their numbers.

Shown by ``/rules`` and when a table starts. Plain text (no Markdown or HTML), one title
line and short "• " lines, each text under 1,400 characters. The Arabic wording follows
the user's rule documents for each variant (seeds 000, 001, 002 and 004): تعهد/لمة in
Syrian Tarneeb 41, طلب/لطشة in Tarneeb 41 doubled, طلب/أكلة/فتّة in Solo Tarneeb, and
مملكة/صفقة/لمّة/دبل in Trix Complex.

In the Arabic texts, signed numbers ("−15", "+200") and card labels ("K♥", "7♥") are
wrapped in LRM marks, as ``bot.render.i18n.ltr`` does, so the bidi algorithm does not
show them as "15−" or "♥K" inside right-to-left lines.

The numbers the rules quote (bid ranges, forbidden bids, totals, targets, doubling,
penalties, placings, the number of deals) are read from ``engine.params``, never restated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.render.i18n import CATALOG, t
from engine import VARIANTS
from engine.params import TARNEEB41_DOUBLE as T41D
from engine.params import TRIX_COMPLEX as TX
from engine.params import PartnershipParams, SoloParams

LRM = "\u200e"
_LTR_RUN = re.compile(r"[+−]\d+|(?:10|[2-9JQKA])[♠♥♦♣]|×2")


def _ar(text: str) -> str:
    """An Arabic text with its signed numbers and card labels kept LTR."""
    return _LTR_RUN.sub(lambda m: f"{LRM}{m.group()}{LRM}", text)


# The rule parameters the texts quote are read from the engine (``engine.params``), never
# restated here.
def _given(value: int | None) -> int:
    if value is None:
        raise ValueError("a rules text quotes a parameter its variant does not have")
    return value


def _single(values: Iterable[int]) -> int:
    (value,) = values  # the texts say "the bid of 6 does not exist": exactly one
    return value


def _choices(values: Iterable[int], default: int, mark: str, sep: str, last: str) -> str:
    """``31 (default), 51 or 61``: the choices in order, the default marked."""
    items = [f"{value} ({mark})" if value == default else str(value) for value in values]
    return sep.join(items[:-1]) + last + items[-1]


_NO_BID = _single(T41D.forbidden_bids)  # T41D.1
_NO_TWO_FROM = _given(T41D.no_two_from)  # T41D.2
_DOUBLE_FROM = _given(T41D.double_from)  # T41D.4
_DOUBLE_MADE = T41D.bid_value(_DOUBLE_FROM)  # T41D.4 example: bid 7 made
_DOUBLE_FAILED = T41D.bid_value(_DOUBLE_FROM + 1)  # T41D.4 example: bid 8 failed
_PLACINGS = TX.placings  # TX.10


def _values(variant: str, language: str) -> dict[str, int | str]:
    """The numbers ``variant``'s rules text quotes, from ``engine.params``."""
    params = VARIANTS[variant].params
    if isinstance(params, PartnershipParams):  # T41, T41D
        values: dict[str, int | str] = {
            "min_bid": params.min_bid,
            "max_bid": params.max_bid,
            "min_total": params.min_total,
            "below_total": params.min_total - 1,
            "target": params.target,
        }
        if params.double_from is not None:  # T41D.1-T41D.4
            values.update(
                no_bid=_NO_BID,
                no_two_from=_NO_TWO_FROM,
                double_from=_DOUBLE_FROM,
                double_next=_DOUBLE_FROM + 1,
                double_made=_DOUBLE_MADE,
                double_failed=_DOUBLE_FAILED,
            )
        return values
    if isinstance(params, SoloParams):  # TS
        mark, sep, last = (
            ("الافتراضي", " أو ", " أو ") if language == "ar" else ("default", ", ", " or ")
        )
        return {
            "targets": _choices(params.targets, params.default_target, mark, sep, last),
            "min_bid": params.min_bid,
            "max_bid": params.max_bid,
            "kaboot": params.kaboot,
            "grand_slam": params.grand_slam,
            "grand_slam_failed": params.grand_slam_failed,
        }
    first, second, third, fourth = _PLACINGS
    return {
        "deals": TX.deals,
        "trick_cost": TX.trick_cost,
        "diamond_cost": TX.diamond_cost,
        "queen_cost": TX.queen_cost,
        "king_cost": TX.king_of_hearts_cost,
        "complex_total": -TX.complex_total,
        "queen_double": 2 * TX.queen_cost,
        "king_double": 2 * TX.king_of_hearts_cost,
        "first": first,
        "second": second,
        "third": third,
        "fourth": fourth,
    }


def rules_text(variant: str, language: str) -> str:
    """The rules summary of ``variant`` in ``language`` (Arabic when the language is unknown;
    "en-US" counts as "en").

    >>> rules_text("syrian41", "en").splitlines()[0]
    'Syrian Tarneeb 41'
    >>> rules_text("tarneeb_solo", "fr").splitlines()[0]
    'طرنيب فردي'
    """
    code = language.replace("_", "-").split("-")[0].lower() if isinstance(language, str) else ""
    code = code if code in CATALOG else "ar"
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ValueError(f"unknown variant: {variant!r}")
    text = t(code, f"rules_{variant}", **_values(variant, code))
    return _ar(text) if code == "ar" else text
