"""Making the daily deals: screen the day's candidate seeds, store the first proved winnable.

Safe to run twice or on two workers at once: every maker tries the same
candidates in the same order, and the row is written with get_or_create on
the (date, variant) unique constraint, so a second maker gets the first one's
row. The difficulty (the blind player's games, minutes on classic) is left to
a follow-up task so the daily is playable as soon as it is proved winnable.
"""

from __future__ import annotations

import logging
import math
import time
from datetime import date, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.module_loading import import_string

from game.engine import get_variant

from .days import candidate_seeds, today
from .models import Daily

log = logging.getLogger(__name__)


class NoWinnableDeal(RuntimeError):
    """No candidate of the day was proved winnable within the budgets: a bug or a budget
    too small, never a case to paper over with an unscreened deal."""


def screen(seed: int, variant: str, budget_s: float, games: int = 0) -> dict[str, Any]:
    screener = import_string(settings.DAILY_SCREENER.replace(":", "."))
    return dict(screener({"seed": seed, "variant": variant}, budget_s, games))


def find_winnable(
    day: date, variant: str, deadline: float | None = None
) -> tuple[int, int, dict[str, Any]] | None:
    """(index, seed, verdict) of the day's first winnable candidate; None when the
    deadline (time.monotonic) cut a screening short."""
    full = settings.DAILY_SCREEN_BUDGET_SECONDS
    for index, seed in candidate_seeds(day, variant):
        left = math.inf if deadline is None else deadline - time.monotonic()
        if left <= 0:
            return None
        budget = min(full, left)
        cut = budget < full
        note_progress(day, variant, index)
        answer = screen(seed, variant, budget)
        if answer.get("winnable"):
            return index, seed, answer
        if cut:
            # Undecided only for want of time: stop rather than skip a
            # candidate another maker, with the full budget, would take.
            return None
    raise NoWinnableDeal(f"no winnable {variant} deal among the candidates of {day}")


PROGRESS_KEEP_S = 24 * 60 * 60


def _progress_key(day: date, variant: str) -> str:
    return f"daily-progress:{day.isoformat()}:{variant}"


def note_progress(day: date, variant: str, screened: int) -> None:
    """How many candidates the maker has screened so far (the page's progress): in the
    cache, which the web process shares with the worker (Redis) or the maker thread."""
    cache.set(_progress_key(day, variant), screened, PROGRESS_KEEP_S)


def progress(day: date, variant: str) -> dict[str, Any]:
    """What the page says while the daily is being made; no seed, no card."""
    screened = cache.get(_progress_key(day, variant))
    return {"started": screened is not None, "screened": screened or 0,
            "candidates": settings.DAILY_MAX_CANDIDATES,
            "budget_s": settings.DAILY_SCREEN_BUDGET_SECONDS}


def make_daily(day: date, variant: str, *, deadline_s: float | None = None) -> Daily | None:
    """The day's daily, made if missing; None if ``deadline_s`` ran out first."""
    existing = Daily.objects.filter(date=day, variant=variant).first()
    if existing is not None:
        return existing
    deadline = None if deadline_s is None else time.monotonic() + deadline_s
    found = find_winnable(day, variant, deadline)
    if found is None:
        return None
    index, seed, answer = found
    daily, created = Daily.objects.get_or_create(date=day, variant=variant, defaults={
        "seed": seed, "candidate": index, "line_length": answer.get("line_length"),
    })
    if created:
        log.info("made the %s daily of %s (candidate %d)", variant, day, index)
        transaction.on_commit(partial(ask_for_rating, daily.pk))
    return daily


def make_dailies(days_ahead: int, variants: list[str] | None = None) -> list[Daily]:
    """Today's dailies and the next ``days_ahead`` days', for each variant."""
    first = today()
    chosen = [get_variant(slug).slug for slug in variants or settings.DAILY_VARIANTS]
    made = [
        daily
        for offset in range(days_ahead + 1)
        for variant in chosen
        if (daily := make_daily(first + timedelta(days=offset), variant)) is not None
    ]
    # Catch up ratings a lost task never stored.
    for daily in made:
        if daily.difficulty is None:
            ask_for_rating(daily.pk)
    return made


def ask_for_rating(daily_id: int) -> None:
    if settings.DAILY_DIFFICULTY_GAMES > 0:
        from .tasks import rate_daily  # the task module imports this one

        rate_daily.delay(daily_id)


def rate_daily(daily_id: int) -> Daily | None:
    """Play the blind player on the daily and store its difficulty (once)."""
    daily = Daily.objects.filter(pk=daily_id, difficulty__isnull=True).first()
    if daily is None:
        return None
    answer = screen(daily.seed, daily.variant, settings.DAILY_SCREEN_BUDGET_SECONDS,
                    settings.DAILY_DIFFICULTY_GAMES)
    if answer.get("difficulty") is None:
        return None
    Daily.objects.filter(pk=daily_id, difficulty__isnull=True).update(
        difficulty=answer["difficulty"], sampling_win_rate=answer.get("sampling_win_rate"),
    )
    return Daily.objects.get(pk=daily_id)
