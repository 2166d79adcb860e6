"""``make run``'s seeded computer match (bot/console/autoplay.py)."""

from __future__ import annotations

import io
import re

import pytest

import engine
from bot.console.autoplay import main, play

CODE = re.compile(r"\b[2-9TJQKA][CDHS]\b")


@pytest.mark.parametrize("variant", ["syrian41", "tarneeb_solo"])
def test_a_seeded_match_is_printed_deal_by_deal_to_its_result(variant: str) -> None:
    out = io.StringIO()
    match = play(variant, seed=7, max_deals=500, out=out)
    text = out.getvalue()
    assert match.result is not None
    assert text.count("\nDeal ") + text.startswith("Deal ") >= 1
    assert f"Deal {match.deal_number}" in text
    assert "scores" in text and "Result:" in text
    assert text == _run(variant, 7)  # the same seed prints the same match


def _run(variant: str, seed: int) -> str:
    out = io.StringIO()
    play(variant, seed=seed, max_deals=500, out=out)
    return out.getvalue()


def test_only_public_cards_are_printed() -> None:
    # Shown cards (T41.4) are public; nothing else names a card.
    text = _run("syrian41", 3)
    for line in text.splitlines():
        if CODE.search(line):
            assert "shown" in line


def test_a_match_without_result_stops_at_the_deal_limit() -> None:
    out = io.StringIO()
    match = play("tarneeb41_double", seed=7, max_deals=5, out=out)
    assert match.result is None
    assert "No result after 5 deals" in out.getvalue()


def test_the_command_line_takes_variant_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variant", "tarneeb_solo", "--seed", "7"]) == 0
    printed = capsys.readouterr().out
    assert engine.VARIANTS["tarneeb_solo"].name_en in printed
    assert "seed 7" in printed
