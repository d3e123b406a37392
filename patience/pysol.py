"""PySolFC's one-deck shuffle, which deal numbers follow in every one-deck game here
(RULES.md, "Deal numbers"), and the private shuffle of the daily deals.

PySolFC creates the cards suit by suit (C S H D), ace to king; below seed 32000 it
first reorders them rank by rank (suits C D H S) and shuffles with ``LCRandom31``,
from 32000 on (32000 itself included, as PySolFC does) it shuffles with the
Mersenne Twister. Its games then deal from the end of the list, so the order is
returned reversed: the first card dealt first. Each game's ``deals`` module says
how its own dealing order reads this list."""

from __future__ import annotations

import random
from typing import Final

from pysol_cards.random import LCRandom31, MTRandom

from .cards import Card, make_card
from .errors import InvalidDeal

MS_SEED_LIMIT: Final = 32_000  # PySolFC: LCRandom31 for 0 <= seed < 32000
SEED_BITS: Final = 64
# Private seeds shuffle a generator seeded far above any public number, so no daily
# can be found among the public deals.
SEED_OFFSET: Final = 1 << 80


def creation_order() -> list[Card]:
    """PySolFC's ``createCards``: suit by suit (C S H D), ace to king."""
    return [make_card(rank, suit) for suit in range(4) for rank in range(1, 14)]


def _ms_rearrange(cards: list[Card]) -> list[Card]:
    """PySolFC's reorder before ``LCRandom31``: rank by rank, suits C D H S."""
    return [cards[rank + offset] for rank in range(13) for offset in (0, 39, 26, 13)]


def numbered_deck(number: int) -> tuple[Card, ...]:
    """PySolFC's game ``number``'s deck, the first card dealt first."""
    cards = creation_order()
    if number < MS_SEED_LIMIT:
        cards = _ms_rearrange(cards)
        LCRandom31(number).shuffle(cards)
    else:
        MTRandom(number).shuffle(cards)
    return tuple(reversed(cards))


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << SEED_BITS:
        raise InvalidDeal("a deal seed must be an integer of at most 64 bits")
    return seed


def seeded_deck(seed: int) -> tuple[Card, ...]:
    """A private deck from a 64-bit seed (the daily deals)."""
    cards = creation_order()
    random.Random(SEED_OFFSET + check_seed(seed)).shuffle(cards)
    return tuple(cards)
