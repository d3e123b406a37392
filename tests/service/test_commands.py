"""Management commands: make dailies ahead, re-screen a day, export results as CSV."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from game.models import Game
from leaderboards import dailies
from leaderboards.days import candidate_seed, today
from leaderboards.models import Attempt, Daily, Review, Standing

pytestmark = pytest.mark.django_db
PAST = date(2026, 11, 1)


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def played(daily: Daily, name: str, **figures: Any) -> Attempt:
    user = User.objects.get_or_create(username=name)[0]
    game = Game.objects.create(id=uuid.uuid4(), variant=daily.variant, seeded=True, cards="",
                               owner=user, ranked=True)
    return Attempt.objects.create(daily=daily, game=game, user=user, ranked=True, **figures)


@pytest.fixture
def unprovable(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """A screener that proves every seed winnable but those in the returned set."""
    refused: set[int] = set()

    def screen(seed: int, variant: str, budget_s: float, games: int = 0) -> dict[str, Any]:
        winnable = seed not in refused
        return {"winnable": winnable, "verdict": "won" if winnable else "unknown",
                "line_length": 90 if winnable else None, "difficulty": None}

    monkeypatch.setattr(dailies, "screen", screen)
    return refused


# -- make_dailies ---------------------------------------------------------------

def test_make_dailies_makes_today_and_the_days_ahead_once(screened: list[Any]) -> None:
    out, _ = run("make_dailies", "--days", "2", "--variant", "classic")
    again, _ = run("make_dailies", "--days", "2", "--variant", "classic")

    days = sorted(Daily.objects.filter(variant="classic").values_list("date", flat=True))
    assert days == [today() + timedelta(days=n) for n in range(3)]
    assert out.count("classic: candidate ") == 3 and again == out
    assert len(screened) == 3  # the second run screened nothing
    with pytest.raises(CommandError, match="0 or more"):
        run("make_dailies", "--days", "-1")
    with pytest.raises(CommandError):
        run("make_dailies", "--days", "0", "--variant", "spider")


# -- rescreen_day --------------------------------------------------------------------

def test_rescreen_keeps_a_daily_still_proved_winnable(solver_screened: None) -> None:
    """The real solver, on today's real daily."""
    daily = dailies.make_daily(today(), "three-card")
    assert daily is not None

    out, _ = run("rescreen_day", today().isoformat(), "--variant", "three-card")

    kept = Daily.objects.get(pk=daily.pk)
    assert "three-card: kept: still proved winnable" in out
    assert (kept.seed, kept.candidate) == (daily.seed, daily.candidate)
    assert kept.line_length and kept.line_length > 52


def test_rescreen_replaces_an_unplayed_daily_no_longer_proved(unprovable: set[int]) -> None:
    day = today() + timedelta(days=1)
    daily = dailies.make_daily(day, "three-card")
    assert daily is not None
    unprovable.add(daily.seed)

    out, _ = run("rescreen_day", day.isoformat(), "--variant", "three-card")

    replaced = Daily.objects.get(pk=daily.pk)
    assert (f"replaced: candidate {daily.candidate}: no longer proved winnable (unknown); "
            f"now candidate {replaced.candidate} ({replaced.band})") in out
    assert replaced.candidate != daily.candidate
    assert replaced.seed == candidate_seed(day, "three-card", replaced.candidate)
    assert replaced.band in replaced.wanted_bands.split(",") and replaced.difficulty is None


def test_a_rotated_daily_secret_changes_made_dailies_only_when_reseeded(
    screened: list[Any], settings: Any
) -> None:
    today_daily = dailies.make_daily(today(), "three-card")
    ahead = dailies.make_daily(today() + timedelta(days=1), "three-card")
    assert today_daily is not None and ahead is not None
    settings.DAILY_SECRET = settings.DAILY_SECRET_OWN = "rotated-" + "q7Wm2xKp" * 5

    dailies.make_daily(today(), "three-card")  # the hourly job, after the rotation
    kept = Daily.objects.get(pk=ahead.pk).seed
    out, _ = run("rescreen_day", ahead.date.isoformat(), "--variant", "three-card", "--reseed")
    with pytest.raises(CommandError):
        run("rescreen_day", today().isoformat(), "--variant", "three-card", "--reseed")

    assert kept == ahead.seed and Daily.objects.get(pk=today_daily.pk).seed == today_daily.seed
    reseeded = Daily.objects.get(pk=ahead.pk)
    assert "reseeded from the current DAILY_SECRET; now candidate" in out
    assert reseeded.seed == candidate_seed(ahead.date, "three-card", reseeded.candidate)
    assert reseeded.seed != ahead.seed


def test_rescreen_refuses_to_change_a_day_already_played(unprovable: set[int]) -> None:
    tomorrow = today() + timedelta(days=1)
    daily = Daily.objects.create(date=tomorrow, variant="classic", seed=4242, candidate=0)
    played(daily, "erin", home=30)
    unprovable.add(4242)

    with pytest.raises(CommandError, match="could not be re-screened"):
        run("rescreen_day", tomorrow.isoformat(), "--variant", "classic")

    assert Daily.objects.get(pk=daily.pk).seed == 4242


@pytest.mark.parametrize("day", [today(), PAST])
def test_rescreen_never_changes_an_open_or_past_day(unprovable: set[int], day: date) -> None:
    # Nobody has an attempt yet, but from its first minute anyone may start one.
    daily = Daily.objects.create(date=day, variant="classic", seed=4343, candidate=0)
    unprovable.add(4343)

    with pytest.raises(CommandError, match="could not be re-screened"):
        run("rescreen_day", day.isoformat(), "--variant", "classic")

    assert Daily.objects.get(pk=daily.pk).seed == 4343


def test_rescreen_reports_each_variant_and_makes_a_missing_daily(screened: list[Any]) -> None:
    day = today() + timedelta(days=3)
    Daily.objects.create(date=day, variant="classic", seed=77, candidate=0)

    out, _ = run("rescreen_day", day.isoformat())

    assert f"{day} three-card: made: had no daily; made candidate " in out
    assert f"{day} classic: kept" in out
    assert f"{day} st-helena: made: had no daily; made candidate " in out
    assert Daily.objects.filter(date=day).count() == len(dailies.daily_variants())


@pytest.mark.parametrize("args", [["2026-13-01"], ["tomorrow"], [str(PAST), "--variant", "x"],
                                  [str(PAST), "--budget", "0"]])
def test_rescreen_refuses_bad_arguments(args: list[str], screened: list[Any]) -> None:
    with pytest.raises(CommandError):
        run("rescreen_day", *args)
    assert not Daily.objects.exists() and not screened


# -- export_results ---------------------------------------------------------------

@pytest.fixture
def season() -> None:
    first = Daily.objects.create(date=PAST, variant="three-card", seed=1, candidate=0)
    second = Daily.objects.create(date=PAST + timedelta(days=1), variant="three-card", seed=2,
                                  candidate=0)
    classic = Daily.objects.create(date=PAST, variant="classic", seed=3, candidate=0)
    played(first, "erin", status="won", home=52, time_ms=125_500, moves=140, undos=3)
    played(first, "frank", status="won", home=52, time_ms=99_000, moves=120, hints=2,
           assisted=True)
    played(first, "grace", status="lost", home=31, time_ms=50_000, moves=80)
    played(second, "erin", status="playing", home=12, time_ms=20_000, moves=30)
    played(classic, "frank", status="lost", home=40, time_ms=70_000, moves=60)
    Standing.objects.create(user=User.objects.get(username="grace"), unranked=True)
    Attempt.objects.filter(daily=second).update(flags="device", review=Review.PENDING)


def test_export_writes_every_ranked_result_in_board_order(season: None) -> None:
    out, err = run("export_results")

    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(row["date"], row["variant"], row["player"]) for row in rows] == [
        ("2026-11-01", "classic", "frank"),
        ("2026-11-01", "three-card", "erin"),  # unassisted before assisted
        ("2026-11-01", "three-card", "frank"),
        ("2026-11-01", "three-card", "grace"),
        ("2026-11-02", "three-card", "erin"),
    ]
    erin = rows[1]
    assert erin == {"date": "2026-11-01", "variant": "three-card", "player": "erin",
                    "on_boards": "yes", "status": "won", "cards_home": "52", "won": "yes",
                    "assisted": "no", "hints": "0", "seconds": "125.500", "moves": "140",
                    "undos": "3"}
    assert rows[2]["assisted"] == "yes" and rows[3]["on_boards"] == "no"
    assert rows[4]["on_boards"] == "no"  # held for review
    assert "5 result(s) exported" in err


def test_export_filters_by_variant_and_days_into_a_file(season: None, tmp_path: Path) -> None:
    target = tmp_path / "results.csv"

    run("export_results", "--variant", "three-card", "--from", "2026-11-02", "--to",
        "2026-11-30", "--output", str(target))

    rows = list(csv.DictReader(target.open()))
    assert [(row["date"], row["player"], row["won"]) for row in rows] == [
        ("2026-11-02", "erin", "no")]


@pytest.mark.parametrize("args", [["--variant", "spider"], ["--from", "2026-11-31"],
                                  ["--from", "2026-11-05", "--to", "2026-11-01"]])
def test_export_refuses_bad_arguments(args: list[str]) -> None:
    with pytest.raises(CommandError):
        run("export_results", *args)


def test_export_runs_as_manage_py_runs_it_with_the_system_checks(season: None) -> None:
    # manage.py runs Django's system checks (BaseCommand.check) before handle();
    # call_command skips them unless asked, so the other tests would not see a
    # command that overrides the hook.
    out, err = io.StringIO(), io.StringIO()
    call_command("export_results", "--variant", "classic", skip_checks=False,
                 stdout=out, stderr=err)

    assert "1 result(s) exported" in err.getvalue()


def test_no_project_command_overrides_the_system_check_hook() -> None:
    from django.core.management import get_commands, load_command_class
    from django.core.management.base import BaseCommand

    ours = {name: app for name, app in get_commands().items()
            if app.split(".")[0] in ("game", "leaderboards", "accounts", "tombsite")}
    assert "export_results" in ours
    for name, app in ours.items():
        assert type(load_command_class(app, name)).check is BaseCommand.check, name
