"""St. Helena's search (``search``: its state, pruning, dead test and forced
moves, each with its argument) and its blind players' knowledge (``blind``)."""

from __future__ import annotations

from ...plugin import GameSolver
from .blind import STHELENA_BLIND
from .search import solve

SOLVER = GameSolver("st-helena", solve, STHELENA_BLIND)

__all__ = ["SOLVER", "solve"]
