"""Deals of Klondike: the 52 cards in the order they are dealt, and where they came from.

Public deal N (1..999,999) is PySolFC's Klondike game N (RULES-KLONDIKE.md,
"Deal numbers"); the path from a number to the cards mirrors PySolFC:

* ``pysollib/pysolrandom.py``, ``constructRandom``: a seed below 32000 gets
  ``LCRandom31`` (the Microsoft FreeCell generator), any other seed, 32000
  included, the Mersenne Twister (``MTRandom``). ``pysol_cards.random.shuffle``
  switches at ``<= 32000`` instead; we follow PySolFC, as the Tomb does.
* ``Game.createCards``: suit by suit (clubs, spades, hearts, diamonds), ace to
  king; with ``LCRandom31`` the 52 cards are first rearranged rank by rank in
  the suits' order clubs, diamonds, hearts, spades; then the generator
  shuffles the list in place and the *last* card of the list is the top of
  the talon, the first one dealt.
* ``Klondike.startGame(reverse=1)`` (``pysollib/games/klondike.py``): six
  face-down rows, row r (1..6) to columns r+1..7, then one face-up row to all
  seven, each row dealt from the right (column 7 first). The other 24 cards
  stay in the talon, top first. PySolFC then turns the talon's top card onto
  the waste; this site does not (the player turns the first card), so that
  card is the top of our stock.

``Deal.cards`` is that dealing order: the first 28 go to the columns as
``DEAL_COLUMNS`` says, the last 24 are the stock, top first. The golden deals
in ``tests/engine/fixtures/klondike_golden_deals.json`` pin it against
``pysol_cards``' own layout.

Private deals (the dailies) come from a 64-bit seed offset by 2**80 before it
seeds Python's Mersenne Twister, a key space no public number reaches.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from ..cards import ALL_CARDS, Card, card_text, parse_card
from ..errors import InvalidDeal
from ..numbers import MAX_DEAL as MAX_DEAL  # the numbers every game shares
from ..numbers import MIN_DEAL as MIN_DEAL
from ..numbers import parse_deal_number as parse_deal_number
from ..pysol import MS_SEED_LIMIT as MS_SEED_LIMIT
from ..pysol import SEED_BITS as SEED_BITS
from ..pysol import numbered_deck, seeded_deck

COLUMN_COUNT: Final = 7


def _deal_columns() -> tuple[int, ...]:
    """The column (0..6) each of the first 28 cards goes to, in dealing order."""
    order: list[int] = []
    for row in range(1, COLUMN_COUNT):  # face-down rows: row r reaches columns r..6
        order.extend(range(COLUMN_COUNT - 1, row - 1, -1))
    order.extend(range(COLUMN_COUNT - 1, -1, -1))  # the face-up row, from the right too
    return tuple(order)


DEAL_COLUMNS: Final = _deal_columns()
TABLEAU_SIZE: Final = len(DEAL_COLUMNS)  # 28
STOCK_SIZE: Final = len(ALL_CARDS) - TABLEAU_SIZE  # 24


@dataclass(frozen=True, slots=True)
class Deal:
    """The 52 cards in dealing order (columns' cards, then the stock top first)."""

    cards: tuple[Card, ...]
    number: int | None = None
    seeded: bool = False

    def __post_init__(self) -> None:
        if sorted(self.cards) != list(ALL_CARDS):
            raise InvalidDeal("a deal must hold each of the 52 cards exactly once")

    @property
    def texts(self) -> list[str]:
        return [card_text(card) for card in self.cards]

    def columns(self) -> list[list[Card]]:
        """The seven columns, bottom card first; column k's last card is its face-up one."""
        columns: list[list[Card]] = [[] for _ in range(COLUMN_COUNT)]
        for card, column in zip(self.cards, DEAL_COLUMNS, strict=False):
            columns[column].append(card)
        return columns

    @property
    def stock(self) -> tuple[Card, ...]:
        """The 24 stock cards, top (the first to turn) first."""
        return self.cards[TABLEAU_SIZE:]


def deal_from_number(value: object) -> Deal:
    """Public deal N: PySolFC's Klondike game N (see the module docstring)."""
    number = parse_deal_number(value)
    return Deal(cards=numbered_deck(number), number=number)


def deal_from_seed(seed: int) -> Deal:
    """A private deal from a 64-bit seed (the daily deals)."""
    return Deal(cards=seeded_deck(seed), seeded=True)


def deal_from_texts(
    texts: Iterable[str], number: int | None = None, seeded: bool = False
) -> Deal:
    """A deal from its 52 texts in dealing order (``Deal.texts`` read back)."""
    if isinstance(texts, str):
        raise InvalidDeal("a deal is a list of 52 card texts, not one string")
    return Deal(cards=tuple(parse_card(text) for text in texts), number=number, seeded=seeded)
