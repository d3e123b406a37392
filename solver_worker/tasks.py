"""Celery tasks around the solver: JSON in, JSON out, safe to run twice.

Each task is a pure function of its arguments (a deal or a game record), so a
retry or a duplicate delivery gives the same answer and writes nothing; the
callers store results. That is what makes late acks with reject-on-worker-lost
safe: a task whose worker dies runs again elsewhere. Soft time limits turn a
runaway search into a clear "unknown"; the hard limit is the backstop for a
worker that stops answering. No automatic retries: a search touches no
service that could fail for a while, so an error here is bad input, and
retrying bad input only repeats the error.
"""

from __future__ import annotations

from typing import Any, Final

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from patience.tomb import Deal, Position, deal_from_number, deal_from_seed, from_record, get_variant

from .hints import hint
from .players import fair_hint, play_game
from .search import Budget, solve

SCREEN_BUDGET_S: Final = 60.0
DIFFICULTY_GAMES: Final = 4
HINT_BUDGET_S: Final = 0.6

_RELIABLE: Final[dict[str, Any]] = {"acks_late": True, "reject_on_worker_lost": True}


def deal_of(spec: dict[str, Any]) -> Deal:
    """``{"seed": s}`` (private daily deals) or ``{"deal": n}`` (public numbers)."""
    if "seed" in spec:
        return deal_from_seed(int(spec["seed"]))
    return deal_from_number(spec["deal"])


def screen(spec: dict[str, Any], budget_s: float = SCREEN_BUDGET_S,
           games: int = DIFFICULTY_GAMES) -> dict[str, Any]:
    """Is the deal winnable (proved by a line), and how hard is it for a
    player who cannot see the stock (the sampling player's win rate)?"""
    variant = get_variant(spec.get("variant", "three-card"))
    deal = deal_of(spec)
    result = solve(Position(deal, variant), Budget(seconds=budget_s))
    answer: dict[str, Any] = {
        "variant": variant.slug, "verdict": result.verdict,
        "winnable": result.verdict == "won", "line_length": len(result.line) or None,
        "nodes": result.nodes, "ms": round(result.ms, 1), "difficulty": None,
    }
    if result.verdict == "won" and games > 0:
        wins = sum(
            play_game(0, variant.slug, "sampling", seed=seed,
                      position=Position(deal, variant)).result == "won"
            for seed in range(games)
        )
        answer["difficulty"] = round(1 - wins / games, 3)
        answer["sampling_win_rate"] = round(wins / games, 3)
    return answer


@shared_task(name="solver.screen_deal", soft_time_limit=600, time_limit=660, **_RELIABLE)
def screen_deal(spec: dict[str, Any], budget_s: float = SCREEN_BUDGET_S,
                games: int = DIFFICULTY_GAMES) -> dict[str, Any]:
    try:
        return screen(spec, budget_s, games)
    except SoftTimeLimitExceeded:
        return {"variant": spec.get("variant"), "verdict": "unknown", "winnable": False,
                "line_length": None, "difficulty": None, "timed_out": True}


@shared_task(name="solver.hint", soft_time_limit=5, time_limit=10, **_RELIABLE)
def hint_task(record: dict[str, Any], budget_s: float = HINT_BUDGET_S) -> dict[str, Any]:
    """The hint for a stored game (its engine record); names no card."""
    try:
        return hint(from_record(record), budget_s)
    except SoftTimeLimitExceeded:
        return {"move": None, "verdict": "unknown", "line_length": None, "timed_out": True}


@shared_task(name="solver.fair_hint", soft_time_limit=15, time_limit=20, **_RELIABLE)
def fair_hint_task(record: dict[str, Any], budget_s: float = 3.0) -> dict[str, Any]:
    """The blind (no peeking) hint: the sampling player's move and its chance."""
    try:
        return fair_hint(from_record(record), budget_s=budget_s)
    except SoftTimeLimitExceeded:
        return {"move": None, "chance": None, "verdict": "unknown", "timed_out": True}
