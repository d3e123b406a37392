"""The finishing line: the rest of a game when it plays itself.

A game "plays itself" when every card not yet home can go home in order with no
choice left to the player: the stock is empty (so no unseen card decides
anything) and sending the top waste card home, again and again, with the cells'
automatic moves, brings all 52 cards home. Which corner an F takes is no choice
that matters (corners are interchangeable, RULES.md), so the line uses plain
``F`` resolved to the first fitting corner.

Why the stock must be empty: while it holds cards the player has not seen,
whether the rest goes home without a choice depends on their order, and
offering Finish would tell the player something about that order. Turning the
stock (D) or the waste over (R) is also a choice against parking. So Finish is
offered from the moment the last card has been turned and the waste, read from
its top down, goes home card by card. This holds for ranked dailies too: the
line reveals nothing the player cannot see, and it is the only way to play on.

The traditional cross has no automatic moves, so its line plays the cross
cards itself: once the stock is empty every card left is in view (the waste
and the cross), and the line sends home first any cross card that fits (its
place refills from the waste top), else the top waste card. Offered when that
takes all 52 home; it shows nothing the player has not seen.
"""

from __future__ import annotations

from ..cards import DECK_SIZE
from ..protocol import Status
from .moves import Kind, Move
from .position import Position

HOME: Move = Move(Kind.FOUNDATION)


def finishing_line(position: Position) -> list[Move] | None:
    """The moves (targets resolved) that take every remaining card home, or None when
    the rest of the game is not forced (or the game is over). ``position`` is not changed."""
    if position.stock or position.status is not Status.PLAYING:
        return None
    if position.variant.cross:
        return _cross_line(position)
    twin = position.copy()
    start = len(twin.history)
    while twin.waste:
        if twin.fitting_foundation_of_top() < 0:
            return None
        twin.apply(HOME)
    if twin.home != DECK_SIZE:
        return None  # a card is stuck in a cell (cannot happen once the waste is empty
        # and the cells have settled, but the rule is the 52 cards, not the waste)
    return [step[0] for step in twin.history[start:]]


def can_finish(position: Position) -> bool:
    return finishing_line(position) is not None


def _cross_line(position: Position) -> list[Move] | None:
    twin = position.copy()
    start = len(twin.history)
    while twin.home != DECK_SIZE:
        move = next((m for m in twin.legal_moves() if m.kind is Kind.CROSS), None)
        if move is None and twin.fitting_foundation_of_top() >= 0:
            move = HOME
        if move is None:
            return None
        twin.apply(move)
    return [step[0] for step in twin.history[start:]]
