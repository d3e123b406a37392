"""Each game's search, by the game's slug: ``solve(position, budget) -> Result``.

A game's package (``solver_worker/games/<game>/``, its C core if any beside
it) holds its pruning, dead test and forced moves (each with its written
argument) on the one driver in ``solver_worker.driver``; the service and the
Celery tasks reach a game's search only through ``solve_position``.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any, Final

from patience import all_variants, rules_of

from ..blind import BlindGame
from ..driver import Budget, Result
from ..plugin import GameSolver, Solve
from . import klondike, sthelena, tomb, twodeck

# The registry: one line a game (its package's GameSolver).
GAME_SOLVERS: Final[tuple[GameSolver, ...]] = (
    tomb.SOLVER,
    sthelena.SOLVER,
    klondike.SOLVER,
    twodeck.SOLVER,
)

SOLVERS: Final[dict[str, Solve]] = {solver.game: solver.solve for solver in GAME_SOLVERS}


def solve_takes(variant: str, option: str) -> bool:
    """Whether the search of the variant's game takes ``option`` (an offline option such as
    ``restart_share`` that only some games' searches have)."""
    return option in inspect.signature(SOLVERS[rules_of(variant).slug]).parameters


def solve_position(position: Any, budget: Budget, **options: Any) -> Result:
    """Decide a position of any registered game: won (with a line), lost or unknown.

    ``options`` (such as ``greedy_share``) go to the game's own ``solve``."""
    result: Result = SOLVERS[rules_of(position.variant.slug).slug](position, budget, **options)
    return result


# Each game's knowledge for the blind players (solver_worker.players), by the
# game's slug; a variant's slug may stand beside it where a variant needs its own (the
# Tomb's three variants share one object, which branches on the traditional cross).
BLIND: Final[dict[str, BlindGame]] = {
    solver.game: solver.blind for solver in GAME_SOLVERS if solver.blind is not None}


def blind_of(position: Any) -> BlindGame:
    """The blind players' knowledge of the position's variant or game (KeyError: none)."""
    return blind_of_variant(position.variant.slug)


def blind_of_variant(slug: str) -> BlindGame:
    knowledge = BLIND.get(slug)
    return knowledge if knowledge is not None else BLIND[rules_of(slug).slug]


def has_blind(variant: str) -> bool:
    return variant in BLIND or rules_of(variant).slug in BLIND


def blind_variants() -> list[str]:
    """The slugs of the variants whose game has blind knowledge, sorted."""
    return sorted(variant.slug for _, variant in all_variants() if has_blind(variant.slug))


def player_words(variant: str) -> Mapping[str, str]:
    """What each of the variant's rule players does, in words (msgids); {} without any
    (a variant no game registers included: a kept run may outlive its variant)."""
    known = any(found.slug == variant for _, found in all_variants())
    return blind_of_variant(variant).player_words(variant) if known and has_blind(variant) else {}
