"""The readable record of a finished match, sent to its players afterwards: deal by deal,
all four hands as dealt, the bids or auction or contract and doubles, every trick (or
every Trix turn) in order, and each seat's result — split into message-sized pages.

It names every card of every hand, so it is for after the match only: while a match
runs, no screen may show a hand but its owner's (``bot.render.table``, ``hand``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.fitting import split_lines, text_length
from bot.render.i18n import card, isolate, joined, ltr, number, signed, suit, t, variant_name
from engine import VARIANTS
from engine.params import PARTNERSHIP_PARAMS, TRIX_COMPLEX
from engine.records import DealRecord, MatchRecord, TrickRecord, Turn

LAYOUT_TURNS = 4  # Trix turns per line: about one time round the table


def record_pages(
    record: MatchRecord, names: Sequence[str], language: str, limit: int
) -> list[str]:
    """The match as pages of at most ``limit`` characters (counted as UTF-16 code units,
    as Telegram counts them; never fewer than Python's count). A deal is never split
    across pages unless it alone is longer than ``limit``; then it is split at line
    boundaries (and a single over-long line, at ``limit``)."""
    if limit < 1:
        raise ValueError("a page holds at least one character")
    writer = _Writer(record, names, language)
    blocks = [writer.header(), *(writer.deal(deal) for deal in record.deals)]
    return _pages(blocks, limit)


# ---------------------------------------------------------------- pages


def _pages(blocks: Sequence[str], limit: int) -> list[str]:
    pages: list[str] = []
    current = ""
    for block in blocks:
        candidate = f"{current}\n\n{block}" if current else block
        if text_length(candidate) <= limit:
            current = candidate
            continue
        if current:
            pages.append(current)
        if text_length(block) <= limit:
            current = block
            continue
        *full, current = split_lines(block, limit)  # a deal too long for one page
        pages += full
    if current:
        pages.append(current)
    return pages


# ---------------------------------------------------------------- text


class _Writer:
    def __init__(self, record: MatchRecord, names: Sequence[str], language: str) -> None:
        self.record = record
        self.names = names
        self.language = language

    def name(self, seat: int) -> str:
        """A seat's name kept in its own direction (FSI…PDI)."""
        return isolate(self.names[seat] if seat < len(self.names) else f"#{seat + 1}")

    def totals(self, team_scores: tuple[int, int]) -> str:
        language = self.language
        a, b = team_scores
        return (
            f"{t(language, 'team_a')}: {number(language, a)} · {t(language, 'team_b')}:"
            f" {number(language, b)}"
        )

    # ------------------------------------------------------------ the match

    def header(self) -> str:
        """The game, its result (winners, a draw, or none) and the final scores."""
        language, record = self.language, self.record
        lines = [t(language, "record_title", variant=variant_name(language, record.variant))]
        result = record.result
        if result is None:
            lines.append(t(language, "record_unfinished"))
        elif result["draw"]:
            lines.append(t(language, "result_draw"))  # TX.11
        else:
            winners = joined(language, [self.name(seat) for seat in result["winners"]])
            lines.append(t(language, "result_winners", names=winners))
        lines.append(t(language, "final_scores"))
        for seat in range(4):
            team = ""
            if record.team_scores is not None:  # T41.1 / TX.1: seats 0 and 2 are team A
                team = f" ({t(language, 'team_a' if seat % 2 == 0 else 'team_b')})"
            lines.append(f"• {self.name(seat)}{team}: {number(language, record.scores[seat])}")
        if record.team_scores is not None:
            lines.append(self.totals(record.team_scores))
        return "\n".join(lines)

    # ------------------------------------------------------------ one deal

    def deal(self, deal: DealRecord) -> str:
        language = self.language
        variant = self.record.variant
        lines = [self.title(deal)]
        if deal.shown_card is not None and deal.trump is not None:  # T41.4
            lines.append(
                t(
                    language,
                    "shown_line",
                    card=card(language, deal.shown_card),
                    suit=suit(deal.trump),
                )
            )
        lines.append(t(language, "record_hands"))
        lines += [
            t(language, "sheet_line", name=self.name(seat), details=self.hand(deal.hands[seat]))
            for seat in range(4)
        ]
        if variant in PARTNERSHIP_PARAMS:
            lines.append(self.bids(deal))
        elif VARIANTS[variant].bidding == "auction":
            lines += self.auction(deal)
        elif deal.contract == "complex":
            lines.append(self.doubled(deal))  # TX.7
        if deal.cancelled:
            lines += self.cancelled(deal)
            return "\n".join(lines)
        lines += self.play(deal)
        if not deal.finished:
            lines.append(t(language, "record_unfinished_deal"))
            return "\n".join(lines)
        lines.append(t(language, "record_result"))
        lines += [
            t(language, "sheet_line", name=self.name(seat), details=self.outcome(deal, seat))
            for seat in range(4)
        ]
        if deal.team_scores is not None:
            lines.append(self.totals(deal.team_scores))
        return "\n".join(lines)

    def title(self, deal: DealRecord) -> str:
        language = self.language
        if deal.kingdom is not None and deal.owner is not None:  # TX.3: no dealer (TX.2)
            contract = t(
                language, f"contract_{deal.contract}" if deal.contract else "contract_choosing"
            )
            return t(
                language,
                "record_deal_trix",
                deal=number(language, deal.number),
                kingdom=number(language, deal.kingdom),
                kingdoms=number(language, TRIX_COMPLEX.kingdoms),
                owner=self.name(deal.owner),
                contract=contract,
            )
        dealer = self.name(deal.dealer) if deal.dealer is not None else "—"
        return t(language, "record_deal", deal=number(language, deal.number), dealer=dealer)

    def hand(self, cards: Sequence[str]) -> str:
        """All four suits in order ♣ ♦ ♥ ♠, ascending within each (T41D.6), a void as
        "—"; kept left to right in Arabic so the suits stay in the same order."""
        groups = []
        for letter in "CDHS":
            ranks = sorted(
                (c for c in cards if c[1] == letter), key=lambda c: "23456789TJQKA".index(c[0])
            )
            labels = " ".join("10" if c[0] == "T" else c[0] for c in ranks) or "—"
            groups.append(f"{suit(letter)} {labels}")
        return ltr(self.language, " · ".join(groups))

    def bid(self, value: int) -> str:
        """A bid, with T41D.4's ×2 mark when it counts double."""
        params = PARTNERSHIP_PARAMS.get(self.record.variant)
        mark = t(self.language, "double_mark") if params and params.doubles(value) else ""
        return number(self.language, value) + mark

    def bids(self, deal: DealRecord) -> str:
        """T41.5: in bidding order, from the dealer's right, the dealer last."""
        dealer = deal.dealer if deal.dealer is not None else 3
        calls = []
        for step in range(1, 5):
            seat = (dealer + step) % 4
            value = deal.bids[seat]
            shown = "—" if value is None else self.bid(value)
            calls.append(f"{self.name(seat)} {shown}")
        return t(self.language, "record_bids", bids=" · ".join(calls))

    def auction(self, deal: DealRecord) -> list[str]:
        """TS.3–TS.6: every call in order, then the contract and its trump."""
        language = self.language
        calls = [
            f"{self.name(seat)} "
            + (t(language, "bid_pass") if value == "pass" else number(language, int(value)))
            for seat, value in deal.auction
        ]
        lines = [t(language, "record_auction", calls=" · ".join(calls) or "—")]
        if deal.declarer is not None and deal.bid is not None:
            lines.append(
                t(
                    language,
                    "declarer_line",
                    name=self.name(deal.declarer),
                    bid=number(language, deal.bid),
                )
            )
        if deal.trump is not None:
            lines.append(t(language, "trump_line", suit=suit(deal.trump)))
        return lines

    def doubled(self, deal: DealRecord) -> str:
        """TX.7–TX.8: the doubled cards with their ×2 mark and doubler."""
        language = self.language
        if not deal.doubled:
            return t(language, "no_doubles")
        cards = [
            f"{card(language, code)}{t(language, 'double_mark')} ({self.name(seat)})"
            for code, seat in deal.doubled
        ]
        return t(language, "doubled_line", cards=joined(language, cards))

    def cancelled(self, deal: DealRecord) -> list[str]:
        """T41.6 / T41D.3: the total against the minimum, and the redeal (T41.2)."""
        language = self.language
        total = sum(bid for bid in deal.bids if bid is not None)
        needed = deal.needed or PARTNERSHIP_PARAMS[self.record.variant].min_total
        return [
            t(
                language,
                "sheet_cancelled",
                deal=number(language, deal.number),
                total=number(language, total),
                needed=number(language, needed),
            ),
            t(language, "sheet_redeal"),
        ]

    def plays(self, turns: Sequence[Turn]) -> str:
        language = self.language
        return " · ".join(
            f"{self.name(seat)} "
            + (t(language, "bid_pass") if code == "pass" else card(language, code))
            for seat, code in turns
        )

    def trick(self, n: int, trick: TrickRecord) -> str:
        return t(
            self.language,
            "record_trick_line",
            n=number(self.language, n),
            plays=self.plays(trick.plays),
            winner=self.name(trick.winner),
        )

    def play(self, deal: DealRecord) -> list[str]:
        """Every trick on a line, or a Trix contract's turns in order and who went out."""
        language = self.language
        if deal.kingdom is not None and deal.contract is None:
            return []  # TX.4: the log stopped before the owner chose
        if deal.contract == "trix":
            turns = deal.layout
            lines = [t(language, "record_layout")]
            lines += [
                self.plays(turns[i : i + LAYOUT_TURNS]) for i in range(0, len(turns), LAYOUT_TURNS)
            ]
            order = [*deal.finished_order, *([] if deal.fourth is None else [deal.fourth])]
            if order:  # TX.10
                places = [
                    f"{number(language, place)}. {self.name(seat)}"
                    for place, seat in enumerate(order, 1)
                ]
                lines.append(t(language, "finished_line", order=joined(language, places)))
            return lines
        lines = [t(language, "record_tricks")]
        lines += [self.trick(n, trick) for n, trick in enumerate(deal.tricks, 1)]
        if deal.open_trick:
            lines.append(t(language, "record_open_trick", plays=self.plays(deal.open_trick)))
        return lines

    def outcome(self, deal: DealRecord, seat: int) -> str:
        """A seat's figures for the deal, as the score sheet gives them, then its change
        and new total."""
        language = self.language
        variant = self.record.variant
        tricks = t(language, "tricks_value", tricks=number(language, deal.tricks_won[seat]))
        parts: list[str] = []
        if variant in PARTNERSHIP_PARAMS:
            bid = deal.bids[seat]
            if bid is not None:  # T41.8: made with at least the bid
                made = deal.tricks_won[seat] >= bid
                parts += [
                    t(language, "bid_value", bid=self.bid(bid)),
                    tricks,
                    t(language, "made" if made else "failed"),
                ]
        elif VARIANTS[variant].bidding == "auction":
            bid = deal.bid if seat == deal.declarer else None  # TS.6: only the declarer's
            if bid is not None:
                parts.append(t(language, "bid_value", bid=number(language, bid)))
            parts.append(tricks)
            if bid is not None:  # TS.8: made with at least the bid
                parts.append(t(language, "made" if deal.tricks_won[seat] >= bid else "failed"))
        elif deal.contract == "complex":
            parts.append(tricks)
            doubles = sum(1 for _, doubler in deal.doubled if doubler == seat)
            if doubles:
                parts.append(t(language, "doubles_count", count=number(language, doubles)))
        else:
            order = [*deal.finished_order, deal.fourth]
            if seat in order:  # TX.10
                place = number(language, order.index(seat) + 1)
                parts.append(t(language, "place_value", place=place))
        delta = signed(language, deal.deltas[seat])
        total = number(language, deal.scores[seat])
        parts.append(t(language, "delta_total", delta=delta, total=total))
        return " · ".join(parts)


__all__ = ["record_pages", "text_length"]  # text_length: for the tests of the pages
