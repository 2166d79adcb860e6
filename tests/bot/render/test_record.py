"""The readable match record: message-sized pages, every hand and every played card of
every deal, in Arabic and English, redeals said as such."""

from __future__ import annotations

import re

import pytest

from bot.render.i18n import CATALOG, LRM, card_label, t, variant_name
from bot.render.record import record_pages, text_length
from engine.records import DealRecord, MatchRecord
from tests.bot.render.support import LANGUAGES, VARIANTS, plain
from tests.engine.test_records import SEEDS, finished, start

NAMES = ("Ali", "Badr", "ليلى", "Dina")
LIMITS = (3500, 1900)
ARABIC_LETTER = re.compile(r"[\u0621-\u064a]")
HUGE = 1_000_000
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def whole(record: MatchRecord, language: str) -> str:
    """The record on one page: the header and the deals, a blank line between blocks."""
    pages = record_pages(record, NAMES, language, HUGE)
    assert len(pages) == 1
    return pages[0]


def deal_blocks(record: MatchRecord, language: str) -> list[str]:
    blocks = plain(whole(record, language)).split("\n\n")
    assert len(blocks) == 1 + len(record.deals)  # the header, then one block per deal
    return blocks[1:]


def hand_lines(block: str, language: str) -> list[str]:
    """The four lines under the block's "Hands as dealt:" line."""
    lines = block.split("\n")
    start_at = lines.index(plain(t(language, "record_hands"))) + 1
    return lines[start_at : start_at + 4]


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_pages_never_exceed_the_limit_and_never_split_a_deal(
    variant: str, language: str, limit: int
) -> None:
    _, record = finished(variant, SEEDS[0])
    pages = record_pages(record, NAMES, language, limit)
    assert len(pages) > 1
    for page in pages:
        assert len(page) <= text_length(page) <= limit  # Telegram counts UTF-16 units
    # Whole blocks only: the pages are the one-page text cut between blocks.
    assert "\n\n".join(pages) == whole(record, language)
    title = plain(t(language, "record_title", variant=variant_name(language, variant)))
    assert plain(pages[0]).startswith(title)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_deal_longer_than_a_page_is_split_at_line_boundaries(language: str) -> None:
    _, record = finished("trix_complex", SEEDS[0])
    limit = 300  # shorter than any deal
    pages = record_pages(record, NAMES, language, limit)
    assert all(text_length(page) <= limit for page in pages)
    lines = [line for line in whole(record, language).split("\n") if line]
    assert [line for page in pages for line in page.split("\n") if line] == lines


def test_a_line_longer_than_the_limit_is_cut_rather_than_overflowing() -> None:
    _, record = finished("syrian41", SEEDS[0])
    pages = record_pages(record, NAMES, "en", 40)
    assert all(text_length(page) <= 40 for page in pages)
    assert "".join("".join(page.split("\n")) for page in pages) == "".join(
        whole(record, "en").split("\n")
    )
    with pytest.raises(ValueError):
        record_pages(record, NAMES, "en", 0)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_card_played_appears_outside_the_hands(
    variant: str, language: str, seed: int
) -> None:
    _, record = finished(variant, seed)
    for deal, block in zip(record.deals, deal_blocks(record, language), strict=True):
        hands = hand_lines(block, language)
        rest = "\n".join(line for line in block.split("\n") if line not in hands)
        assert deal.played or deal.cancelled
        for code in deal.played:
            assert card_label(code) in rest
        if deal.tricks:  # one numbered line per trick, with its taker last
            for n, trick in enumerate(deal.tricks, 1):
                plays = " · ".join(f"{NAMES[s]} {card_label(c)}" for s, c in trick.plays)
                arrow = "←" if language == "ar" else "→"
                assert f"{n}. {plays} {arrow} {NAMES[trick.winner]}" in rest


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_each_deal_shows_all_four_hands_sorted_by_suit(variant: str, language: str) -> None:
    _, record = finished(variant, SEEDS[1])
    for deal, block in zip(record.deals, deal_blocks(record, language), strict=True):
        lines = hand_lines(block, language)
        for seat, line in enumerate(lines):
            name, cards = line.split(": ", 1)
            assert name == NAMES[seat]
            groups = cards.split(" · ")
            assert [group[0] for group in groups] == ["♣", "♦", "♥", "♠"]
            shown = [
                rank + group[0] for group in groups for rank in group[2:].split(" ") if rank != "—"
            ]
            assert sorted(shown) == sorted(card_label(code) for code in deal.hands[seat])
            for group in groups:  # ascending within each suit (T41D.6)
                held = [rank for rank in group[2:].split(" ") if rank != "—"]
                assert held == sorted(held, key=RANKS.index)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_cancelled_deal_says_it_was_redealt_and_why(language: str) -> None:
    played = start("syrian41", seed=5, options={"first_dealer": 0})
    for seat in (1, 2, 3, 0):
        played.apply(seat, {"type": "bid", "value": 2})
    text = "\n\n".join(record_pages(played.record(), NAMES, language, 3500))
    cancelled = t(language, "sheet_cancelled", deal=1, total=8, needed=11)  # T41.6
    assert plain(cancelled) in plain(text)
    assert t(language, "sheet_redeal") in text
    assert t(language, "record_unfinished") in text  # the match had no result
    assert t(language, "record_tricks") not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_names_the_winners_and_the_final_scores(language: str) -> None:
    _, record = finished("syrian41", SEEDS[0])
    header = plain(whole(record, language).split("\n\n")[0])
    assert record.result is not None
    winners = [NAMES[seat] for seat in record.result["winners"]]
    assert all(name in header for name in winners)
    assert plain(t(language, "final_scores")) in header
    for seat in range(4):
        assert f"{NAMES[seat]} (" in header
    a, b = record.team_scores or (0, 0)
    assert f"{t(language, 'team_a')}: {a}".replace("-", "−") in header
    assert f"{t(language, 'team_b')}: {b}".replace("-", "−") in header


def test_arabic_is_arabic_with_marked_numbers_and_english_has_no_arabic_words() -> None:
    _, record = finished("tarneeb_solo", SEEDS[0])
    arabic = "\n".join(record_pages(record, NAMES, "ar", 3500))
    english = "\n".join(record_pages(record, NAMES, "en", 3500))
    assert CATALOG["ar"]["record_auction"].split(":")[0] in arabic
    assert LRM in arabic and LRM not in english
    # Only the Arabic seat name is Arabic in the English record.
    assert not ARABIC_LETTER.search(plain(english).replace(NAMES[2], ""))
    assert "Declarer" in english and "Auction" in english


@pytest.mark.parametrize("language", LANGUAGES)
def test_trix_record_shows_kingdoms_doubles_layout_and_places(language: str) -> None:
    _, record = finished("trix_complex", SEEDS[0])
    blocks = deal_blocks(record, language)
    # The seed gives complex deals both with and without doubles: both lines are checked.
    complexes = [deal for deal in record.deals if deal.contract == "complex"]
    assert {bool(deal.doubled) for deal in complexes} == {True, False}
    for deal, block in zip(record.deals, blocks, strict=True):
        contract = t(language, f"contract_{deal.contract}")
        assert block.split("\n")[0].endswith(contract)
        if deal.contract == "complex":
            # TX.7: the doubled cards, or that none was doubled (never both).
            assert (plain(t(language, "no_doubles")) in block) == (not deal.doubled)
            assert ("×2" in block) == bool(deal.doubled)
            for code, seat in deal.doubled:
                assert f"{card_label(code)}×2 ({NAMES[seat]})" in block
        else:
            assert plain(t(language, "record_layout")) in block  # TX.9
            assert all(NAMES[seat] in block for seat in deal.finished_order)


def test_a_deal_cut_short_says_so() -> None:
    deal = DealRecord(number=3, dealer=1, hands=((), (), (), ()), finished=False)
    record = MatchRecord("syrian41", (deal,), None, (0, 0, 0, 0), (0, 0))
    text = record_pages(record, NAMES, "en", 3500)[0]
    assert t("en", "record_unfinished_deal") in text
    assert t("en", "record_result") not in text
