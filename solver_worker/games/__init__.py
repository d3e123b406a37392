"""Each game's search, by the game's slug: ``solve(position, budget) -> Result``.

A game's module holds its pruning, dead test and forced moves (each with its
written argument) on the one driver in ``solver_worker.driver``; the service
and the Celery tasks reach a game's search only through ``solve_position``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from patience import rules_of

from ..driver import Budget, Result
from . import sthelena, tomb

Solve = Callable[..., Any]

SOLVERS: Final[dict[str, Solve]] = {
    "napoleons-tomb": tomb.solve,
    "st-helena": sthelena.solve,
}


def solve_position(position: Any, budget: Budget, **options: Any) -> Result:
    """Decide a position of any registered game: won (with a line), lost or unknown.

    ``options`` (such as ``greedy_share``) go to the game's own ``solve``."""
    result: Result = SOLVERS[rules_of(position.variant.slug).slug](position, budget, **options)
    return result
