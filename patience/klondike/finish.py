"""The finishing line: the rest of a game when it plays itself (RULES-KLONDIKE.md, "End").

Finish is offered once the stock and the waste are empty and every column
card is face up. Then nothing can go wrong, and nothing unseen decides it:

* the face-up part of every column is one run, descending (``position.py``),
  so each column's lowest card is its last;
* so the lowest card not yet home anywhere is the last card of its column,
  and every lower card of its suit is home: it fits its foundation.

Sending the lowest card home, again and again, therefore takes all 52 home,
lowest ranks first (ties in column order). The line reveals nothing: every
card in it is face up.
"""

from __future__ import annotations

from ..cards import RANK
from ..protocol import Status
from .moves import COLUMN_HOME, Move
from .position import CARD_COUNT, SUIT_SIZE, Position


def can_finish(position: Position) -> bool:
    """Whether the rest plays itself: stock and waste empty, no card face down."""
    return (not position.stock and not position.waste and not any(position.down)
            and position.status is Status.PLAYING)


def finishing_line(position: Position) -> list[Move] | None:
    """The home moves, lowest cards first, that take every remaining card home, or
    None when the rest is not forced yet (or the game is over). ``position`` is unchanged."""
    if not can_finish(position):
        return None
    twin = position.copy()
    line: list[Move] = []
    while twin.home < CARD_COUNT:
        column = min((i for i, cards in enumerate(twin.columns) if cards),
                     key=lambda i: RANK[twin.columns[i][-1]])
        move = COLUMN_HOME[column][twin.columns[column][-1] // SUIT_SIZE]
        twin.apply(move)  # cannot raise: see the module docstring
        line.append(move)
    return line
