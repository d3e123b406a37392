"""The two-deck Tomb's search (``search``: its state, its classes of lateral moves, its
pruning, each with its argument) and its blind players' knowledge (``blind``)."""

from __future__ import annotations

from ...plugin import GameSolver
from .blind import TWO_DECK_BLIND
from .search import solve

SOLVER = GameSolver("two-deck-tomb", solve, TWO_DECK_BLIND)

__all__ = ["SOLVER", "solve"]
