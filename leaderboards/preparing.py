"""Today's daily for a request, made outside requests: a request never waits on the solver.

``todays_daily`` reads the row, or has it made elsewhere and answers at once with
DailyNotReady (503 with the maker's progress).

Production: a request that finds no daily asks the slow worker (one task per day and
variant a minute, deduplicated in the cache), and beat makes dailies days ahead.
Embedded default (no worker; tasks would run eagerly inside the request): one
background maker thread in the server process takes the jobs in order, one at a
time so a screening leaves the other core to the requests. It makes today's and
tomorrow's dailies at start-up (ASGI lifespan: the server process only, never a
manage.py command or a test) and again an hour before each UTC midnight
(settings.DAILY_PREPARE_AHEAD_SECONDS). Two makers of one daily are harmless
anyway: the (date, variant) unique constraint keeps the first one's row.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection
from django.utils.translation import gettext, gettext_lazy

from game.actions import ActionError, GameNotFound
from game.names import variant_name

from . import dailies, tasks
from .days import day_end, today
from .models import Daily

log = logging.getLogger(__name__)
Job = tuple[date, str]
ASK_AGAIN_S = 60  # production: a missing daily asks the worker at most once a minute

_jobs: queue.Queue[Job] = queue.Queue()
_queued: set[Job] = set()
_lock = threading.Lock()
_maker: threading.Thread | None = None
_timer: threading.Thread | None = None


PREPARING = gettext_lazy("today's deal is being prepared: the solver is proving it winnable")


class DailyNotReady(ActionError):
    """Today's daily is still being screened: try again shortly. ``progress`` says how far
    the maker has got (dailies.progress)."""

    status = 503

    def __init__(self, message: str, progress: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.progress = progress or {}


def todays_daily(variant: Any) -> Daily:
    """Today's daily of a variant (a registered variant object); never screened here: a
    missing one is handed to the background maker (prepare) and the request answers at
    once with DailyNotReady."""
    day = today()
    daily = Daily.objects.filter(date=day, variant=variant.slug).first()
    if daily is not None:
        return daily
    prepare(day, variant.slug)
    # The unit layer's eager task has made it by now; elsewhere it is under way.
    daily = Daily.objects.filter(date=day, variant=variant.slug).first()
    if daily is None:
        raise DailyNotReady(str(PREPARING), dailies.progress(day, variant.slug))
    return daily


def daily_of(day: date, variant: Any) -> Daily:
    """A day's daily (today's made if missing, as todays_daily); 404 for a past day
    that had none."""
    if day == today():
        return todays_daily(variant)
    daily = Daily.objects.filter(date=day, variant=variant.slug).first()
    if daily is None:
        raise GameNotFound(gettext("there was no %(variant)s daily on %(day)s") % {
            "variant": variant_name(variant), "day": day})
    return daily


def prepare(day: date, variant: str) -> None:
    """Have the day's daily made elsewhere; returns at once."""
    if settings.DAILY_PREPARE == "thread":
        enqueue(day, variant)
    elif cache.add(f"daily-asked:{day}:{variant}", 1, ASK_AGAIN_S):
        tasks.make_daily.delay(day.isoformat(), variant)


def enqueue(day: date, variant: str) -> None:
    """Queue a job for the background maker (once while it waits or runs)."""
    global _maker
    with _lock:
        if (day, variant) in _queued:
            return
        _queued.add((day, variant))
        _jobs.put((day, variant))
        if _maker is None or not _maker.is_alive():
            _maker = threading.Thread(target=_make_forever, name="daily-maker", daemon=True)
            _maker.start()


def _make_forever() -> None:
    while True:
        day, variant = _jobs.get()
        try:
            close_old_connections()
            tasks.make_and_rate(day, variant)
        except Exception:  # a failed job must not stop the maker; the next ask retries
            log.exception("making the %s daily of %s failed", variant, day)
        finally:
            connection.close()  # this thread's own connection
            with _lock:
                _queued.discard((day, variant))


def start_background_maker() -> bool:
    """At the server's start-up (embedded default only): today's and tomorrow's dailies
    now, and tomorrow's again an hour before each midnight. True if it started."""
    global _timer
    if settings.DAILY_PREPARE != "thread" or not settings.DAILY_PREPARE_AT_START:
        return False
    with _lock:
        if _timer is not None:
            return False
        _timer = threading.Thread(target=_ahead_forever, name="daily-timer", daemon=True)
    _timer.start()
    return True


def _ahead_forever() -> None:
    while True:
        first = today()
        for offset in (0, 1):
            for variant in dailies.daily_variants():
                enqueue(first + timedelta(days=offset), variant)
        time.sleep(seconds_to_next_run(time.time()))


def seconds_to_next_run(now: float) -> float:
    """Until DAILY_PREPARE_AHEAD_SECONDS before the next UTC midnight (or the one after,
    when that moment has passed today)."""
    ahead = float(settings.DAILY_PREPARE_AHEAD_SECONDS)
    midnight = day_end(today()).timestamp()
    wake = midnight - ahead
    if wake <= now:
        wake += 24 * 60 * 60
    return wake - now
