"""Asking the solver for a hint, and cutting its answer down to what a client may see.

Used by the actions (a REST hint, answered in the request) and by the hint task
(live play, answered by a worker); it imports neither, so neither imports the
other for it. Any registered game: the solver finds the game's own search, and
the move is read back with the game's own notation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

from patience import DEFAULT_GAME, EngineError, rules_of
from solver_worker.players import fair_hint


def ask_solver(position: Any) -> dict[str, Any]:
    """The solver's hint, reduced to the three fields a client may see."""
    solver = import_string(settings.HINT_SOLVER.replace(":", "."))
    answer = solver(position.copy(), budget_s=settings.HINT_BUDGET_SECONDS)
    return clean_hint(answer, position.variant.slug)


def clean_hint(answer: Mapping[str, Any], variant: str | None = None) -> dict[str, Any]:
    """Only notation, a verdict and a length pass: never a card, whatever the solver says.
    The move is read with the notation of ``variant``'s game (none named: the default
    game's); a move it cannot read is no move."""
    verdict = answer.get("verdict")
    length = answer.get("line_length")
    return {
        "move": _notation(answer.get("move"), variant),
        "verdict": verdict if verdict in ("winnable", "lost", "unknown") else "unknown",
        "line_length": length if isinstance(length, int) and not isinstance(length, bool)
        else None,
    }


def _notation(move: object, variant: str | None) -> str | None:
    if not isinstance(move, str):
        return None
    rules = DEFAULT_GAME if variant is None else rules_of(variant)
    try:
        notation: str = rules.parse_move(move).notation
    except EngineError:
        return None
    return notation


def ask_fair_solver(position: Any) -> dict[str, Any]:
    """The fair hint: the sampling player's move from what the player has seen only."""
    answer = fair_hint(position.copy(), budget_s=settings.FAIR_HINT_BUDGET_SECONDS)
    return clean_fair_hint(answer, position.variant.slug)


def clean_fair_hint(answer: Mapping[str, Any], variant: str | None = None) -> dict[str, Any]:
    """The fair hint as a client sees it: notation, the chance its samples won, and a
    verdict only when exact (the player knows the stock order: after a 3-card redeal)."""
    cleaned = clean_hint({"move": answer.get("move")}, variant)
    chance = answer.get("chance")
    chance = float(chance) if isinstance(chance, int | float) and not isinstance(
        chance, bool) else 0.0
    if answer.get("exact") is True:
        cleaned["verdict"] = "winnable" if chance >= 1 else "lost"
    return {**cleaned, "fair": True, "chance": round(min(max(chance, 0.0), 1.0), 3)}
