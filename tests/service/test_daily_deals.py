"""Daily deals: secret seeds, screened by the solver, made ahead (idempotently) or when
first asked for, by the worker (test_daily_preparing)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError

from leaderboards import dailies, tasks
from leaderboards.days import candidate_seed, today
from leaderboards.models import Daily
from patience.tomb import deal_from_number, deal_from_seed

from .conftest import Browser

pytestmark = pytest.mark.django_db
DAY = date(2026, 11, 29)


def test_seeds_depend_on_the_secret_the_day_and_the_variant(settings: Any) -> None:
    settings.DAILY_SECRET = "first secret"
    seed = candidate_seed(DAY, "three-card", 0)
    others = {
        candidate_seed(DAY + timedelta(days=1), "three-card", 0),
        candidate_seed(DAY, "classic", 0),
        candidate_seed(DAY, "three-card", 1),
    }
    settings.DAILY_SECRET = "second secret"

    assert seed not in others | {candidate_seed(DAY, "three-card", 0)}
    assert 0 <= seed < 2**63 and len(others) == 3


def test_a_daily_is_a_private_deal_not_a_public_number(screened: Any) -> None:
    daily = dailies.make_daily(DAY, "three-card")

    assert daily is not None and daily.deal().seeded and daily.deal().number is None
    # Its order is none of the public deals a player could look up by its first cards.
    firsts = {tuple(deal_from_number(n).texts[:6]) for n in range(1, 2001)}
    assert tuple(daily.deal().texts[:6]) not in firsts


def test_only_a_deal_proved_winnable_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    verdicts = iter(["unknown", "lost", "won"])
    asked: list[int] = []

    def screen(seed: int, variant: str, budget_s: float, games: int = 0) -> dict[str, Any]:
        verdict = next(verdicts)
        asked.append(seed)
        return {"winnable": verdict == "won", "verdict": verdict, "line_length": 77}

    monkeypatch.setattr(dailies, "screen", screen)
    daily = dailies.make_daily(DAY, "classic")

    # The third candidate of the weekday's band screened, the first proved winnable.
    assert daily is not None and len(asked) == 3
    assert daily.seed == asked[2] == candidate_seed(DAY, "classic", daily.candidate)
    assert daily.band in dailies.wanted_bands(DAY)
    assert daily.line_length == 77 and daily.difficulty is None


def test_no_winnable_candidate_is_an_error_not_an_unscreened_deal(
    monkeypatch: pytest.MonkeyPatch, settings: Any, db: Any
) -> None:
    settings.DAILY_MAX_CANDIDATES = 3
    monkeypatch.setattr(dailies, "screen", lambda *args, **kwargs: {"winnable": False})

    with pytest.raises(dailies.NoWinnableDeal):
        dailies.make_daily(DAY, "classic")
    assert not Daily.objects.exists()


def test_the_real_solver_screens_a_three_card_daily(solver_screened: None, db: Any) -> None:
    daily = dailies.make_daily(DAY, "three-card")

    assert daily is not None and daily.line_length
    deal = deal_from_seed(daily.seed)
    assert deal.texts == daily.deal().texts and len(set(deal.texts)) == 52


def test_making_dailies_twice_leaves_one_per_day_and_variant(screened: list[Any]) -> None:
    first = tasks.make_dailies.delay(2).get()
    seeds = dict(Daily.objects.values_list("date", "seed").order_by("date", "variant"))
    screenings = len(screened)

    second = tasks.make_dailies.delay(2).get()

    made = 3 * len(dailies.daily_variants())  # today and two days ahead, every variant
    assert first == second == made
    assert Daily.objects.count() == made
    assert dict(Daily.objects.values_list("date", "seed").order_by("date", "variant")) == seeds
    assert len(screened) == screenings  # the second run screened nothing


def test_a_maker_that_loses_the_race_takes_the_winners_daily(
    screened: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another worker stores the day's daily while this one is screening.
    real_find = dailies.find_winnable

    def find_then_lose(day: date, variant: str, deadline: float | None = None) -> Any:
        found = real_find(day, variant, deadline)
        Daily.objects.create(date=day, variant=variant, seed=found.seed, candidate=found.index)
        return found

    monkeypatch.setattr(dailies, "find_winnable", find_then_lose)
    daily = dailies.make_daily(DAY, "three-card")

    assert Daily.objects.filter(date=DAY).count() == 1
    assert daily == Daily.objects.get(date=DAY)


def test_the_database_refuses_a_second_daily_for_a_day(screened: Any) -> None:
    dailies.make_daily(DAY, "three-card")
    with pytest.raises(IntegrityError):
        Daily.objects.create(date=DAY, variant="three-card", seed=1, candidate=0)


def test_the_management_command_makes_days_ahead(screened: Any, capsys: Any) -> None:
    call_command("make_dailies", "--days", "1", "--variant", "three-card")
    call_command("make_dailies", "--days", "1", "--variant", "three-card")

    days = list(Daily.objects.values_list("date", flat=True).order_by("date"))
    assert days == [today(), today() + timedelta(days=1)]
    assert capsys.readouterr().out.count("three-card: candidate ") == 4  # twice, the same two


def test_the_command_refuses_unknown_variants_and_negative_days(screened: Any) -> None:
    with pytest.raises(CommandError, match="variant"):
        call_command("make_dailies", "--variant", "freecell")
    with pytest.raises(CommandError):
        call_command("make_dailies", "--days", "-1")
    assert not Daily.objects.exists()


def test_the_beat_schedule_runs_the_job(settings: Any) -> None:
    jobs = [job["task"] for job in settings.CELERY_BEAT_SCHEDULE.values()]
    assert "leaderboards.make_dailies" in jobs


def test_todays_daily_is_made_on_demand(screened: Any, alice: Browser) -> None:
    response = alice.get("/api/daily/three-card/")

    assert response.status_code == 200
    body = response.json()
    assert body["date"] == today().isoformat() and body["archived"] is False
    assert body["cards"] is None and body["me"] is None and "seed" not in body
    assert Daily.objects.filter(date=today(), variant="three-card").count() == 1


def test_the_difficulty_is_rated_by_a_follow_up_task(
    screened: list[dict[str, Any]], settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # (The integration layer rates a daily with the real blind player.)
    settings.DAILY_DIFFICULTY_GAMES = 2
    with django_capture_on_commit_callbacks(execute=True):
        tasks.make_daily(DAY.isoformat(), "three-card")  # what the worker does: make, ask

    daily = Daily.objects.get(date=DAY, variant="three-card")
    assert (daily.difficulty, daily.sampling_win_rate) == (0.25, 0.75)
    # The daily was playable first: made without blind games, rated after.
    assert [call["games"] for call in screened] == [0, 2]
    # Rated once: a second rating finds nothing to do.
    assert dailies.rate_daily(daily.pk) is None and len(screened) == 2


def test_the_hourly_catch_up_asks_for_each_rating_once_then_backs_off(
    screened: list[dict[str, Any]], settings: Any, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # A rating takes up to an hour on the one slow worker: the hourly job must not queue
    # it again while it may still be waiting or running.
    settings.DAILY_DIFFICULTY_GAMES = 2
    asked: list[int] = []
    monkeypatch.setattr(tasks.rate_daily, "delay", asked.append)

    def hourly_job() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            tasks.make_dailies.delay(0, ["three-card"]).get()

    hourly_job()
    hourly_job()
    hourly_job()

    daily = Daily.objects.get()
    assert asked == [daily.pk]
    # Once the wait is over (the rating was lost with its worker), asked again, and the
    # next wait is twice as long.
    from django.core.cache import cache

    cache.delete(f"daily-rating-wait:{daily.pk}")
    hourly_job()
    assert asked == [daily.pk, daily.pk]
    assert [dailies.rating_retry_after(n) for n in (1, 2, 3, 5, 9)] == [
        7200, 14400, 28800, 86400, 86400]
