"""Klondike's search (``search``: its state, talon plays, pruning, dead test and
forced move, each with its argument) and its blind players' knowledge (``blind``)."""

from __future__ import annotations

from ...plugin import GameSolver
from .blind import KLONDIKE_BLIND
from .search import solve

SOLVER = GameSolver("klondike", solve, KLONDIKE_BLIND)

__all__ = ["SOLVER", "solve"]
