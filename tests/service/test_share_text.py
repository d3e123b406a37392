"""The share line after a daily: one line of words, readable by a screen reader."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from game.models import Game
from leaderboards.boards import clock as clock_text
from leaderboards.boards import share_text
from leaderboards.models import Daily

from .conftest import Browser, Clock
from .lines import seeded_line

START = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)


def finished(status: str, seconds: int, moves: int, hints: int, home: int = 52) -> Game:
    return Game(status=status, home=home, moves=moves, hints=hints, started_at=START,
                finished_at=START + timedelta(seconds=seconds))


def test_a_win_without_hints() -> None:
    daily = Daily(date=date(2026, 11, 29), variant="three-card")

    line = share_text(daily, finished("won", 252, 131, 0))

    assert line == "Napoleon's Tomb daily 2026-11-29, 3-card: won in 4:12, 131 moves, no hints"


def test_a_loss_with_a_hint_past_an_hour_and_an_unranked_game() -> None:
    daily = Daily(date=date(2026, 11, 30), variant="classic")

    lost = share_text(daily, finished("lost", 3723, 1, 1, home=38))
    unranked = share_text(daily, finished("won", 61, 90, 3), ranked=False)

    assert lost == ("Napoleon's Tomb daily 2026-11-30, classic: 38 of 52 cards home in "
                    "1:02:03, 1 move, 1 hint")
    assert unranked == ("Napoleon's Tomb daily 2026-11-30, classic, unranked: won in 1:01, "
                        "90 moves, 3 hints")
    assert "\n" not in lost and lost.isprintable()


def test_no_share_line_before_the_end() -> None:
    daily = Daily(date=date(2026, 11, 29), variant="three-card")
    assert share_text(daily, Game(status="playing")) is None
    assert clock_text(0) == "0:00" and clock_text(59_999) == "0:59"


def test_the_daily_gives_the_share_line_once_won(
    carol_browser: Browser, todays_daily: Daily, clock: Clock
) -> None:
    game = carol_browser.post("/api/daily/three-card/play/").json()
    before = carol_browser.get("/api/daily/three-card/").json()["me"]
    line = seeded_line(todays_daily.seed)
    for move in line:
        clock.tick(1)
        carol_browser.move(game["id"], move)

    me = carol_browser.get("/api/daily/three-card/").json()["me"]
    page = carol_browser.get("/daily/three-card/").content.decode()

    assert before["share"] is None and before["game"] == game["id"]
    expected = (f"Napoleon's Tomb daily {todays_daily.date}, 3-card: won in "
                f"{clock_text((len(line) - 1) * 1000)}, {len(line)} moves, no hints")
    assert me["share"] == expected and me["status"] == "won"
    assert expected.replace("'", "&#x27;") in page
