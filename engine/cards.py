"""Cards as ints inside the engine, as text codes at its edges.

A card is ``suit * 13 + rank`` with suits ``C D H S`` = 0..3 and ranks ``2..A`` = 0..12,
so one suit occupies 13 contiguous bits of a 52-bit hand mask and the int order is
"by suit, then by rank ascending" — the canonical order hands are shown in (T41D.6).

>>> parse_card("10h"), card_code(parse_card("10h"))
(34, 'TH')
>>> suit_of(parse_card("AS")), rank_of(parse_card("AS"))
(3, 12)
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "CDHS"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
DECK_SIZE = 52
FULL_MASK = (1 << DECK_SIZE) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * suit) for suit in range(4))

CARD_CODES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

# Every spelling the contract accepts on input: canonical, lower case, and "10" for ten.
CARD_BY_CODE: dict[str, int] = {}
for _card, _code in enumerate(CARD_CODES):
    for _spelling in {_code, _code.replace("T", "10")}:
        CARD_BY_CODE[_spelling] = _card
        CARD_BY_CODE[_spelling.lower()] = _card
        CARD_BY_CODE[_spelling[:-1] + _spelling[-1].lower()] = _card
        CARD_BY_CODE[_spelling[:-1].lower() + _spelling[-1]] = _card


def parse_card(code: object) -> int:
    """Turn a card code (``"QH"``, ``"10h"``, ``"th"``) into its int; ``ValueError`` if not one."""
    if isinstance(code, str):
        card = CARD_BY_CODE.get(code.strip())
        if card is not None:
            return card
    raise ValueError(f"not a card code: {code!r}")


def card_code(card: int) -> str:
    """The canonical code of a card int (rank ``2-9 T J Q K A`` + suit ``C D H S``)."""
    return CARD_CODES[card]


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def suit_index(letter: object) -> int:
    """``"S"``/``"s"`` → 3; ``ValueError`` for anything that is not a suit letter."""
    if isinstance(letter, str) and len(letter.strip()) == 1:
        index = SUITS.find(letter.strip().upper())
        if index >= 0:
            return index
    raise ValueError(f"not a suit: {letter!r}")


def same_colour_partner(suit: int) -> int:
    """The other suit of the same colour: C<->S, D<->H (T41.4)."""
    return 3 - suit


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# The cards of one suit's 13-bit chunk, filled in on first use: listing a hand is then
# four table look-ups instead of a loop over its bits.
_CHUNK_CARDS: list[list[tuple[int, ...] | None]] = [[None] * 8192 for _ in range(4)]
_CHUNK_CODES: list[list[tuple[str, ...] | None]] = [[None] * 8192 for _ in range(4)]


def _chunk_cards(suit: int, chunk: int) -> tuple[int, ...]:
    cards = _CHUNK_CARDS[suit][chunk]
    if cards is None:
        base = suit * 13
        cards = tuple(base + rank for rank in range(13) if chunk >> rank & 1)
        _CHUNK_CARDS[suit][chunk] = cards
        _CHUNK_CODES[suit][chunk] = tuple(CARD_CODES[card] for card in cards)
    return cards


def cards_of(mask: int) -> list[int]:
    """The cards in a mask, in canonical (int) order."""
    cards: list[int] = []
    for suit in range(4):
        chunk = mask >> (13 * suit) & 0x1FFF
        if chunk:
            cards.extend(_CHUNK_CARDS[suit][chunk] or _chunk_cards(suit, chunk))
    return cards


def suit_codes(suit: int, chunk: int) -> tuple[str, ...]:
    """The codes of one suit's cards given as its 13-bit chunk of a hand mask."""
    codes = _CHUNK_CODES[suit][chunk]
    if codes is None:
        _chunk_cards(suit, chunk)
        codes = _CHUNK_CODES[suit][chunk]
        assert codes is not None
    return codes


def codes_of(mask: int) -> list[str]:
    """The codes of the cards in a mask, in canonical order."""
    codes: list[str] = []
    for suit in range(4):
        chunk = mask >> (13 * suit) & 0x1FFF
        if chunk:
            found = _CHUNK_CODES[suit][chunk]
            if found is None:
                _chunk_cards(suit, chunk)
                found = _CHUNK_CODES[suit][chunk]
                assert found is not None
            codes.extend(found)
    return codes
