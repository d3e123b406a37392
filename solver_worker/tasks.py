"""Screening a deal for the daily challenge: the service's ``DAILY_SCREENER``.

``screen`` is a pure function of its arguments (a deal spec and budgets), so
a retry or a duplicate call gives the same answer and writes nothing; the
caller (``leaderboards.dailies``, from its own Celery tasks) stores results.
The solver has no Celery task of its own: the service asks it through the
game app's and the leaderboards' tasks (``game.answer_hint`` calls
``hints.hint`` and ``players.fair_hint``; the dailies call ``screen``), so
that is where the tests drive it.
"""

from __future__ import annotations

from typing import Any, Final

from patience import DEFAULT_GAME, rules_of, variant_of

from .driver import Budget
from .games import solve_position
from .players import play_game

SCREEN_BUDGET_S: Final = 60.0
DIFFICULTY_GAMES: Final = 4


def deal_of(spec: dict[str, Any]) -> Any:
    """``{"seed": s}`` (private daily deals) or ``{"deal": n}`` (public numbers), for
    the spec's variant (default: the default game's default variant)."""
    rules = rules_of(spec.get("variant", DEFAULT_GAME.default_variant.slug))
    if "seed" in spec:
        return rules.deal_from_seed(int(spec["seed"]))
    return rules.deal_from_number(spec["deal"])


def screen(spec: dict[str, Any], budget_s: float = SCREEN_BUDGET_S,
           games: int = DIFFICULTY_GAMES) -> dict[str, Any]:
    """Is the deal winnable (proved by a line), and how hard is it for a
    player who cannot see the stock (the sampling player's win rate)?"""
    slug = spec.get("variant", DEFAULT_GAME.default_variant.slug)
    rules, variant = rules_of(slug), variant_of(slug)
    deal = deal_of(spec)
    result = solve_position(rules.new_game(deal, variant), Budget(seconds=budget_s))
    answer: dict[str, Any] = {
        "variant": variant.slug, "verdict": result.verdict,
        "winnable": result.verdict == "won", "line_length": len(result.line) or None,
        "nodes": result.nodes, "ms": round(result.ms, 1), "difficulty": None,
    }
    if result.verdict == "won" and games > 0:
        wins = sum(
            play_game(0, variant.slug, "sampling", seed=seed,
                      position=rules.new_game(deal, variant)).result == "won"
            for seed in range(games)
        )
        answer["difficulty"] = round(1 - wins / games, 3)
        answer["sampling_win_rate"] = round(wins / games, 3)
    return answer
