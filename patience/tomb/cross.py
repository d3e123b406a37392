"""What only the traditional cross adds to the Tomb: the grand tomb and its table.

The grand tomb (RULES-CROSS-AND-ST-HELENA.md, section 1): a won game is grand
when the last card on the tomb is the ace of clubs and the kings on the
corners stand red opposite red and black opposite black across both
diagonals (nw-se and ne-sw).
"""

from __future__ import annotations

from typing import Final

from ..cards import DECK_SIZE, RANK, make_card, suit_of
from ..protocol import Table
from .moves import TOMB
from .position import Position
from .table import CROSS_PLACES, tomb_table

GRAND_TOMB: Final = "grand-tomb"
ACE_OF_CLUBS: Final = make_card(1, 0)
KING: Final = 13
RED_SUITS: Final = frozenset({2, 3})  # hearts, diamonds (cards.SUIT_LETTERS is "CSHD")
# Corner indices (FOUNDATIONS order nw, ne, sw, se) facing each other across the tomb.
DIAGONALS: Final = ((0, 3), (1, 2))


def is_red(card: int) -> bool:
    return suit_of(card) in RED_SUITS


def is_grand_tomb(position: Position) -> bool:
    """A won cross game ending with the ace of clubs on the tomb and the kings paired by colour."""
    if not position.variant.cross or position.home != DECK_SIZE:
        return False
    if position.foundations[TOMB][-1] != ACE_OF_CLUBS:
        return False
    kings = [pile[-1] for pile in position.foundations[:TOMB]]
    if any(RANK[king] != KING for king in kings):
        return False  # cannot happen in a won game; the rule is about kings, so say it
    return all(is_red(kings[a]) == is_red(kings[b]) for a, b in DIAGONALS)


def achievements(position: Position) -> list[str]:
    return [GRAND_TOMB] if is_grand_tomb(position) else []


def cross_table() -> Table:
    """The same X as the Tomb's, its four places labelled as the cross."""
    return tomb_table(CROSS_PLACES)
