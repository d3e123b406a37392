"""Moves and their notation (RULES.md, "Moves").

``D`` turn the stock, ``R`` turn the waste over, ``F`` / ``F@<foundation>``
play the top waste card home, ``C`` / ``C@<cell>`` park it. A move without a
target means "the first that fits" and is resolved when it is applied.

The traditional cross (RULES-CROSS-AND-ST-HELENA.md) adds ``X@<place>`` /
``X@<place>@<foundation>``: a cross card to a foundation. Its moves are kept
in ``CROSS_MOVES``, apart from ``ALL_MOVES`` (the base game's list, which the
notation tests pin); ``parse_move`` reads both.
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
    CROSS = "X"


FOUNDATIONS: Final = ("nw", "ne", "sw", "se", "tomb")
CORNERS: Final = FOUNDATIONS[:4]
TOMB: Final = 4  # index of the tomb among the foundations
CELLS: Final = ("n", "w", "e", "s")


@dataclass(frozen=True, slots=True)
class Move:
    kind: Kind
    # index into FOUNDATIONS (kinds F and X) or CELLS (kind C); None = first that fits
    target: int | None = None
    place: int | None = None  # kind X only: the cross place (index into CELLS) the card leaves

    def __str__(self) -> str:
        return self.notation

    @property
    def notation(self) -> str:
        if self.kind is Kind.CROSS:
            place = f"X@{CELLS[self.place or 0]}"
            return place if self.target is None else f"{place}@{FOUNDATIONS[self.target]}"
        if self.target is None:
            text: str = self.kind.value
            return text
        names = FOUNDATIONS if self.kind is Kind.FOUNDATION else CELLS
        return f"{self.kind.value}@{names[self.target]}"


DRAW: Final = Move(Kind.DRAW)
REDEAL: Final = Move(Kind.REDEAL)
TO_FOUNDATION: Final = tuple(Move(Kind.FOUNDATION, i) for i in range(len(FOUNDATIONS)))
TO_CELL: Final = tuple(Move(Kind.CELL, i) for i in range(len(CELLS)))
ALL_MOVES: Final = (
    DRAW, REDEAL, Move(Kind.FOUNDATION), *TO_FOUNDATION, Move(Kind.CELL), *TO_CELL,
)
# CROSS_TO[place][foundation]: the resolved cross moves, built once (the hot path allocates none).
CROSS_TO: Final = tuple(
    tuple(Move(Kind.CROSS, f, place) for f in range(len(FOUNDATIONS)))
    for place in range(len(CELLS))
)
CROSS_MOVES: Final = tuple(
    move
    for place in range(len(CELLS))
    for move in (Move(Kind.CROSS, None, place), *CROSS_TO[place])
)
_MOVE_BY_TEXT: Final = {move.notation.lower(): move for move in (*ALL_MOVES, *CROSS_MOVES)}


def parse_move(text: object) -> Move:
    """One move in RULES.md notation (case and surrounding spaces ignored)."""
    if not isinstance(text, str):
        raise InvalidNotation("a move must be text such as D, R, F, F@tomb, C, C@n or X@n")
    move = _MOVE_BY_TEXT.get(text.strip().lower())
    if move is None:
        raise InvalidNotation(
            f"{echo(text)} is not a move "
            "(use D, R, F, F@nw/ne/sw/se/tomb, C, C@n/w/e/s or X@n/w/e/s)"
        )
    return move


def parse_moves(text: object) -> list[Move]:
    """A space-separated move list, as in logs and the command line."""
    if not isinstance(text, str):
        raise InvalidNotation("a move list must be text such as \"D F C@n\"")
    return [parse_move(word) for word in text.split()]


def format_moves(moves: list[Move]) -> str:
    return " ".join(move.notation for move in moves)
