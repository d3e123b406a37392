"""Napoleon's Tomb's search, by variant: the classic and 3-card deals go to the
Tomb's own search (the compiled core when it is built), the traditional cross,
whose cross places follow other rules, to its search on the driver."""

from __future__ import annotations

from patience.tomb import Position

from .. import search
from ..driver import Budget, Result
from . import cross


def solve(position: Position, budget: Budget, greedy_share: float = search.GREEDY_SHARE) -> Result:
    if position.variant.cross:
        return cross.solve(position, budget, greedy_share=greedy_share)
    return search.solve(position, budget, greedy_share=greedy_share)
