"""Deals of the two-deck Tomb: 104 cards in dealing order, and where they came from.

**Twin cards.** A card is an integer ``deck * 52 + c``, where ``c`` is
``patience.cards``'s card (0..51) and ``deck`` is 0 or 1; its text is that of
``c`` (``7H``), so the notation and the views read as a player reads the cards,
while the engine keeps the twins apart. Which twin is "deck 0" is fixed by the
deal itself: **the twin dealt first is deck 0**. So a list of 104 texts (each
card's text twice) names a deal exactly, and a record round-trips through texts.

**Dealing order.** ``Deal.cards`` lists the 104 cards as they are dealt:
cards 0..10 are the north wall, 11..21 the west, 22..32 the east, 33..43 the
south (RULES-TWO-DECK-TOMB.md: north, west, east, south), each wall listed
from its top card (the one that shows once the packet is turned over) down;
cards 44..103 are the stock, its top (the first card a deal turns) first.

**Deal N** (1..999,999): the 104 card faces in creation order twice over
(suits clubs, spades, hearts, diamonds; ace to King in each; the whole deck,
then the whole deck again) are shuffled in place by Python's
``random.Random(N).shuffle`` (the Mersenne Twister, whose integer seeding and
``shuffle`` are stable across Python versions); the shuffled list is the
dealing order, each face's first copy being deck 0 as above. No published
program deals this game, so the numbers are this project's own; the golden
deals in ``tests/engine/fixtures/twodeck_golden_deals.json`` pin them.

Private deals (the dailies) come from a 64-bit seed offset by 2**80 before it
seeds the same generator, a key space no public number reaches.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..cards import DECK_SIZE, card_text, make_card, parse_card
from ..errors import InvalidDeal
from ..numbers import MAX_DEAL as MAX_DEAL  # the numbers every game shares
from ..numbers import MIN_DEAL as MIN_DEAL
from ..numbers import parse_deal_number as parse_deal_number

SEED_BITS: Final = 64
_SEED_OFFSET: Final = 1 << 80
CARD_COUNT: Final = 2 * DECK_SIZE  # 104
WALL_COUNT: Final = 4
WALL_SIZE: Final = 11
WALLS_DEALT: Final = WALL_COUNT * WALL_SIZE  # 44
STOCK_SIZE: Final = CARD_COUNT - WALLS_DEALT  # 60

_CREATION: Final = tuple(make_card(rank, suit) for suit in range(4) for rank in range(1, 14))


def face(card: int) -> int:
    """The ``patience.cards`` card (0..51) of a two-deck card."""
    return card % DECK_SIZE


def text_of(card: int) -> str:
    return card_text(card % DECK_SIZE)


def with_twins(faces: Sequence[int]) -> tuple[int, ...]:
    """Two-deck cards from 104 faces in dealing order: a face's first copy is deck 0."""
    seen: set[int] = set()
    cards: list[int] = []
    for card in faces:
        cards.append(card + DECK_SIZE if card in seen else card)
        seen.add(card)
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Deal:
    """The 104 cards in dealing order (walls, then the stock top first)."""

    cards: tuple[int, ...]
    number: int | None = None
    seeded: bool = False

    def __post_init__(self) -> None:
        if sorted(self.cards) != list(range(CARD_COUNT)) or with_twins(
                [face(card) for card in self.cards]) != self.cards:
            raise InvalidDeal("a two-deck Tomb deal is 104 cards: each of the 52 twice, the "
                              "first copy dealt being the first deck's")

    @property
    def texts(self) -> list[str]:
        return [text_of(card) for card in self.cards]

    def wall(self, index: int) -> tuple[int, ...]:
        """Wall ``index`` (north, west, east, south), its top card first."""
        return self.cards[index * WALL_SIZE:(index + 1) * WALL_SIZE]

    @property
    def stock(self) -> tuple[int, ...]:
        """The 60 stock cards, top first."""
        return self.cards[WALLS_DEALT:]


def _shuffled(generator: random.Random) -> tuple[int, ...]:
    faces = list(_CREATION) * 2
    generator.shuffle(faces)
    return with_twins(faces)


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
    """A deal from its 104 texts in dealing order (``Deal.texts`` read back)."""
    if isinstance(texts, str):
        raise InvalidDeal("a deal is a list of 104 card texts, not one string")
    faces = [parse_card(text) for text in texts]
    if sorted(faces) != sorted(list(_CREATION) * 2):
        raise InvalidDeal("a two-deck Tomb deal names each of the 52 cards exactly twice")
    return Deal(cards=with_twins(faces), number=number, seeded=seeded)
