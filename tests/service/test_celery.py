"""The Celery settings and tasks hold together: every late-acked task ends before the broker
would hand it to a second worker, solver tasks have time limits, transient failures are
retried with backoff and bad input is not."""

from __future__ import annotations

from typing import Any

import pytest
import redis.exceptions
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from game import hinting
from game.tasks import HINT_FAILED, HINT_TOO_SLOW, MAX_DELIVERIES, answer_hint
from tombsite.celery import app

pytestmark = pytest.mark.django_db
# Early-acked on purpose: longer than the visibility timeout, and re-run by the hourly beat.
EARLY_ACKED = {"leaderboards.make_dailies", "leaderboards.make_daily", "leaderboards.rate_daily",
               "leaderboards.judge_missed"}


def our_tasks() -> dict[str, Any]:
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}


def test_late_acked_tasks_end_before_the_visibility_timeout() -> None:
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    tasks = our_tasks()

    assert "game.answer_hint" in tasks
    for name, task in tasks.items():
        assert task.time_limit and task.soft_time_limit, f"{name} has no time limits"
        assert task.soft_time_limit < task.time_limit
        if name in EARLY_ACKED:
            assert not task.acks_late, name
            continue
        assert task.acks_late and task.reject_on_worker_lost, name
        assert task.time_limit < visibility, f"{name} would be redelivered while running"
    assert app.conf.worker_prefetch_multiplier == 1


def test_a_hint_is_retried_after_a_broker_hiccup(carol_game: dict[str, Any], sent: list[Any],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = hinting.ask_solver

    def flaky(position: Any) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            raise redis.exceptions.ConnectionError("Redis went away")
        return real(position)

    monkeypatch.setattr(hinting, "ask_solver", flaky)

    # throw=False: as under a worker, the retry is handled, not raised to the caller.
    result = answer_hint.apply((carol_game["id"],), throw=False)

    hints = [event for event in sent if event["type"] == "game.hint"]
    assert result.state == "SUCCESS" and len(calls) == 2 and len(hints) == 1
    assert hints[0]["hint"]["move"] == "D" and hints[0]["version"] == carol_game["version"]


def test_bad_input_is_not_retried(carol_game: dict[str, Any], sent: list[Any],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def broken(position: Any) -> dict[str, Any]:
        calls.append(1)
        raise ValueError("a position the solver cannot read")

    monkeypatch.setattr(hinting, "ask_solver", broken)

    result = answer_hint.apply((carol_game["id"],), throw=False)

    assert result.state == "FAILURE" and isinstance(result.result, ValueError)
    assert len(calls) == 1 and not [event for event in sent if event["type"] == "game.hint"]


def test_a_hint_past_its_time_limit_is_a_clear_error(carol_game: dict[str, Any],
                                                     sent: list[Any],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def endless(position: Any) -> dict[str, Any]:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(hinting, "ask_solver", endless)

    answer_hint.apply((carol_game["id"],))

    assert [event for event in sent if event["type"] == "game.hint"] == [
        {"group": carol_game["id"], "type": "game.hint", "version": carol_game["version"],
         "error": HINT_TOO_SLOW}]


def test_a_hint_for_a_game_gone_is_dropped_quietly(sent: list[Any]) -> None:
    answer_hint.apply(("5f0e7b1e-0000-4000-8000-000000000000",))
    assert sent == []


def test_a_hint_that_keeps_killing_its_worker_is_answered_with_an_error(
    carol_game: dict[str, Any], sent: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each delivery of one task (one id) counts; past the limit, no more solver runs."""
    calls: list[int] = []
    real = hinting.ask_solver
    monkeypatch.setattr(hinting, "ask_solver", lambda position: calls.append(1) or real(position))

    for _ in range(MAX_DELIVERIES + 1):
        answer_hint.apply((carol_game["id"],), task_id="one-hint-delivered-again")

    hints = [event for event in sent if event["type"] == "game.hint"]
    assert len(calls) == MAX_DELIVERIES and len(hints) == MAX_DELIVERIES + 1
    assert hints[-1]["error"] == HINT_FAILED and "hint" not in hints[-1]
