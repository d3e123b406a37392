"""A player's daily statistics: games, wins, streaks, best figures, calendar; free play apart."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from game import actions
from patience.tomb import parse_move

from .conftest import EASY_DEAL, Browser, Clock
from .lines import winning_line

pytestmark = pytest.mark.django_db
DAY_SECONDS = 24 * 60 * 60


def play_days(browser: Browser, clock: Clock, pattern: str) -> None:
    """One character per day from today on: "x" plays the ranked daily, "." skips it."""
    for mark in pattern:
        if mark == "x":
            assert browser.post("/api/daily/three-card/play/").status_code == 201
        clock.tick(DAY_SECONDS)
    clock.tick(-DAY_SECONDS)  # end on the last day of the pattern


def my_stats(browser: Browser, variant: str = "three-card", month: str = "") -> dict[str, Any]:
    query = f"?month={month}" if month else ""
    found = browser.get(f"/api/me/daily-stats/{query}").json()
    return next(entry for entry in found if entry["variant"] == variant)


def test_days_played_in_a_row_count_and_break_on_a_missed_day(
    carol_browser: Browser, screened: Any, clock: Clock
) -> None:
    play_days(carol_browser, clock, "xxx.xx")

    stats = my_stats(carol_browser)

    assert (stats["games"], stats["played_streak"], stats["best_played_streak"]) == (5, 2, 3)
    assert stats["wins"] == 0 and stats["win_rate"] == 0
    assert (stats["current_streak"], stats["best_streak"]) == (0, 0)  # no day won


def test_days_played_in_a_row_lapse_after_a_day_without_the_daily(
    carol_browser: Browser, screened: Any, clock: Clock
) -> None:
    play_days(carol_browser, clock, "xx")
    clock.tick(DAY_SECONDS)
    still = my_stats(carol_browser)["played_streak"]  # today's may still be played
    clock.tick(DAY_SECONDS)

    assert (still, my_stats(carol_browser)["played_streak"]) == (2, 0)
    assert my_stats(carol_browser)["best_played_streak"] == 2


def test_free_play_wins_are_counted_apart_from_daily_wins(
    carol_browser: Browser, carol: User, screened: Any
) -> None:
    player = actions.Player(user_id=carol.pk)
    game = carol_browser.new_game(EASY_DEAL)
    for move in winning_line(EASY_DEAL):
        actions.do_move(game["id"], player, parse_move(move))
    carol_browser.new_game(EASY_DEAL)
    carol_browser.post("/api/daily/three-card/play/")

    stats = my_stats(carol_browser)

    assert (stats["free_play_games"], stats["free_play_wins"]) == (2, 1)
    assert (stats["games"], stats["wins"]) == (1, 0)
    assert my_stats(carol_browser, "classic")["free_play_wins"] == 0


def test_the_calendar_lists_the_months_dailies(
    carol_browser: Browser, screened: Any, clock: Clock
) -> None:
    first = clock.now.date()
    play_days(carol_browser, clock, "x.x")

    days = my_stats(carol_browser, month=first.strftime("%Y-%m"))["calendar"]
    played = {entry["date"] for entry in days}

    expected = {first.isoformat()} | (
        {clock.now.date().isoformat()} if clock.now.month == first.month else set()
    )
    assert played == expected
    assert all(entry["status"] == "playing" and entry["home"] == 0 for entry in days)
    assert my_stats(carol_browser, month="1999-01")["calendar"] == []


def test_my_statistics_cost_three_queries_after_the_login(
    carol_browser: Browser, screened: Any, django_assert_num_queries: Any
) -> None:
    carol_browser.post("/api/daily/three-card/play/")
    with django_assert_num_queries(5):  # session, user; stats, free play, calendar
        assert carol_browser.get("/api/me/daily-stats/").status_code == 200


def test_daily_statistics_need_a_log_in(alice: Browser) -> None:
    assert alice.get("/api/me/daily-stats/").status_code == 403
    assert alice.get("/api/me/daily-stats/?month=2026-13").status_code == 403
    page = alice.get("/me/stats/")  # a visitor sees a way to a first game and to log in
    text = page.content.decode()
    assert page.status_code == 200 and "Play a first game" in text
    assert 'id="calendars"' not in text and "/accounts/login/?next=/me/stats/" in text


def test_the_statistics_page_shows_figures_and_calendar(
    carol_browser: Browser, screened: Any
) -> None:
    carol_browser.post("/api/daily/three-card/play/")

    page = carol_browser.get("/me/stats/").content.decode()

    assert "Dailies played (ranked)" in page and "Free play" in page
    assert 'class="played playing"' in page and "Longest" not in page
    assert carol_browser.get("/me/stats/?month=bad").status_code == 400


@pytest.mark.parametrize("month", ["0001-01", "9999-12", "1899-12", "3000-01"])
def test_a_month_out_of_range_is_refused_not_a_server_error(
    carol_browser: Browser, month: str
) -> None:
    page = carol_browser.get(f"/me/stats/?month={month}")
    api = carol_browser.get(f"/api/me/daily-stats/?month={month}")

    assert page.status_code == 400 and api.status_code == 400
    assert "month must lie between 1900-01 and 2999-12" in api.json()["error"]
