"""The solver's Celery tasks under a real worker, with Redis as broker and
result store (no eager mode): JSON in, JSON out, the same answer twice."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from patience.tomb import new_game, to_record
from solver_worker import tasks

HERE = Path(__file__).parent
ROOT = HERE.parent.parent


def redis_up() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url("redis://127.0.0.1:6379/14").ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="module")
def worker() -> Iterator[object]:
    if not redis_up():
        if os.environ.get("CI"):
            pytest.fail("Redis must run on CI")
        pytest.skip("Redis is not running")
    from solver_celery_app import app

    app.control.purge()
    env = {**os.environ, "PYTHONPATH": f"{HERE}{os.pathsep}{ROOT}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "solver_celery_app", "worker",
         "--pool=solo", "--concurrency=1", "--loglevel=WARNING", "-Q", "solver-test"],
        cwd=HERE, env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=1.0):
            assert process.poll() is None, "the worker exited"
            assert time.monotonic() < deadline, "the worker did not answer a ping"
        yield app
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_hint_task_answers_through_the_worker(worker: object) -> None:
    record = to_record(new_game(5, "three-card"))
    first = tasks.hint_task.delay(record).get(timeout=60)
    again = tasks.hint_task.delay(record).get(timeout=60)
    assert first["verdict"] == "winnable" and first["move"] == "D"
    assert first == again  # idempotent: a retry gives the same answer


def test_screen_task_proves_a_deal_winnable(worker: object) -> None:
    answer = tasks.screen_deal.delay(
        {"seed": 2026_11_29, "variant": "three-card"}, 20.0, 1
    ).get(timeout=300)
    assert answer["winnable"] is True and answer["line_length"] > 52
    assert 0.0 <= answer["difficulty"] <= 1.0


def test_fair_hint_task_gives_a_move_and_a_chance(worker: object) -> None:
    record = to_record(new_game(5, "three-card"))
    answer = tasks.fair_hint_task.delay(record, 2.0).get(timeout=60)
    assert answer["move"] in {"D", "F", "C"} or answer["move"].startswith(("F@", "C@"))
    assert 0.0 <= answer["chance"] <= 1.0


def test_a_bad_record_is_a_clear_error_not_a_hang(worker: object) -> None:
    result = tasks.hint_task.delay({"format": 1, "cards": ["AS"]})
    with pytest.raises(ValueError):
        result.get(timeout=60, propagate=True)
