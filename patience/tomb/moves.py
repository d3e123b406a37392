"""Moves and their notation (RULES.md, "Moves").

``D`` turn the stock, ``R`` turn the waste over, ``F`` / ``F@<foundation>``
play the top waste card home, ``C`` / ``C@<cell>`` park it. A move without a
target means "the first that fits" and is resolved when it is applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from ..errors import InvalidNotation, echo


class Kind(Enum):
    DRAW = "D"
    REDEAL = "R"
    FOUNDATION = "F"
    CELL = "C"


FOUNDATIONS: Final = ("nw", "ne", "sw", "se", "tomb")
CORNERS: Final = FOUNDATIONS[:4]
TOMB: Final = 4  # index of the tomb among the foundations
CELLS: Final = ("n", "w", "e", "s")


@dataclass(frozen=True, slots=True)
class Move:
    kind: Kind
    # index into FOUNDATIONS (kind F) or CELLS (kind C); None = first that fits
    target: int | None = None

    def __str__(self) -> str:
        return self.notation

    @property
    def notation(self) -> str:
        if self.target is None:
            return self.kind.value
        names = FOUNDATIONS if self.kind is Kind.FOUNDATION else CELLS
        return f"{self.kind.value}@{names[self.target]}"


DRAW: Final = Move(Kind.DRAW)
REDEAL: Final = Move(Kind.REDEAL)
TO_FOUNDATION: Final = tuple(Move(Kind.FOUNDATION, i) for i in range(len(FOUNDATIONS)))
TO_CELL: Final = tuple(Move(Kind.CELL, i) for i in range(len(CELLS)))
ALL_MOVES: Final = (
    DRAW, REDEAL, Move(Kind.FOUNDATION), *TO_FOUNDATION, Move(Kind.CELL), *TO_CELL,
)
_MOVE_BY_TEXT: Final = {move.notation.lower(): move for move in ALL_MOVES}


def parse_move(text: object) -> Move:
    """One move in RULES.md notation (case and surrounding spaces ignored)."""
    if not isinstance(text, str):
        raise InvalidNotation("a move must be text such as D, R, F, F@tomb, C or C@n")
    move = _MOVE_BY_TEXT.get(text.strip().lower())
    if move is None:
        raise InvalidNotation(
            f"{echo(text)} is not a move (use D, R, F, F@nw/ne/sw/se/tomb, C or C@n/w/e/s)"
        )
    return move


def parse_moves(text: object) -> list[Move]:
    """A space-separated move list, as in logs and the command line."""
    if not isinstance(text, str):
        raise InvalidNotation("a move list must be text such as \"D F C@n\"")
    return [parse_move(word) for word in text.split()]


def format_moves(moves: list[Move]) -> str:
    return " ".join(move.notation for move in moves)
