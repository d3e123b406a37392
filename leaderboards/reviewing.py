"""Where the fair-play judge runs when a ranked result ends (settings.FAIR_PLAY_REVIEW).

* ``task`` (production): the slow queue's Celery task ``leaderboards.judge_result``,
  early-acked like the daily's rating (a judgement lost with its worker is made
  again by the hourly sweep of results not yet judged).
* ``thread`` (the embedded default, no worker): one background thread of the server
  process takes the results in order, so a request never waits on the solver.
* ``inline``: at once, in the committing request (the unit tests).
* ``off``: not at all (tests whose players are scripted solvers by construction).
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection
from django.dispatch import receiver

from . import hooks, judging, tasks

log = logging.getLogger(__name__)

_results: queue.Queue[str] = queue.Queue()
_lock = threading.Lock()
_judge: threading.Thread | None = None


@receiver(hooks.ranked_result_ended, dispatch_uid="leaderboards.judge_result")
def ask_for_judgement(sender: Any, game_id: str, **kwargs: Any) -> None:
    """Runs on commit of the ending move: a failure here (the broker down) must not turn
    the player's acknowledged move into an error; the hourly sweep judges it later."""
    mode = settings.FAIR_PLAY_REVIEW
    try:
        if mode == "task":
            tasks.judge_result.delay(game_id)
        elif mode == "thread":
            _enqueue(game_id)
        elif mode == "inline":
            judging.judge_result(game_id)
    except Exception:
        log.exception("the fair-play judgement of game %s was not started", game_id)


def _enqueue(game_id: str) -> None:
    global _judge
    with _lock:
        _results.put(game_id)
        if _judge is None or not _judge.is_alive():
            _judge = threading.Thread(target=_judge_forever, name="fair-play-judge",
                                      daemon=True)
            _judge.start()


def _judge_forever() -> None:
    while True:
        game_id = _results.get()
        try:
            close_old_connections()
            judging.judge_result(game_id)
        except Exception:  # one bad judgement must not stop the next ones
            log.exception("judging the ranked result of game %s failed", game_id)
        finally:
            connection.close()  # this thread's own connection
            _results.task_done()


def wait_for_judgements() -> None:
    """Until the background judge has nothing left (tests and benches of the thread)."""
    _results.join()
