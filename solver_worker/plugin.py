"""What the solver knows of one game, as one object its package exports: its search
and its blind players (the rating ladder plays the game's rule players). The registry
in ``solver_worker.games`` lists these objects, one line a game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .blind import BlindGame
from .driver import Result

Solve = Callable[..., Result]


@dataclass(frozen=True, slots=True)
class GameSolver:
    game: str  # the game's slug in patience's registry
    solve: Solve  # solve(position, budget, **options) -> Result, on the one driver
    blind: BlindGame | None = None  # the blind players' knowledge (None: no fair hint)
