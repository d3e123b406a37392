"""Celery tasks of the races: the end at the time limit, the deal pool, the beat sweep.

All idempotent: a race ends once (under its row lock), a pool overfilled by a few
seeds costs nothing, the sweep only does what is due. All late-acked (a run lost with
its worker runs again), each ending well within the broker's visibility timeout.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from game.tasks import TRANSIENT_ERRORS

from . import actions
from .models import Race, State

_RETRY = {"autoretry_for": TRANSIENT_ERRORS, "retry_backoff": 5, "retry_backoff_max": 300,
          "retry_jitter": True, "max_retries": 5}


@shared_task(name="races.finish_race", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, soft_time_limit=60, time_limit=90, **_RETRY)
def finish_race(code: str) -> bool:
    """Scheduled at the race's ends_at (a no-op if it ended before, or is not yet due)."""
    return actions.do_finish_race(code)


@shared_task(name="races.fill_pool", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, soft_time_limit=600, time_limit=660, **_RETRY)
def fill_pool(variant: str | None = None) -> int:
    """Screen deals until each variant's pool is full (one variant, or all of them)."""
    chosen = [variant] if variant else actions.pool_variants()
    return sum(actions.do_fill_pool(slug) for slug in chosen)


@shared_task(name="races.sweep", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, soft_time_limit=120, time_limit=150, **_RETRY)
def sweep() -> int:
    """Beat job: end races past their time limit (a lost task), close forgotten lobbies.
    Returns how many rooms it changed."""
    now = timezone.now()
    changed = 0
    for code in Race.objects.filter(state=State.RUNNING, ends_at__lte=now).values_list(
            "code", flat=True)[:500]:
        changed += actions.do_finish_race(code)
    quiet = now - timedelta(seconds=settings.RACE_LOBBY_EMPTY_SECONDS)
    for race in Race.objects.filter(state=State.LOBBY, created_at__lte=quiet)[:500]:
        changed += actions.do_close_if_abandoned(race, now)
    return changed
