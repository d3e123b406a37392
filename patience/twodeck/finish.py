"""The finishing line: the rest of a game when it plays itself.

Offered only once the stock, the waste piles and the walls are empty: then
every card left is face up in a working place or the centre, so nothing
unseen decides the rest and the line reveals nothing. The line sends a
fitting top card to a base (the first in source order, then base order)
again and again; if that does not take all 104 home (a card may lie under
its own successor), it returns None, which only means Finish is not offered.
Every line it returns is legal and wins.
"""

from __future__ import annotations

from ..protocol import Status
from .deals import CARD_COUNT
from .moves import Move
from .position import Position


def finishing_line(position: Position) -> list[Move] | None:
    if (position.stock or any(position.waste) or any(position.walls)
            or position.status is not Status.PLAYING):
        return None
    twin = position.copy()
    line: list[Move] = []
    while twin.home < CARD_COUNT:
        move = next((m for m in twin.legal_moves() if m.to_base and m.count == 1), None)
        if move is None:
            return None
        twin.apply(move)
        line.append(move)
    return line
