"""Each game's search, by the game's slug: ``solve(position, budget) -> Result``.

A game's module holds its pruning, dead test and forced moves (each with its
written argument) on the one driver in ``solver_worker.driver``; the service
and the Celery tasks reach a game's search only through ``solve_position``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from patience import all_variants, rules_of

from ..blind import BlindGame
from ..driver import Budget, Result
from . import sthelena, tomb
from .blind_sthelena import STHELENA_BLIND
from .blind_tomb import TOMB_BLIND

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


# Each game's knowledge for the blind players (solver_worker.players), by slug.
BLIND: Final[dict[str, BlindGame]] = {
    "napoleons-tomb": TOMB_BLIND,
    "st-helena": STHELENA_BLIND,
}


def blind_of(position: Any) -> BlindGame:
    """The blind players' knowledge of the position's game (KeyError: none yet)."""
    return BLIND[rules_of(position.variant.slug).slug]


def blind_variants() -> list[str]:
    """The slugs of the variants whose game has blind knowledge, sorted."""
    return sorted(variant.slug for rules, variant in all_variants() if rules.slug in BLIND)
