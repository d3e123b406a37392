"""Moves and their notation (RULES-KLONDIKE.md, "Moves" and "The stock").

``D`` turns the stock (one card or three), ``R`` turns the waste back into the
stock. Every other move names where it lifts from and where it lands:
``w`` the waste, ``t1``..``t7`` the columns, ``f1``..``f4`` the foundations
(clubs, spades, hearts, diamonds, the order of ``patience.cards``), as
``<from>-<to>``; a run of n >= 2 cards from a column adds ``x<n>``
(``t4-t6x3``). A move's text is the same before and after it is played, is
case-insensitive on input and round-trips through ``parse_move``.

Every move object exists once, built here: ``legal_moves`` hands out these
shared objects, so the hot path allocates none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from ..errors import InvalidNotation, echo

COLUMNS: Final = tuple(f"t{number}" for number in range(1, 8))
FOUNDATIONS: Final = ("f1", "f2", "f3", "f4")
WASTE: Final = "w"
COLUMN_COUNT: Final = len(COLUMNS)
FOUNDATION_COUNT: Final = len(FOUNDATIONS)
# The longest run a column can hold face up: King down to ace.
MAX_RUN: Final = 13


class Kind(Enum):
    TURN = "D"
    REDEAL = "R"
    WASTE_TO_FOUNDATION = "w-f"
    WASTE_TO_COLUMN = "w-t"
    COLUMN_TO_FOUNDATION = "t-f"
    COLUMN_TO_COLUMN = "t-t"
    FOUNDATION_TO_COLUMN = "f-t"


@dataclass(frozen=True, slots=True)
class Move:
    """A move. ``source`` and ``target`` index the columns (0..6) or the foundations
    (0..3) as the kind says; the waste and the stock need no index (-1)."""

    kind: Kind
    source: int = -1
    target: int = -1
    count: int = 1  # cards lifted as one: more than 1 only for a column-to-column run

    def __str__(self) -> str:
        return self.notation

    @property
    def notation(self) -> str:
        kind = self.kind
        if kind is Kind.TURN or kind is Kind.REDEAL:
            return str(kind.value)
        return f"{self.source_name}-{self.target_name}" + (
            f"x{self.count}" if self.count > 1 else ""
        )

    @property
    def source_name(self) -> str:
        """The notation's name of the place the move lifts from (``w``, ``t3``, ``f1``)."""
        kind = self.kind
        if kind is Kind.WASTE_TO_FOUNDATION or kind is Kind.WASTE_TO_COLUMN:
            return WASTE
        return FOUNDATIONS[self.source] if kind is Kind.FOUNDATION_TO_COLUMN else COLUMNS[
            self.source]

    @property
    def target_name(self) -> str:
        kind = self.kind
        if kind is Kind.WASTE_TO_FOUNDATION or kind is Kind.COLUMN_TO_FOUNDATION:
            return FOUNDATIONS[self.target]
        return COLUMNS[self.target]


TURN: Final = Move(Kind.TURN)
REDEAL: Final = Move(Kind.REDEAL)
WASTE_HOME: Final = tuple(Move(Kind.WASTE_TO_FOUNDATION, target=f)
                          for f in range(FOUNDATION_COUNT))
WASTE_TO: Final = tuple(Move(Kind.WASTE_TO_COLUMN, target=t) for t in range(COLUMN_COUNT))
# COLUMN_HOME[column][foundation]
COLUMN_HOME: Final = tuple(
    tuple(Move(Kind.COLUMN_TO_FOUNDATION, t, f) for f in range(FOUNDATION_COUNT))
    for t in range(COLUMN_COUNT)
)
# RUN_MOVES[source][target][count - 1]; a column onto itself is not a move, so that row
# holds placeholders that the notation table leaves out.
RUN_MOVES: Final = tuple(
    tuple(
        tuple(Move(Kind.COLUMN_TO_COLUMN, s, t, n) for n in range(1, MAX_RUN + 1))
        for t in range(COLUMN_COUNT)
    )
    for s in range(COLUMN_COUNT)
)
# FOUNDATION_TO[foundation][column]
FOUNDATION_TO: Final = tuple(
    tuple(Move(Kind.FOUNDATION_TO_COLUMN, f, t) for t in range(COLUMN_COUNT))
    for f in range(FOUNDATION_COUNT)
)


def _every_move() -> tuple[Move, ...]:
    runs = (move for s, row in enumerate(RUN_MOVES) for t, moves in enumerate(row) if s != t
            for move in moves)
    return (
        TURN, REDEAL, *WASTE_HOME, *WASTE_TO, *(m for row in COLUMN_HOME for m in row),
        *runs, *(m for row in FOUNDATION_TO for m in row),
    )


ALL_MOVES: Final = _every_move()
_MOVE_BY_TEXT: Final = {move.notation.lower(): move for move in ALL_MOVES}
_HELP: Final = ("use D, R, or <from>-<to> with w (waste), t1..t7 (columns), f1..f4 "
                "(foundations), like w-t3, t2-f1, or t4-t6x3 for a run of 3")


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
        raise InvalidNotation('a move list must be text such as "D w-t3 t2-f1"')
    return [parse_move(word) for word in text.split()]


def format_moves(moves: Iterable[Move]) -> str:
    return " ".join(move.notation for move in moves)
