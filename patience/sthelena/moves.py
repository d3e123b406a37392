"""Moves and their notation: ``D``, ``R``, ``P@<pile>@<foundation>``, ``P@<pile>@<pile>``.

Every move names its source and target in full, so a move's text is the same
before and after it is played and round-trips through ``parse_move``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from ..errors import InvalidNotation, echo


class Kind(Enum):
    DEAL = "D"
    REDEAL = "R"
    HOME = "H"  # a pile's top card to a foundation
    BUILD = "B"  # a pile's top card onto another pile's top card


PILES: Final = tuple(f"p{number}" for number in range(1, 13))
FOUNDATIONS: Final = ("k1", "k2", "k3", "k4", "a1", "a2", "a3", "a4")
PILE_COUNT: Final = len(PILES)
FOUNDATION_COUNT: Final = len(FOUNDATIONS)


@dataclass(frozen=True, slots=True)
class Move:
    kind: Kind
    source: int = -1  # pile index (HOME, BUILD)
    target: int = -1  # foundation index (HOME) or pile index (BUILD)

    def __str__(self) -> str:
        return self.notation

    @property
    def notation(self) -> str:
        if self.kind is Kind.HOME:
            return f"P@{PILES[self.source]}@{FOUNDATIONS[self.target]}"
        if self.kind is Kind.BUILD:
            return f"P@{PILES[self.source]}@{PILES[self.target]}"
        return str(self.kind.value)


DEAL: Final = Move(Kind.DEAL)
REDEAL: Final = Move(Kind.REDEAL)
HOME_MOVES: Final = tuple(
    tuple(Move(Kind.HOME, pile, f) for f in range(FOUNDATION_COUNT)) for pile in range(PILE_COUNT)
)
BUILD_MOVES: Final = tuple(
    tuple(Move(Kind.BUILD, pile, to) for to in range(PILE_COUNT)) for pile in range(PILE_COUNT)
)
_MOVE_BY_TEXT: Final = {
    move.notation.lower(): move
    for move in (
        DEAL, REDEAL, *(m for row in HOME_MOVES for m in row),
        *(m for row in BUILD_MOVES for m in row if m.source != m.target),
    )
}
_HELP: Final = "use D, R, P@<pile>@<foundation> like P@p5@k2, or P@<pile>@<pile> like P@p3@p7"


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
        raise InvalidNotation('a move list must be text such as "D P@p5@k2"')
    return [parse_move(word) for word in text.split()]


def format_moves(moves: list[Move]) -> str:
    return " ".join(move.notation for move in moves)
