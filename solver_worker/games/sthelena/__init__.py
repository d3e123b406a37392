"""St. Helena's search (``search``: its state, pruning, dead test and forced
moves, each with its argument) and its blind players' knowledge (``blind``)."""

from __future__ import annotations

from .search import solve

__all__ = ["solve"]
