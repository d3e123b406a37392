"""The share line after a daily: one line of words, readable by a screen reader."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from game.models import Game
from leaderboards.boards import clock as clock_text
from leaderboards.boards import share_text
from leaderboards.models import Attempt, Daily, Review

from .conftest import Browser, Clock
from .lines import seeded_line

START = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)


def finished(status: str, seconds: int, moves: int, hints: int, home: int = 52) -> Game:
    return Game(status=status, home=home, moves=moves, hints=hints, started_at=START,
                finished_at=START + timedelta(seconds=seconds))


def test_a_win_without_hints() -> None:
    daily = Daily(date=date(2026, 11, 29), variant="three-card")

    line = share_text(daily, finished("won", 252, 131, 0),
                      link="https://tomb.example.org/napoleons-tomb/three-card/daily/2026-11-29/",
                      place=(3, 17))

    assert line == ("Napoleon's Tomb 3-card deal daily 2026-11-29: won in 4:12, 131 moves, "
                    "no hints, rank 3 of 17. "
                    "Board: https://tomb.example.org/napoleons-tomb/three-card/daily/2026-11-29/")
    assert line.isascii() and line.isprintable()  # words only: no emoji for a reader to spell


def test_a_loss_with_a_hint_past_an_hour_and_an_unranked_game() -> None:
    daily = Daily(date=date(2026, 11, 30), variant="classic")

    lost = share_text(daily, finished("lost", 3723, 1, 1, home=38))
    unranked = share_text(daily, finished("won", 61, 90, 3), ranked=False)

    assert lost == ("Napoleon's Tomb classic 1-card deal daily 2026-11-30: 38 of 52 cards home in "
                    "1:02:03, 1 move, 1 hint.")
    assert unranked == ("Napoleon's Tomb classic 1-card deal daily 2026-11-30, unranked: won in "
                        "1:01, 90 moves, 3 hints.")
    assert "\n" not in lost and lost.isprintable()


def test_no_share_line_before_the_end() -> None:
    daily = Daily(date=date(2026, 11, 29), variant="three-card")
    assert share_text(daily, Game(status="playing")) is None
    assert clock_text(0) == "0:00" and clock_text(59_999) == "0:59"


def test_the_daily_gives_the_share_line_once_won(
    carol_browser: Browser, todays_daily: Daily, clock: Clock, settings: Any
) -> None:
    game = carol_browser.post("/api/daily/three-card/play/").json()
    before = carol_browser.get("/api/daily/three-card/").json()["me"]
    line = seeded_line(todays_daily.seed)
    for move in line:
        clock.tick(1)
        carol_browser.move(game["id"], move)

    me = carol_browser.get("/api/daily/three-card/").json()["me"]
    page = carol_browser.get("/napoleons-tomb/three-card/daily/").content.decode()

    assert before["share"] is None and before["game"] == game["id"]
    board = f"/napoleons-tomb/three-card/daily/{todays_daily.date}/"
    expected = (f"Napoleon's Tomb 3-card deal daily {todays_daily.date}: won in "
                f"{clock_text((len(line) - 1) * 1000)}, {len(line)} moves, no hints, "
                f"rank 1 of 1. Board: http://testserver{board}")
    assert me["share"] == expected and me["status"] == "won"
    assert expected.replace("'", "&#x27;") in page
    assert carol_browser.get(board).status_code == 200  # the link leads to the day's board

    # A public address set for the site wins over the request's host.
    settings.SITE_URL = "https://tomb.example.org"
    shared = carol_browser.get("/api/daily/three-card/").json()["me"]["share"]
    assert shared.endswith(f"Board: https://tomb.example.org{board}")


def test_a_result_under_review_shares_no_rank_and_a_second_place_says_so(
    carol_browser: Browser, dave_browser: Browser, carol: Any, dave: Any, todays_daily: Daily,
    clock: Clock,
) -> None:
    for player in (carol_browser, dave_browser):  # carol wins first, then dave, slower
        game = player.post("/api/daily/three-card/play/").json()
        for move in seeded_line(todays_daily.seed):
            clock.tick(2 if player is dave_browser else 1)
            player.move(game["id"], move)

    assert ", rank 2 of 2." in dave_browser.get("/api/daily/three-card/").json()["me"]["share"]
    Attempt.objects.filter(user=carol).update(review=Review.PENDING)

    held = carol_browser.get("/api/daily/three-card/").json()["me"]["share"]
    assert "rank" not in held and held.startswith("Napoleon's Tomb 3-card deal daily")
    assert ", rank 1 of 1." in dave_browser.get("/api/daily/three-card/").json()["me"]["share"]


def test_the_clock_runs_from_the_first_move_to_the_last_and_a_hint_does_not_move_it(
    carol_browser: Browser, todays_daily: Daily, clock: Clock
) -> None:
    game = carol_browser.post("/api/daily/three-card/play/").json()
    line = seeded_line(todays_daily.seed)
    clock.tick(30)  # before the first move: not counted
    for move in line[:3]:
        carol_browser.move(game["id"], move)
        clock.tick(2)
    clock.tick(100)  # thinking, then a hint: the game's row is written, no move made
    assert carol_browser.post(f"/api/games/{game['id']}/hint/").status_code == 200

    me = carol_browser.get("/api/daily/three-card/").json()["me"]
    field = carol_browser.get("/api/daily/three-card/field/").json()["entries"]
    assert me["time"] == field[0]["time"] == clock_text(4_000)  # 3 moves, 2 s apart
    assert Attempt.objects.get(game_id=game["id"]).time_ms == 4_000
