"""Free play's figures and the "winnable deals only" list; game.actions does the writing.

Counting rules (the one place they are decided):

- Only free-play games count: not a daily deal (seeded) and not a ranked attempt.
- A game counts once, the first time it ends: won or lost. Undo after the end
  is for study; the game is not counted again (``Game.tally`` remembers).
- A new free-play deal of the same variant abandons the player's unfinished
  free-play games of that variant that have moves: each counts as a game played
  and lost (the streak breaks), so a streak cannot be kept by walking away from a
  bad deal. A game with no move is not counted at all.
- Records (fastest win, fewest moves) are filed only for wins, and kept apart for
  deals dealt by "winnable deals only" and deals off the pack.
"""

from __future__ import annotations

import secrets
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from patience import rules_of
from patience.protocol import VariantLike

from .clock import game_time_ms
from .models import FreePlayStats, Game, Status
from .names import game_name, variant_name


def winnable_lines(variant: str) -> dict[int, str]:
    """Deal number -> the solver's winning line, from <variant>.txt in the site's
    WINNABLE_DEALS_DIR (the shipped solver_worker/data/winnable/, made by
    scripts/make_winnable_deals.py; every line replayed to a win there). A variant with
    no file has no "winnable deals only" option: the play page does not offer it."""
    return _lines_in(Path(settings.WINNABLE_DEALS_DIR), variant)


def offers_winnable(variant: str) -> bool:
    return bool(winnable_lines(variant))


@cache  # read once per process and directory
def _lines_in(directory: Path, variant: str) -> dict[int, str]:
    path = directory / f"{variant}.txt"
    if not path.exists():
        return {}
    rows = (text.split(" ", 1) for text in path.read_text().splitlines() if text.strip())
    return {int(deal): line for deal, line in rows}


def winnable_deal_number(variant: VariantLike) -> int | None:
    """A proved-won deal of the variant, at random; None if none ships for it."""
    deals = list(winnable_lines(variant.slug))
    return deals[secrets.randbelow(len(deals))] if deals else None


def count_end(stats: FreePlayStats, game: Game) -> list[str]:
    """Count a game's first end on its player's row; returns the records it beat."""
    stats.games += 1
    stats.last_at = game.finished_at
    if game.status != Status.WON:
        stats.streak = 0
        return []
    stats.wins += 1
    stats.streak += 1
    stats.best_streak = max(stats.best_streak, stats.streak)
    beaten = _file_records(stats, game.winnable, game_time_ms(game), game.moves)
    return beaten + _file_best_score(stats, game.winnable, game.score)


def count_abandoned(stats: FreePlayStats, at: Any) -> None:
    stats.games += 1
    stats.streak = 0
    stats.last_at = at


def _file_best_score(stats: FreePlayStats, winnable: bool, score: int | None) -> list[str]:
    """A won game's score, where its game keeps one, against the best of its kind."""
    best = stats.best_score_of(winnable)
    if score is None or (best is not None and score <= best):
        return []
    setattr(stats, "winnable_best_score" if winnable else "best_score", score)
    return ["score"]


def _file_records(stats: FreePlayStats, winnable: bool, time_ms: int, moves: int) -> list[str]:
    prefix = "winnable_" if winnable else ""
    fastest, fewest = stats.records(winnable)
    beaten = []
    if fastest is None or time_ms < fastest:
        setattr(stats, f"{prefix}fastest_ms", time_ms)
        beaten.append("time")
    if fewest is None or moves < fewest:
        setattr(stats, f"{prefix}fewest_moves", moves)
        beaten.append("moves")
    return beaten


def merge(into: FreePlayStats, visitor: FreePlayStats) -> None:
    """A visitor's row joins their account's. Counts add, records take the better,
    and the current streak is that of whichever row played last (the two runs of
    games are not interleaved back into one order)."""
    into.games += visitor.games
    into.wins += visitor.wins
    later = visitor if _later(visitor, into) else into
    into.streak = later.streak
    into.last_at = later.last_at
    into.best_streak = max(into.best_streak, visitor.best_streak)
    for field in ("fastest_ms", "fewest_moves", "winnable_fastest_ms", "winnable_fewest_moves"):
        values = [value for value in (getattr(into, field), getattr(visitor, field))
                  if value is not None]
        setattr(into, field, min(values) if values else None)


def _later(one: FreePlayStats, other: FreePlayStats) -> bool:
    if one.last_at is None:
        return False
    return other.last_at is None or one.last_at > other.last_at


def win_rate(stats: FreePlayStats) -> float:
    return round(stats.wins / stats.games, 4) if stats.games else 0.0


def figures(stats: FreePlayStats | None, game: Game) -> dict[str, Any]:
    """The ``free_play`` field of a finished free-play game's payload (the win overlay
    reads exactly these names)."""
    stats = stats or FreePlayStats(variant=game.variant)
    fastest, fewest = stats.records(game.winnable)
    return {
        "games": stats.games, "wins": stats.wins, "win_rate": win_rate(stats),
        "streak": stats.streak, "best_streak": stats.best_streak,
        "fastest_ms": fastest, "fewest_moves": fewest,
        "best_score": stats.best_score_of(game.winnable), "score": game.score,
        "new_best": game.new_best.split(), "winnable_only": game.winnable,
    }


@cache
def keeps_score(variant: str) -> bool:
    """Whether the variant's game keeps a score (its fresh game has one)."""
    rules = rules_of(variant)
    fresh = rules.new_game(rules.deal_from_number(rules.min_deal), rules.variants[variant])
    return rules.score(fresh) is not None


def summary(stats: FreePlayStats | None, variant: str) -> dict[str, Any]:
    """A variant's free-play figures with both kinds of records: for My statistics."""
    stats = stats or FreePlayStats(variant=variant)
    rules = rules_of(variant)
    return {
        "game": rules.slug, "game_name": game_name(rules), "variant": variant,
        "variant_name": variant_name(rules.variants[variant]),
        "games": stats.games, "wins": stats.wins,
        "win_rate": win_rate(stats), "streak": stats.streak,
        "best_streak": stats.best_streak,
        "scored": keeps_score(variant),
        "records": {
            "any": {"fastest_ms": stats.fastest_ms, "fewest_moves": stats.fewest_moves,
                    "best_score": stats.best_score},
            "winnable": {"fastest_ms": stats.winnable_fastest_ms,
                         "fewest_moves": stats.winnable_fewest_moves,
                         "best_score": stats.winnable_best_score},
        },
    }
