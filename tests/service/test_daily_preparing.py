"""A daily is never made inside a request: the page answers at once, shows the maker's
progress, and shows the deal once it is ready (leaderboards.preparing)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.db import close_old_connections

from leaderboards import dailies, preparing, tasks
from leaderboards.days import candidate_seed, today
from leaderboards.models import Daily
from solver_worker.rating import BANDS
from tombsite.lifespan import StartsDailyMaker

from .conftest import Browser


def winnable_from(first: int, during: Any = None) -> Any:
    """A screener that proves candidates from ``first`` on winnable; ``during(index)``
    runs while a candidate is being screened."""
    def screen(seed: int, variant: str, budget_s: float, games: int = 0) -> dict[str, Any]:
        index = next(i for i in range(99) if candidate_seed(today(), variant, i) == seed)
        if during is not None:
            during(index)
        return {"winnable": index >= first, "line_length": 90}
    return screen


@pytest.mark.django_db
def test_the_worker_is_asked_and_the_page_shows_its_progress_then_the_deal(
    carol_browser: Browser, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # production: a worker takes the task
    settings.DAILY_PREPARE = "task"
    asked: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.make_daily, "delay", lambda *args: asked.append(args))

    page = carol_browser.get("/napoleons-tomb/three-card/daily/")
    api = carol_browser.get("/api/daily/three-card/")
    play = carol_browser.post("/api/daily/three-card/play/")

    html = page.content.decode()
    assert page.status_code == 200 and "being prepared" in html
    assert 'id="prepare-progress"' in html and 'http-equiv="refresh"' in html
    assert 'id="play-daily"' not in html and "closes" in html  # the countdown still runs
    assert api.status_code == 503 and api["Retry-After"] == "5"
    assert api.json()["progress"] == {"started": False, "screened": 0,
                                      "candidates": settings.DAILY_MAX_CANDIDATES,
                                      "budget_s": settings.DAILY_SCREEN_BUDGET_SECONDS}
    assert play.status_code == 503 and "being prepared" in play.json()["error"]
    assert asked == [(today().isoformat(), "three-card")]  # once, however many ask

    seen: list[dict[str, Any]] = []

    def during(index: int) -> None:  # a request while the worker screens candidate 2
        if index == 2:
            seen.append(carol_browser.get("/api/daily/three-card/").json())

    monkeypatch.setattr(dailies, "screen", winnable_from(3, during))
    # Any band will do today: every candidate is screened in order (the bands have tests
    # of their own), so the progress can be read at candidate 2.
    monkeypatch.setattr(dailies, "wanted_bands", lambda day: BANDS)
    tasks.make_daily(*asked[0])  # what the worker does with it

    assert seen[0]["progress"]["screened"] == 2 and seen[0]["progress"]["started"]
    assert "seed" not in str(seen) and "cards" not in seen[0]
    ready = carol_browser.get("/napoleons-tomb/three-card/daily/").content.decode()
    assert 'id="play-daily"' in ready and "being prepared" not in ready
    assert Daily.objects.get(date=today(), variant="three-card").candidate == 3


@pytest.mark.django_db(transaction=True)
def test_the_background_maker_makes_it_while_the_page_answers(
    alice: Browser, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.DAILY_PREPARE = "thread"  # the embedded default's maker thread
    release = threading.Event()
    monkeypatch.setattr(dailies, "screen", winnable_from(
        0, lambda index: release.wait(10)))

    started = time.monotonic()
    waiting = alice.get("/napoleons-tomb/three-card/daily/")
    answered_s = time.monotonic() - started
    release.set()
    deadline = time.monotonic() + 10
    while not Daily.objects.filter(date=today(), variant="three-card").exists():
        assert time.monotonic() < deadline, "the maker thread made no daily"
        time.sleep(0.05)
        close_old_connections()

    assert waiting.status_code == 200 and b"being prepared" in waiting.content
    assert answered_s < 5  # it did not wait for the screening it started
    assert b"being prepared" not in alice.get("/napoleons-tomb/three-card/daily/").content


def test_the_maker_wakes_an_hour_before_midnight(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.DAILY_PREPARE_AHEAD_SECONDS = 3600
    monkeypatch.setattr(preparing, "today", lambda: date(2026, 11, 30))

    def at(hour: int, minute: int = 0) -> float:
        return datetime(2026, 11, 30, hour, minute, tzinfo=UTC).timestamp()

    assert preparing.seconds_to_next_run(at(12)) == 11 * 3600
    assert preparing.seconds_to_next_run(at(23, 30)) == 23.5 * 3600  # tomorrow's 23:00


@pytest.mark.asyncio
async def test_the_lifespan_start_up_starts_the_maker_only_on_the_embedded_default(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[bool] = []
    monkeypatch.setattr(preparing, "_ahead_forever", lambda: started.append(True))
    monkeypatch.setattr(preparing, "_timer", None)
    settings.DAILY_PREPARE = "task"  # production: beat makes them ahead
    assert preparing.start_background_maker() is False

    settings.DAILY_PREPARE = "thread"
    messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    sent: list[dict[str, Any]] = []

    async def receive() -> Any:
        return next(messages)

    async def send(message: Any) -> None:
        sent.append(message)

    async def no_app(*args: Any) -> None:
        raise AssertionError("lifespan messages never reach the router")

    await StartsDailyMaker(no_app)({"type": "lifespan"}, receive, send)
    for _ in range(100):
        if started:
            break
        time.sleep(0.01)

    assert [m["type"] for m in sent] == ["lifespan.startup.complete",
                                        "lifespan.shutdown.complete"]
    assert started == [True] and preparing.start_background_maker() is False  # once
