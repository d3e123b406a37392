"""Deals of St. Helena: the 96-card stock, top first, and where it came from.

Two 52-card decks, never mixed (RULES-CROSS-AND-ST-HELENA.md, section 2). A
card is an integer ``deck * 52 + c`` where ``c`` is ``patience.cards``'s card
(0..51) and ``deck`` is 0 for the first deck, 1 for the second; its text is
that of ``c`` (``7H``), so the two sevens of hearts read alike and only the
engine tells them apart. The four foundation Kings and four foundation Aces
are the first deck's; the stock is the other 44 cards of the first deck,
shuffled, then the 52 cards of the second deck, shuffled: so a stock's first
44 cards (from the top) are always deck 0 and its last 52 deck 1, and a list of
96 texts names a deal exactly.

Deal N (1..999,999) seeds one generator, Python's ``random.Random(N)`` (the
Mersenne Twister, whose integer seeding and ``shuffle`` are stable across
Python versions), and shuffles with it, in this order:

1. the first deck less its Kings and Aces, in creation order (suits clubs,
   spades, hearts, diamonds; 2 to Q in each), shuffled in place;
2. then the whole second deck in creation order (A to K in each suit),
   shuffled in place by the same generator.

The stock, top first, is list 1 followed by list 2. The golden deals in
``tests/engine/fixtures/sthelena_golden_deals.json`` pin this.

Private deals (the dailies) come from a 64-bit seed offset by 2**80 before it
seeds the same generator, a key space no public number reaches.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from ..cards import DECK_SIZE, RANK, card_text, make_card, parse_card
from ..errors import InvalidDeal
from ..numbers import MAX_DEAL as MAX_DEAL  # the numbers every game shares
from ..numbers import MIN_DEAL as MIN_DEAL
from ..numbers import parse_deal_number as parse_deal_number

SEED_BITS: Final = 64
_SEED_OFFSET: Final = 1 << 80
FIRST_DECK_IN_STOCK: Final = 44  # 52 less four Kings and four Aces
STOCK_SIZE: Final = FIRST_DECK_IN_STOCK + DECK_SIZE  # 96

# Creation order: suits C, S, H, D; ranks ace to king.
_CREATION: Final = tuple(make_card(rank, suit) for suit in range(4) for rank in range(1, 14))
FIRST_DECK_STOCK: Final = tuple(card for card in _CREATION if RANK[card] not in (1, 13))
SECOND_DECK: Final = tuple(DECK_SIZE + card for card in _CREATION)


def face(card: int) -> int:
    """The ``patience.cards`` card (0..51) of a two-deck card."""
    return card % DECK_SIZE


def text_of(card: int) -> str:
    return card_text(card % DECK_SIZE)


@dataclass(frozen=True, slots=True)
class Deal:
    """A stock order, top first (96 two-deck cards), and where it came from."""

    cards: tuple[int, ...]
    number: int | None = None
    seeded: bool = False

    def __post_init__(self) -> None:
        first, second = self.cards[:FIRST_DECK_IN_STOCK], self.cards[FIRST_DECK_IN_STOCK:]
        if sorted(first) != sorted(FIRST_DECK_STOCK) or sorted(second) != list(SECOND_DECK):
            raise InvalidDeal(
                "a St. Helena deal is 96 cards: the first deck less its Kings and Aces "
                "(each once), then the whole second deck (each once)"
            )

    @property
    def texts(self) -> list[str]:
        return [text_of(card) for card in self.cards]


def _shuffled(generator: random.Random) -> tuple[int, ...]:
    first, second = list(FIRST_DECK_STOCK), list(SECOND_DECK)
    generator.shuffle(first)
    generator.shuffle(second)
    return (*first, *second)


def deal_from_number(value: object) -> Deal:
    """Public deal N: see the module docstring."""
    number = parse_deal_number(value)
    return Deal(cards=_shuffled(random.Random(number)), number=number)


def deal_from_seed(seed: int) -> Deal:
    """A private deal from a 64-bit seed (the daily deals)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << SEED_BITS:
        raise InvalidDeal("a deal seed must be an integer of at most 64 bits")
    return Deal(cards=_shuffled(random.Random(_SEED_OFFSET + seed)), seeded=True)


def deal_from_texts(
    texts: Iterable[str], number: int | None = None, seeded: bool = False
) -> Deal:
    """A deal from its 96 texts, top first: the first 44 are the first deck's."""
    faces = [parse_card(text) for text in texts]
    cards = tuple(
        card if index < FIRST_DECK_IN_STOCK else DECK_SIZE + card
        for index, card in enumerate(faces)
    )
    return Deal(cards=cards, number=number, seeded=seeded)
