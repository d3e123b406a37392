"""Moves and their notation (RULES-TWO-DECK-TOMB.md).

``D`` deals the stock onto the waste piles, ``R`` gathers them into a new
stock. Every other move is ``<from>-<to>``, with the places named:

* walls ``n``, ``w``, ``e``, ``s`` (north, west, east, south), which only give;
* working places ``pn``, ``pw``, ``pe``, ``ps``, each outside its wall;
* bases ``nw``, ``ne``, ``sw``, ``se``, the corners;
* the centre ``c``;
* waste piles ``x1`` .. ``x5``, which only give.

A whole working stack of n >= 2 cards onto a base adds ``x<n>``
(``pn-nex3``: 5H 6H 7H onto a base showing 8H). A move names places, never
cards, so the two twins of a card never need telling apart in the notation;
a move's text is the same before and after it is played, is case-insensitive
on input and round-trips through ``parse_move``. Every move object exists
once, built here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from ..errors import InvalidNotation, echo

WALLS: Final = ("n", "w", "e", "s")
PLACES: Final = ("pn", "pw", "pe", "ps")
BASES: Final = ("nw", "ne", "sw", "se")
CENTRE: Final = "c"
WASTES: Final = tuple(f"x{number}" for number in range(1, 6))
STOCK: Final = "stock"
MAX_STACK: Final = 12  # a working stack runs at most from a 2 up to the King

# Sources: the walls 0..3, the working places 4..7, the centre 8, the waste piles 9..13.
SOURCE_NAMES: Final = (*WALLS, *PLACES, CENTRE, *WASTES)
FIRST_PLACE: Final = 4
CENTRE_SOURCE: Final = 8
FIRST_WASTE: Final = 9
# Targets: the bases 0..3, the working places 4..7, the centre 8.
TARGET_NAMES: Final = (*BASES, *PLACES, CENTRE)
CENTRE_TARGET: Final = 8


class Kind(Enum):
    DEAL = "D"
    REDEAL = "R"
    CARD = "-"  # a free card (or a whole working stack) from a source onto a target


@dataclass(frozen=True, slots=True)
class Move:
    kind: Kind
    source: int = -1  # index into SOURCE_NAMES
    target: int = -1  # index into TARGET_NAMES
    count: int = 1  # more than 1 only for a whole working stack onto a base

    def __str__(self) -> str:
        return self.notation

    @property
    def notation(self) -> str:
        if self.kind is not Kind.CARD:
            return str(self.kind.value)
        suffix = f"x{self.count}" if self.count > 1 else ""
        return f"{SOURCE_NAMES[self.source]}-{TARGET_NAMES[self.target]}{suffix}"

    @property
    def from_wall(self) -> bool:
        return self.kind is Kind.CARD and self.source < FIRST_PLACE

    @property
    def from_place(self) -> bool:
        return self.kind is Kind.CARD and FIRST_PLACE <= self.source < CENTRE_SOURCE

    @property
    def to_base(self) -> bool:
        return self.kind is Kind.CARD and self.target < FIRST_PLACE


DEAL: Final = Move(Kind.DEAL)
REDEAL: Final = Move(Kind.REDEAL)


def _same_place(source: int, target: int) -> bool:
    return SOURCE_NAMES[source] == TARGET_NAMES[target]


# CARD_MOVES[source][target]: one card; STACK_MOVES[place][base][count - 2]: a whole stack.
CARD_MOVES: Final = tuple(
    tuple(Move(Kind.CARD, s, t) for t in range(len(TARGET_NAMES)))
    for s in range(len(SOURCE_NAMES))
)
STACK_MOVES: Final = tuple(
    tuple(tuple(Move(Kind.CARD, FIRST_PLACE + p, b, n) for n in range(2, MAX_STACK + 1))
          for b in range(len(BASES)))
    for p in range(len(PLACES))
)
ALL_MOVES: Final = (
    DEAL, REDEAL,
    *(m for row in CARD_MOVES for m in row if not _same_place(m.source, m.target)),
    *(m for place in STACK_MOVES for base in place for m in base),
)
_MOVE_BY_TEXT: Final = {move.notation.lower(): move for move in ALL_MOVES}
_HELP: Final = ("use D, R, or <from>-<to> with walls n w e s, working places pn pw pe ps, "
                "bases nw ne sw se, the centre c and waste piles x1..x5, like x3-pn, "
                "or pn-nex3 for a whole stack of 3 onto a base")


def parse_move(text: object) -> Move:
    """One move in notation (case and surrounding spaces ignored)."""
    if not isinstance(text, str):
        raise InvalidNotation(f"a move must be text ({_HELP})")
    move = _MOVE_BY_TEXT.get(text.strip().lower())
    if move is None:
        raise InvalidNotation(f"{echo(text)} is not a move ({_HELP})")
    return move


def parse_moves(text: object) -> list[Move]:
    """A space-separated move list, as in logs and records."""
    if not isinstance(text, str):
        raise InvalidNotation('a move list must be text such as "D x1-pn pn-ne"')
    return [parse_move(word) for word in text.split()]


def format_moves(moves: Iterable[Move]) -> str:
    return " ".join(move.notation for move in moves)
