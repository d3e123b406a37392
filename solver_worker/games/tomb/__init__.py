"""Napoleon's Tomb's search, by variant: the classic and 3-card deals go to the
Tomb's own search (the compiled core when it is built), the traditional cross,
whose cross places follow other rules, to its search on the driver.

The package: ``search`` (the classic and 3-card search; ``_core.c`` beside it is
the same search in C), ``relaxation`` (the dead test both searches share),
``cross`` (the traditional cross's search) and ``blind`` (the blind players'
knowledge of all three variants)."""

from __future__ import annotations

from patience.tomb import Position

from ...driver import GREEDY_SHARE, Budget, Result
from ...plugin import GameSolver
from . import cross, search
from .blind import TOMB_BLIND


def solve(position: Position, budget: Budget, greedy_share: float = GREEDY_SHARE) -> Result:
    if position.variant.cross:
        return cross.solve(position, budget, greedy_share=greedy_share)
    return search.solve(position, budget, greedy_share=greedy_share)


SOLVER = GameSolver("napoleons-tomb", solve, TOMB_BLIND)
