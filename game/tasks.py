"""Celery tasks of the game app: answering hints for live play.

Reliable delivery (settings: late acks, reject on worker lost): a hint whose
worker dies is handed to another worker; the board that asked has its own
timeout (consumers, HINT_TIMEOUT_SECONDS) so it is never left waiting silently.
Answering twice is harmless: the answer names the game version it is for.
"""

from __future__ import annotations

from typing import Final

import redis.exceptions
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.core.cache import cache
from django.db import InterfaceError, OperationalError

from . import events, hinting
from .models import Game

# Failures of the services, not of the request: worth a retry with backoff.
# Bad input (an unknown game, an illegal position) is never retried.
TRANSIENT_ERRORS: Final = (
    redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
    OperationalError, InterfaceError,
)
HINT_TOO_SLOW: Final = "the hint took too long; try again"
HINT_FAILED: Final = "the hint service failed on this position; try again later"
# A task that kills its worker every time (out of memory on one position) would
# be redelivered for ever under reject_on_worker_lost: past this many
# deliveries it is answered with an error instead. Retries keep the task's id
# and count too: the first run and max_retries (4) fit under the limit.
MAX_DELIVERIES: Final = 5


@shared_task(
    name="game.answer_hint", ignore_result=True, acks_late=True, reject_on_worker_lost=True,
    # The solver has its own budget (about a second, a few for the fair hint);
    # these limits catch a search that ignores it, under the prefork pool.
    soft_time_limit=30, time_limit=40,
    autoretry_for=TRANSIENT_ERRORS, retry_backoff=1, retry_backoff_max=20, retry_jitter=True,
    max_retries=4,
)
def answer_hint(game_id: str, fair: bool = False) -> None:
    """Ask the solver about the game's current position and tell its open boards.

    The hint was counted when it was asked for (actions.do_request_hint, which
    enqueues this task: this module never imports the actions); this
    only reads (``fair``: the hint that does not peek at the stock). The answer
    names the version it is for, so a board that has moved on since can ignore it.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    try:
        if delivery_count(answer_hint.request.id) > MAX_DELIVERIES:
            events.send_hint_error(str(game.id), game.version, HINT_FAILED)
            return
        answer(game, fair)
    finally:
        if not answer_hint.request.is_eager:
            events.close_layer()


def delivery_count(task_id: str | None) -> int:
    """How many times this task has started, across workers (the cache is shared Redis)."""
    if task_id is None:
        return 1
    key = f"task-deliveries:{task_id}"
    cache.add(key, 0, 3600)
    return int(cache.incr(key))


def answer(game: Game, fair: bool) -> None:
    position = game.position()
    try:
        hint = hinting.ask_fair_solver(position) if fair else hinting.ask_solver(position)
    except SoftTimeLimitExceeded:
        events.send_hint_error(str(game.id), game.version, HINT_TOO_SLOW)
        return
    events.send_hint(str(game.id), game.version, hint)
