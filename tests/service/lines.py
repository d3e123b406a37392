"""Winning lines for the tests, from the real solver."""

from __future__ import annotations

from functools import cache

from patience.tomb import Position, deal_from_seed, get_variant, new_game
from solver_worker.games.tomb.search import Budget, solve


@cache
def winning_line(deal: int, variant: str = "three-card") -> tuple[str, ...]:
    """The solver's winning line for a deal (the tests use deals it wins fast)."""
    result = solve(new_game(deal, variant), Budget(seconds=30))
    assert result.verdict == "won", f"deal {deal} ({variant}) was not won: {result.verdict}"
    return tuple(result.line)


@cache
def seeded_line(seed: int, variant: str = "three-card") -> tuple[str, ...]:
    """The solver's winning line for a private (daily) deal."""
    position = Position(deal_from_seed(seed), get_variant(variant))
    result = solve(position, Budget(seconds=30))
    assert result.verdict == "won", f"seed {seed} ({variant}) was not won: {result.verdict}"
    return tuple(result.line)
