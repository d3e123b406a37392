"""Celery tasks of the daily challenge: the beat job that makes dailies ahead, and rating.

Above ``dailies`` (the making) and ``actions`` (the writing), which never import this
module: whoever makes a daily asks here for its follow-up rating (``ask_for_rating``),
so no import runs back up.

Both are early-acked, unlike the hint: they can run longer than the broker's
visibility timeout (settings.CELERY_BROKER_TRANSPORT_OPTIONS), and a late-acked
task that does is handed to a second worker while the first still runs. A run
lost with its worker costs nothing: the hourly beat job makes whatever daily is
missing and asks again for every rating not stored, once per back-off period
(dailies.claim_rating: 2 h, then twice as long each time, at most a day). Both are idempotent (a
daily per day and variant by unique constraint; a rating written once).
"""

from __future__ import annotations

from datetime import date
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import transaction

from game.tasks import TRANSIENT_ERRORS

from . import actions, dailies, judging
from .models import Daily

_EARLY_ACK = {"acks_late": False, "autoretry_for": TRANSIENT_ERRORS, "retry_backoff": 5,
              "retry_backoff_max": 300, "retry_jitter": True, "max_retries": 5}


def ask_for_rating(daily: Daily) -> None:
    """Once the daily's row is committed, the slow worker measures its difficulty
    (a no-op when the site measures none or the variant has no blind players)."""
    if dailies.needs_difficulty(daily) and dailies.claim_rating(daily.pk):
        transaction.on_commit(partial(rate_daily.delay, daily.pk))


def make_and_rate(day: date, variant: str, *, deadline_s: float | None = None) -> Daily | None:
    """The day's daily, made if missing, and its follow-up rating asked for."""
    daily = dailies.make_daily(day, variant, deadline_s=deadline_s)
    if daily is not None:
        ask_for_rating(daily)
    return daily


def make_and_rate_ahead(days_ahead: int, variants: list[str] | None = None) -> list[Daily]:
    """Today's dailies and the next days', each rated (catching up a rating that a lost
    task never stored)."""
    made = dailies.make_dailies(days_ahead, variants)
    for daily in made:
        ask_for_rating(daily)
    return made


@shared_task(name="leaderboards.make_dailies", ignore_result=True,
             soft_time_limit=1800, time_limit=1860, **_EARLY_ACK)
def make_dailies(days_ahead: int | None = None, variants: list[str] | None = None) -> int:
    """Beat job (settings.CELERY_BEAT_SCHEDULE): idempotent, safe to run concurrently."""
    ahead = settings.DAILY_DAYS_AHEAD if days_ahead is None else days_ahead
    return len(make_and_rate_ahead(ahead, variants))


@shared_task(name="leaderboards.make_daily", ignore_result=True,
             soft_time_limit=1800, time_limit=1860, **_EARLY_ACK)
def make_daily(day: str, variant: str) -> None:
    """One day's daily, asked for by a request that found it missing (preparing.prepare)."""
    make_and_rate(date.fromisoformat(day), variant)


@shared_task(name="leaderboards.rate_daily", ignore_result=True,
             soft_time_limit=3600, time_limit=3660, **_EARLY_ACK)
def rate_daily(daily_id: int) -> None:
    dailies.rate_daily(daily_id)


@shared_task(name="leaderboards.judge_result", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, soft_time_limit=300, time_limit=360,
             autoretry_for=TRANSIENT_ERRORS, retry_backoff=5, max_retries=5)
def judge_result(game_id: str) -> None:
    """The fair-play judge on a ranked result that ended (leaderboards.judging). Late-
    acked: a judgement lost with its worker is handed to another (it ends well inside
    the broker's visibility timeout, bounded by FAIR_PLAY_JUDGE_SECONDS), and judging
    twice is harmless (a judged attempt is not judged again)."""
    judging.judge_result(game_id)


@shared_task(name="leaderboards.judge_missed", ignore_result=True,
             soft_time_limit=1800, time_limit=1860, **_EARLY_ACK)
def judge_missed(hours: int = 48) -> int:
    """Beat job, early-acked like the dailies' (it may outlast the visibility timeout):
    judge the ended ranked results of the last ``hours`` that a lost task
    never judged; returns how many were judged."""
    return judging.judge_missed(hours)


@shared_task(name="leaderboards.forget_addresses", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, soft_time_limit=300, time_limit=360)
def forget_addresses() -> int:
    """Beat job: blank address hashes past settings.ATTEMPT_ADDRESS_RETENTION_DAYS.
    One short UPDATE, idempotent: late-acked like the hint, so a lost run runs again."""
    return actions.do_forget_addresses()
