"""The finishing line: the rest of a game when it plays itself.

St. Helena's rest "plays itself" when the stock is empty and sending pile tops
home, one after another, brings all 104 cards home with no build and no R.
The stock must be empty: while it holds cards (in any round, since after R it
is face down again) the order of what D deals decides the game, and offering
Finish would tell the player something about that order. With the stock
empty every card is face up, so the line reveals nothing.

The line sends the first fitting top (in pile order, then foundation order)
each time. With two copies of a card it may pick the copy whose going home
keeps another card covered, where a different order would finish; then it
returns None, which only means Finish is not offered (the player plays on by
hand). Every line it does return is legal and wins.
"""

from __future__ import annotations

from ..protocol import Status
from .moves import HOME_MOVES, PILE_COUNT, Move
from .position import ALL_FOUNDATIONS, CARD_COUNT, Position


def _next_home(position: Position) -> Move | None:
    for pile in range(PILE_COUNT):
        cards = position.piles[pile]
        if cards:
            for foundation in ALL_FOUNDATIONS:
                if position.fits(cards[-1], foundation):
                    return HOME_MOVES[pile][foundation]
    return None


def finishing_line(position: Position) -> list[Move] | None:
    """The home moves that take every remaining card home, or None when the rest
    is not forced (stock not empty, a build or R needed, or the game is over)."""
    if position.stock or position.status is not Status.PLAYING:
        return None
    twin = position.copy()
    line: list[Move] = []
    while twin.home < CARD_COUNT:
        move = _next_home(twin)
        if move is None:
            return None
        twin.apply(move)
        line.append(move)
    return line
