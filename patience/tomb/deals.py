"""Deals: the stock order of a game, top of the stock first.

Public deals are numbered 1..999,999 and reproduce PySolFC's Napoleon's Tomb
(game id 277). The path from a number to a card order mirrors PySolFC:

* ``pysollib/pysolrandom.py``, ``constructRandom``: a seed below 32000 gets
  ``LCRandom31`` (the Microsoft FreeCell generator); any other seed gets
  ``MTRandom`` (Python's Mersenne Twister seeded with the number).
* ``pysollib/game/__init__.py``, ``Game.createCards``: cards are created suit
  by suit (clubs, spades, hearts, diamonds), ace to king within each suit.
* ``Game.shuffle``: with ``LCRandom31`` and 52 cards the list is first
  rearranged rank by rank in the suit order clubs, diamonds, hearts, spades
  (the "Microsoft rearrangement"); then the generator shuffles the list in
  place, and the cards are added to the talon in list order, so the *last*
  card of the list is the top of the stock, the first one PySolFC turns.
  ``NapoleonsTomb`` (``pysollib/games/windmill.py``) has no shuffle hook.

The generators are those of the ``pysol-cards`` package, whose ``LCRandom31``
and ``MTRandom`` are PySolFC's. (Its own ``shuffle`` helper switches at
``<= 32000``, PySolFC at ``< 32000``; we follow PySolFC.)

Daily deals come from a private 64-bit seed instead, shuffled by the same
Mersenne Twister over a key space no public number reaches.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import ALL_CARDS, Card, card_text, parse_card
from ..errors import InvalidDeal
from ..numbers import MAX_DEAL as MAX_DEAL  # the numbers every game shares
from ..numbers import MIN_DEAL as MIN_DEAL
from ..numbers import parse_deal_number as parse_deal_number
from ..pysol import MS_SEED_LIMIT as MS_SEED_LIMIT
from ..pysol import SEED_BITS as SEED_BITS
from ..pysol import numbered_deck, seeded_deck


@dataclass(frozen=True, slots=True)
class Deal:
    """A stock order, top first, and where it came from."""

    cards: tuple[Card, ...]
    number: int | None = None
    seeded: bool = False

    def __post_init__(self) -> None:
        if sorted(self.cards) != list(ALL_CARDS):
            raise InvalidDeal("a deal must hold each of the 52 cards exactly once")

    @property
    def texts(self) -> list[str]:
        return [card_text(card) for card in self.cards]


def deal_from_number(value: object) -> Deal:
    """Public deal N: PySolFC's Napoleon's Tomb game N."""
    number = parse_deal_number(value)
    return Deal(cards=numbered_deck(number), number=number)


def deal_from_seed(seed: int) -> Deal:
    """A private deal from a 64-bit seed (the daily deals)."""
    return Deal(cards=seeded_deck(seed), seeded=True)


def deal_from_cards(texts: Iterable[str]) -> Deal:
    """A deal from an explicit order, top of the stock first."""
    cards = tuple(parse_card(text) for text in texts)
    return Deal(cards=cards)
