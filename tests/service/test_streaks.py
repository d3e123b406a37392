"""The daily streak counts days WON in a row (a missed or lost day ends it), with days
played in a row beside it; the best of each is kept. Edges: UTC midnight, a game
finished after its day closed, a result under fair-play review (it counts, as in the
player's own figures; the boards hold the player back until it is decided)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from game.hooks import game_stored
from game.models import Game, Status
from leaderboards import actions
from leaderboards.models import Attempt, PlayerStats, Review

from .conftest import Browser, Clock
from .lines import seeded_line

pytestmark = pytest.mark.django_db
DAY_S = 24 * 60 * 60
PLAY = "/api/daily/three-card/play/"
PACE_S = 2  # a person's pace: the fair-play check leaves it alone


def todays_line(browser: Browser) -> tuple[str, tuple[str, ...]]:
    """Start today's ranked game: its id and the solver's winning line."""
    game = browser.post(PLAY)
    assert game.status_code == 201, game.content
    attempt = Attempt.objects.get(game_id=game.json()["id"])
    return game.json()["id"], seeded_line(attempt.daily.seed)


def win_today(browser: Browser, clock: Clock) -> None:
    game, line = todays_line(browser)
    for move in line:
        clock.tick(PACE_S)
        assert browser.move(game, move).status_code == 200
    assert Game.objects.get(id=game).status == Status.WON


def streaks(browser: Browser) -> tuple[int, int, int, int]:
    """(days won in a row, best, days played in a row, best) from My statistics' API."""
    found = next(entry for entry in browser.get("/api/me/daily-stats/").json()
                 if entry["variant"] == "three-card")
    return (found["current_streak"], found["best_streak"], found["played_streak"],
            found["best_played_streak"])


def until_midnight(clock: Clock, seconds_before: int) -> None:
    """Move the clock (which starts just after today's midnight) to just before the next."""
    clock.tick(DAY_S - 1 - seconds_before)


def test_days_won_in_a_row_cross_utc_midnight_and_a_missed_day_ends_them(
    carol_browser: Browser, solver_screened: None, clock: Clock
) -> None:
    until_midnight(clock, 600)
    win_today(carol_browser, clock)  # won minutes before midnight: it counts for its day
    clock.tick(600)  # 00:00:01 the next day: yesterday was won, today is still open
    after_midnight = streaks(carol_browser)
    win_today(carol_browser, clock)
    two = streaks(carol_browser)
    clock.tick(2 * DAY_S)  # a day without the daily

    assert after_midnight == (1, 1, 1, 1)
    assert two == (2, 2, 2, 2)
    assert streaks(carol_browser) == (0, 2, 0, 2)
    board = carol_browser.get("/api/boards/three-card/streak/").json()["entries"]
    assert [(entry["player"], entry["best_streak"]) for entry in board] == [("carol", 2)]


def test_a_lost_day_ends_the_streak_but_not_days_played(
    carol_browser: Browser, carol: User, solver_screened: None, clock: Clock
) -> None:
    win_today(carol_browser, clock)
    clock.tick(DAY_S)
    game, _ = todays_line(carol_browser)
    playing = streaks(carol_browser)  # today's is still open: the streak stands
    lose(game)

    assert playing == (1, 1, 2, 2)
    assert streaks(carol_browser) == (0, 1, 2, 2)
    stats = PlayerStats.objects.get(user=carol)
    assert (stats.last_lost, stats.wins, stats.games) == (stats.last_played, 1, 2)


def lose(game_id: str) -> None:
    """The game ends lost (no legal move left), stored as game.actions stores a move."""
    game = Game.objects.get(id=game_id)
    game.status = Status.LOST
    game.save(update_fields=["status"])
    game_stored.send(sender=Game, game=game, action="move", at=game.updated_at,
                     before_home=game.home, before_status=Status.PLAYING,
                     position=game.position())


def test_a_game_finished_after_its_day_closed_wins_nothing(
    carol_browser: Browser, solver_screened: None, clock: Clock
) -> None:
    until_midnight(clock, 600)
    game, line = todays_line(carol_browser)
    for move in line[:-1]:
        clock.tick(PACE_S)
        assert carol_browser.move(game, move).status_code == 200
    clock.tick(600)  # past midnight: the ranked game closed with its day
    late = carol_browser.move(game, line[-1])

    assert late.status_code == 409 and "closed" in late.json()["error"]
    assert Game.objects.get(id=game).status == Status.PLAYING
    assert streaks(carol_browser) == (0, 0, 1, 1)  # played yesterday, won no day


def test_a_result_under_review_counts_in_the_streak_while_the_board_holds_it_back(
    carol_browser: Browser, carol: User, solver_screened: None, clock: Clock
) -> None:
    game, line = todays_line(carol_browser)
    Attempt.objects.filter(game_id=game).update(flags="device", review=Review.PENDING)
    for move in line:
        clock.tick(PACE_S)
        carol_browser.move(game, move)

    held = carol_browser.get("/api/boards/three-card/streak/").json()["entries"]
    assert streaks(carol_browser) == (1, 1, 1, 1)
    assert held == []
    actions.do_review([Attempt.objects.get(game_id=game).pk], Review.CLEARED)
    cleared = carol_browser.get("/api/boards/three-card/streak/").json()["entries"]
    assert [(entry["player"], entry["best_streak"]) for entry in cleared] == [("carol", 1)]
