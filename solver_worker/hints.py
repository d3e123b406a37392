"""Hints (RULES.md, "Hint"): the next move of a winning line while the solver
finds one, otherwise a sensible move that does not end the game at once. A position
the offline book has decided (``book``) answers from it, without a search.

Game-agnostic: the line comes from the game's search (``games.solve_position``),
and "sensible" is read from the view's ``paths`` and the roles of the table's
piles (``patience.protocol.Pile.role``), which every game gives.
"""

from __future__ import annotations

from typing import Any, Final

from patience import Status, rules_of

from . import book
from .driver import Budget
from .games import solve_position

DEFAULT_BUDGET_S: Final = 0.6


def hint(position: Any, budget_s: float = DEFAULT_BUDGET_S) -> dict[str, Any]:
    """``{"move", "verdict", "line_length"}``; verdict is winnable, lost,
    unknown, or won (the game is over). Names no card at all."""
    status = position.status
    if status is not Status.PLAYING:
        return {"move": None, "verdict": status.value, "line_length": None}
    known = book.look_up(position)
    if known is not None and known["verdict"] == "winnable":
        return known
    if known is not None:  # a proved lost deal: a sensible move, as after a search
        return {"move": sensible_move(position), "verdict": "lost", "line_length": None}
    result = solve_position(position, Budget(seconds=budget_s))
    if result.verdict == "won":
        return {"move": result.line[0], "verdict": "winnable", "line_length": len(result.line)}
    return {"move": sensible_move(position), "verdict": result.verdict, "line_length": None}


def sensible_move(position: Any) -> str | None:
    """A legal move that leaves the game going, best first: a card home, turn
    cards, turn the waste over, a move between piles, a card into a cell (in
    Napoleon's Tomb: F and X, D, R, C). Falls back to the first when every
    legal move ends the game."""
    ranked = sorted(position.legal_moves(), key=_preference_of(position))
    for move in ranked:
        trial = position.copy()
        trial.apply(move)
        if trial.status is not Status.LOST:
            return str(move.notation)
    return str(ranked[0].notation) if ranked else None


def _preference_of(position: Any) -> Any:
    """Each legal move's rank by the roles of the piles it goes from and to."""
    rules = rules_of(position.variant.slug)
    roles = {pile.name: pile.role for pile in rules.table(position.variant).piles}
    paths = rules.visible_view(position)["paths"]

    def preference(move: Any) -> int:
        found = paths.get(move.notation)
        source, target = ("", "") if found is None else (
            roles.get(found["from"], ""), roles.get(found["to"], ""))
        if target == "foundation":
            return 0
        if source == "stock":
            return 1
        if target == "stock":
            return 2
        return 4 if target == "cell" else 3

    return preference
