"""The one writer of ``Daily`` rows: a day's deal stored, replaced, kept or rated.

The choosing (the candidate loop, screening, rating) is ``leaderboards.dailies``;
this module only stores what it chose, so every path that makes or changes a daily
(the beat job, the background maker, ``rescreen_day``) writes the same fields.
"""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from django.db import transaction

from ..models import Daily

log = logging.getLogger(__name__)


def do_store_daily(day: date, variant: str, fields: dict[str, Any]) -> tuple[Daily, bool]:
    """Store the day's daily: (row, created). A second maker of the same day (another
    worker, the maker thread) gets the first one's row: the (date, variant) unique
    constraint decides, so the beat job is safe to run twice at once."""
    daily, created = Daily.objects.get_or_create(date=day, variant=variant, defaults=fields)
    if created:
        log.info("made the %s daily of %s (candidate %d, %s)", variant, day,
                 daily.candidate, daily.band or "not rated")
    return daily, created


class Played(Exception):
    """The daily has attempts: its deal can no longer change."""


def do_replace_daily(daily_id: int, fields: dict[str, Any]) -> None:
    """Put another deal on an unplayed daily (its difficulty is measured again). Locked
    and checked here: an attempt started meanwhile keeps the day as it is (Played)."""
    with transaction.atomic():
        locked = Daily.objects.select_for_update().get(pk=daily_id)
        if locked.attempts.exists():
            raise Played(f"{locked} has attempts")
        Daily.objects.filter(pk=daily_id).update(
            **fields, difficulty=None, sampling_win_rate=None)


def do_note_line(daily_id: int, line_length: int | None) -> None:
    """A re-screening proved the daily again: keep its new line's length."""
    Daily.objects.filter(pk=daily_id).update(line_length=line_length)


def do_store_rating(daily_id: int, rate: float, games: int, band: str) -> None:
    """The graded rating of a daily made before it existed (once)."""
    Daily.objects.filter(pk=daily_id, rating__isnull=True).update(
        rating=round(rate, 4), rating_games=games, band=band)


def do_store_difficulty(daily_id: int, difficulty: float, sampling_win_rate: Any) -> None:
    """The follow-up blind player's difficulty (once)."""
    Daily.objects.filter(pk=daily_id, difficulty__isnull=True).update(
        difficulty=difficulty, sampling_win_rate=sampling_win_rate)
