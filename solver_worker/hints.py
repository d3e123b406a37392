"""Hints (RULES.md, "Hint"): the next move of a winning line while the solver
finds one, otherwise a sensible move that does not end the game at once."""

from __future__ import annotations

from typing import Any, Final

from patience.tomb import Kind, Move, Position, Status

from .driver import Budget
from .games import solve_position

DEFAULT_BUDGET_S: Final = 0.6


def hint(position: Position, budget_s: float = DEFAULT_BUDGET_S) -> dict[str, Any]:
    """``{"move", "verdict", "line_length"}``; verdict is winnable, lost,
    unknown, or won (the game is over). Names no card at all."""
    status = position.status
    if status is not Status.PLAYING:
        return {"move": None, "verdict": status.value, "line_length": None}
    result = solve_position(position, Budget(seconds=budget_s))
    if result.verdict == "won":
        return {"move": result.line[0], "verdict": "winnable", "line_length": len(result.line)}
    return {"move": sensible_move(position), "verdict": result.verdict, "line_length": None}


def sensible_move(position: Position) -> str | None:
    """A legal move that leaves the game going, best first: play home, turn,
    turn over, park. Falls back to any legal move when every one ends it."""
    legal = position.legal_moves()
    ranked = sorted(legal, key=_preference)
    for move in ranked:
        trial = position.copy()
        trial.apply(move)
        if trial.status is not Status.LOST:
            return move.notation
    return ranked[0].notation if ranked else None


_KIND_ORDER: Final = {
    Kind.FOUNDATION: 0, Kind.CROSS: 0, Kind.DRAW: 1, Kind.REDEAL: 2, Kind.CELL: 3,
}


def _preference(move: Move) -> int:
    return _KIND_ORDER[move.kind]
