"""Celery tasks of the daily challenge: the beat job that makes dailies ahead, and rating."""

from __future__ import annotations

from celery import shared_task

from . import dailies


@shared_task(name="leaderboards.make_dailies", ignore_result=True, acks_late=True)
def make_dailies(days_ahead: int | None = None, variants: list[str] | None = None) -> int:
    """Beat job (settings.CELERY_BEAT_SCHEDULE): idempotent, safe to run concurrently."""
    from django.conf import settings

    ahead = settings.DAILY_DAYS_AHEAD if days_ahead is None else days_ahead
    return len(dailies.make_dailies(ahead, variants))


@shared_task(
    name="leaderboards.rate_daily", ignore_result=True, acks_late=True,
    soft_time_limit=3600, time_limit=3660,
)
def rate_daily(daily_id: int) -> None:
    dailies.rate_daily(daily_id)
