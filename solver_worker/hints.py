"""Hints (RULES.md, "Hint"): the next move of a winning line while the solver
finds one, otherwise a sensible move that does not end the game at once.

Any game with a search (``games.SOLVERS``) and blind knowledge
(``games.BLIND``) gets hints: the search gives the winning line, the game's
``hint_order`` says which moves are the most sensible.
"""

from __future__ import annotations

from typing import Any, Final

from patience import Status

from .driver import Budget
from .games import blind_of, solve_position

DEFAULT_BUDGET_S: Final = 0.6


def hint(position: Any, budget_s: float = DEFAULT_BUDGET_S) -> dict[str, Any]:
    """``{"move", "verdict", "line_length"}``; verdict is winnable, lost,
    unknown, or won (the game is over). Names no card at all."""
    status = position.status
    if status is not Status.PLAYING:
        return {"move": None, "verdict": status.value, "line_length": None}
    result = solve_position(position, Budget(seconds=budget_s))
    if result.verdict == "won":
        return {"move": result.line[0], "verdict": "winnable", "line_length": len(result.line)}
    return {"move": sensible_move(position), "verdict": result.verdict, "line_length": None}


def sensible_move(position: Any) -> str | None:
    """A legal move that leaves the game going, in the game's order of sense
    (``BlindGame.hint_order``; the Tomb's: play home, turn, turn over, park).
    Falls back to the most sensible move when every one ends the game."""
    ranked = blind_of(position).hint_order(position)
    for move in ranked:
        trial = position.copy()
        trial.apply(move)
        if trial.status is not Status.LOST:
            return str(move.notation)
    return str(ranked[0].notation) if ranked else None
