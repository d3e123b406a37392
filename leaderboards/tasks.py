"""Celery tasks of the daily challenge: the beat job that makes dailies ahead, and rating.

Both are early-acked, unlike the hint: they can run longer than the broker's
visibility timeout (settings.CELERY_BROKER_TRANSPORT_OPTIONS), and a late-acked
task that does is handed to a second worker while the first still runs. A run
lost with its worker costs nothing: the hourly beat job makes whatever daily is
missing and asks again for every rating not stored. Both are idempotent (a
daily per day and variant by unique constraint; a rating written once).
"""

from __future__ import annotations

from celery import shared_task

from game.tasks import TRANSIENT_ERRORS

from . import dailies

_EARLY_ACK = {"acks_late": False, "autoretry_for": TRANSIENT_ERRORS, "retry_backoff": 5,
              "retry_backoff_max": 300, "retry_jitter": True, "max_retries": 5}


@shared_task(name="leaderboards.make_dailies", ignore_result=True,
             soft_time_limit=1800, time_limit=1860, **_EARLY_ACK)
def make_dailies(days_ahead: int | None = None, variants: list[str] | None = None) -> int:
    """Beat job (settings.CELERY_BEAT_SCHEDULE): idempotent, safe to run concurrently."""
    from django.conf import settings

    ahead = settings.DAILY_DAYS_AHEAD if days_ahead is None else days_ahead
    return len(dailies.make_dailies(ahead, variants))


@shared_task(name="leaderboards.make_daily", ignore_result=True,
             soft_time_limit=1800, time_limit=1860, **_EARLY_ACK)
def make_daily(day: str, variant: str) -> None:
    """One day's daily, asked for by a request that found it missing (preparing.prepare)."""
    from datetime import date

    dailies.make_daily(date.fromisoformat(day), variant)


@shared_task(name="leaderboards.rate_daily", ignore_result=True,
             soft_time_limit=3600, time_limit=3660, **_EARLY_ACK)
def rate_daily(daily_id: int) -> None:
    dailies.rate_daily(daily_id)


@shared_task(name="leaderboards.forget_addresses", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, soft_time_limit=300, time_limit=360)
def forget_addresses() -> int:
    """Beat job: blank address hashes past settings.ATTEMPT_ADDRESS_RETENTION_DAYS.
    One short UPDATE, idempotent: late-acked like the hint, so a lost run runs again."""
    from . import actions

    return actions.do_forget_addresses()
