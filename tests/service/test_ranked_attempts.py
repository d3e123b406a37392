"""Ranked attempts on today's daily: one per player, the server's clock, no undoing a stock turn."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from game import actions
from game.models import Game
from leaderboards.models import Attempt, Daily, PlayerStats
from patience.tomb import parse_move

from .conftest import Browser, Clock
from .lines import seeded_line

PLAY = "/api/daily/three-card/play/"


def play_line(browser: Browser, game_id: str, moves: Any, clock: Clock | None = None) -> Any:
    response = None
    for move in moves:
        if clock is not None:
            clock.tick(2)
        response = browser.move(game_id, move)
        assert response.status_code == 200, response.content
    return response.json() if response is not None else None


def attempt_of(game_id: str) -> Attempt:
    return Attempt.objects.get(game_id=game_id)


def test_a_logged_in_player_gets_one_ranked_attempt_and_resumes_it(
    carol_browser: Browser, carol: User, todays_daily: Daily
) -> None:
    first = carol_browser.post(PLAY)
    again = carol_browser.post(PLAY)

    assert (first.status_code, again.status_code) == (201, 200)
    game = first.json()
    assert again.json()["id"] == game["id"]
    assert (game["ranked"], game["seeded"], game["deal"]) == (True, True, None)
    assert Attempt.objects.filter(user=carol, ranked=True).count() == 1
    stats = PlayerStats.objects.get(user=carol, variant="three-card")
    assert (stats.games, stats.played_streak, stats.best_played_streak) == (1, 1, 1)
    assert (stats.current_streak, stats.best_streak) == (0, 0)  # days won: none yet


def test_a_stock_turn_cannot_be_undone_in_a_ranked_attempt(
    carol_browser: Browser, todays_daily: Daily
) -> None:
    game = carol_browser.post(PLAY).json()
    carol_browser.move(game["id"], "D")

    refused = carol_browser.post(f"/api/games/{game['id']}/undo/")

    assert refused.status_code == 409
    assert refused.json()["error"] == (
        "in a ranked daily a move that showed a new card (D) cannot be undone")
    stored = Game.objects.get(pk=game["id"])
    assert (stored.log, stored.undos, stored.version) == ("D", 0, 1)


def test_other_moves_can_be_undone_and_the_undo_is_counted(
    carol_browser: Browser, todays_daily: Daily
) -> None:
    game = carol_browser.post(PLAY).json()
    carol_browser.move(game["id"], "D")
    carol_browser.move(game["id"], "C")

    undone = carol_browser.post(f"/api/games/{game['id']}/undo/")
    stock_turn = carol_browser.post(f"/api/games/{game['id']}/undo/")

    assert undone.status_code == 200 and undone.json()["undos"] == 1
    assert stock_turn.status_code == 409
    # The board's moves are the line's, as the player's win shows them: the D, not the C.
    assert (attempt_of(game["id"]).undos, attempt_of(game["id"]).moves) == (1, 1)


def test_a_hint_marks_the_ranked_result_assisted(
    carol_browser: Browser, todays_daily: Daily
) -> None:
    game = carol_browser.post(PLAY).json()

    hinted = carol_browser.post(f"/api/games/{game['id']}/hint/")

    assert hinted.status_code == 200
    attempt = attempt_of(game["id"])
    assert (attempt.hints, attempt.assisted) == (1, True)


def test_a_ranked_win_is_timed_by_the_server_and_final(
    carol_browser: Browser, carol: User, todays_daily: Daily, clock: Clock
) -> None:
    line = seeded_line(todays_daily.seed)
    game = carol_browser.post(PLAY).json()
    clock.tick(600)  # looking at the empty table does not count

    won = play_line(carol_browser, game["id"], line, clock)

    assert won["status"] == "won"
    attempt = attempt_of(game["id"])
    assert (attempt.status, attempt.home, attempt.moves, attempt.assisted) == (
        "won", 52, len(line), False)
    assert attempt.time_ms == 2000 * (len(line) - 1)  # first move to last
    refused = carol_browser.post(f"/api/games/{game['id']}/undo/")
    assert refused.status_code == 409 and "final" in refused.json()["error"]
    stats = PlayerStats.objects.get(user=carol, variant="three-card")
    assert (stats.wins, stats.win_rate, stats.fewest_moves) == (1, 1.0, len(line))
    assert stats.best_time_ms == attempt.time_ms


def test_a_visitor_cannot_play_todays_daily(alice: Browser, todays_daily: Daily) -> None:
    refused = alice.post(PLAY)

    assert refused.status_code == 403 and "log in" in refused.json()["error"]
    assert not Game.objects.exists() and not Attempt.objects.exists()
    today_page = alice.get("/api/daily/three-card/").json()
    assert today_page["play"] == {"allowed": False, "reason": refused.json()["error"],
                                  "opens_at": None}


def test_an_account_made_after_the_daily_opened_waits_for_the_next_day(
    todays_daily: Daily, clock: Clock
) -> None:
    erin = User.objects.create_user("erin", password="tomb-of-the-emperor")
    browser = Browser()
    browser.log_in(erin)

    refused = browser.post(PLAY)
    status = browser.get("/api/daily/three-card/").json()["play"]

    assert refused.status_code == 403 and "newer than today's daily" in refused.json()["error"]
    assert not Game.objects.exists()
    tomorrow = datetime.combine(todays_daily.date + timedelta(days=1), time.min, tzinfo=UTC)
    assert status["allowed"] is False and status["opens_at"] == tomorrow.isoformat().replace(
        "+00:00", "Z")
    clock.tick(timedelta(days=1).total_seconds())  # the next day: a daily older than erin
    assert browser.post(PLAY).status_code == 201


def test_a_ranked_attempt_closes_with_its_day(
    carol_browser: Browser, todays_daily: Daily, clock: Clock
) -> None:
    game = carol_browser.post(PLAY).json()
    clock.tick(timedelta(days=1).total_seconds())

    response = carol_browser.move(game["id"], "D")

    assert response.status_code == 409 and "closed" in response.json()["error"]
    assert Game.objects.get(pk=game["id"]).version == 0
    # The play page no longer offers it as the game to go on with.
    assert carol_browser.get("/api/games/resume/?variant=three-card").status_code == 404


def test_a_player_cannot_act_on_anothers_daily_game(
    carol_browser: Browser, dave_browser: Browser, alice: Browser, todays_daily: Daily
) -> None:
    game = carol_browser.post(PLAY).json()

    for stranger in (dave_browser, alice):
        assert stranger.move(game["id"], "D").status_code == 403
        assert stranger.post(f"/api/games/{game['id']}/hint/").status_code == 403
        assert stranger.get(f"/api/games/{game['id']}/").status_code == 403
    assert Game.objects.get(pk=game["id"]).version == 0


def test_a_client_cannot_set_its_own_time_or_result(
    carol_browser: Browser, todays_daily: Daily, clock: Clock
) -> None:
    forged = {"status": "won", "home": 52, "time_ms": 1, "ranked": False, "moves": 0}
    game = carol_browser.post(PLAY, forged).json()
    clock.tick(5)
    moved = carol_browser.post(f"/api/games/{game['id']}/moves/", {"move": "D", **forged})
    clock.tick(5)
    carol_browser.post(f"/api/games/{game['id']}/moves/", {"move": "D", **forged})

    assert game["ranked"] is True and moved.json()["status"] == "playing"
    for method in ("put", "patch", "delete"):
        response = getattr(carol_browser.client, method)(
            f"/api/games/{game['id']}/", data=forged, content_type="application/json",
            HTTP_X_CSRFTOKEN=carol_browser.csrf())
        assert response.status_code == 405
    attempt = attempt_of(game["id"])
    assert (attempt.status, attempt.home, attempt.moves, attempt.time_ms) == (
        "playing", 0, 2, 5000)


def test_a_ranked_move_costs_one_more_statement_and_free_play_none(
    carol_browser: Browser, carol: User, todays_daily: Daily, carol_game: dict[str, Any],
    statements: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    ranked = carol_browser.post(PLAY).json()
    player = actions.Player(user_id=carol.pk)

    with statements() as free_play:
        actions.do_move(carol_game["id"], player, parse_move("D"))
    with statements() as ranked_turn, django_capture_on_commit_callbacks() as sent:
        actions.do_move(ranked["id"], player, parse_move("D"))

    assert free_play == ["SELECT", "UPDATE"]
    assert ranked_turn == ["SELECT", "UPDATE", "UPDATE"]  # and its attempt's figures
    # A turn brings no card home: nothing for the field (the game's own state only).
    assert len(sent) == 1


def test_the_database_refuses_a_second_ranked_attempt(
    carol_browser: Browser, carol: User, todays_daily: Daily
) -> None:
    game = carol_browser.post(PLAY).json()
    other = Game.objects.create(variant="three-card", seeded=True, cards="", owner=carol,
                                ranked=True)

    with pytest.raises(IntegrityError), transaction.atomic():
        Attempt.objects.create(daily=todays_daily, game=other, user=carol, ranked=True)
    Attempt.objects.create(daily=todays_daily, game=other, user=carol, ranked=False)
    assert str(Attempt.objects.filter(user=carol, ranked=True).get().game_id) == game["id"]


def test_a_daily_game_names_its_day_for_the_board_title(
    carol_browser: Browser, todays_daily: Daily
) -> None:
    ranked = carol_browser.post(PLAY).json()
    past = Daily.objects.create(date=todays_daily.date - timedelta(days=3), variant="three-card",
                                seed=4242, candidate=0)
    replay = carol_browser.post(f"/api/daily/three-card/{past.date}/replay/").json()

    assert ranked["daily_date"] == todays_daily.date.isoformat() and ranked["ranked"]
    assert replay["daily_date"] == past.date.isoformat() and not replay["ranked"]
    assert carol_browser.new_game()["daily_date"] is None


def test_a_hint_that_never_reached_a_worker_does_not_mark_the_result_assisted(
    carol_browser: Browser, carol: User, todays_daily: Daily,
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any,
) -> None:
    # Live play enqueues the hint once the count is committed; with the broker down the
    # publish fails, and the socket says so (test_hint_broker_down): the count is undone
    # in that same action.
    from kombu.exceptions import OperationalError

    from game.tasks import answer_hint

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(answer_hint, "delay", broker_down)
    game = carol_browser.post(PLAY).json()
    version = Game.objects.get(pk=game["id"]).version

    # The callbacks run as the inner block exits: that is where the publish fails.
    with pytest.raises(actions.HintUnavailable), \
            django_capture_on_commit_callbacks(execute=True):
        actions.do_request_hint(game["id"], actions.Player(user_id=carol.pk))

    attempt = attempt_of(game["id"])
    assert (attempt.hints, attempt.assisted) == (0, False)
    stored = Game.objects.get(pk=game["id"])
    assert stored.hints == 0 and stored.version == version + 2  # counted, then taken back
