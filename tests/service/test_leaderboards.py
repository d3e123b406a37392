"""Day boards and all-time boards: their order, and a fixed number of queries per page."""

from __future__ import annotations

import re
import uuid
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from game.models import Game
from leaderboards import actions, boards
from leaderboards.actions.checks import DAY_FORM, MONTHS
from leaderboards.days import today
from leaderboards.models import Attempt, Daily, PlayerStats

from .conftest import Browser

pytestmark = pytest.mark.django_db
PAST = date(2026, 11, 1)
WIDE = "\uff12\uff10\uff12\uff16"  # 2026 in full-width digits, which isdigit() takes


def a_daily(day: date = PAST, variant: str = "three-card") -> Daily:
    return Daily.objects.create(date=day, variant=variant, seed=12345 + day.toordinal(),
                                candidate=0)


def results(daily: Daily, rows: list[dict[str, Any]]) -> None:
    """Attempts as the game hook leaves them (fast: no moves are played)."""
    users = User.objects.bulk_create([User(username=row.pop("player")) for row in rows])
    games = Game.objects.bulk_create([
        Game(id=uuid.uuid4(), variant=daily.variant, seeded=True, cards="", owner=user,
             ranked=True) for user in users
    ])
    Attempt.objects.bulk_create([
        Attempt(daily=daily, game=game, user=user, ranked=True, **row)
        for user, game, row in zip(users, games, rows, strict=True)
    ])


def players(board: dict[str, Any]) -> list[str]:
    return [entry["player"] for entry in board["entries"]]


def test_the_day_board_orders_home_then_no_hints_then_time_then_moves() -> None:
    daily = a_daily()
    results(daily, [
        {"player": "erin", "home": 52, "status": "won", "time_ms": 300_000, "moves": 120},
        {"player": "frank", "home": 52, "status": "won", "time_ms": 100_000, "moves": 90,
         "assisted": True, "hints": 2},
        {"player": "grace", "home": 52, "status": "won", "time_ms": 300_000, "moves": 110},
        {"player": "heidi", "home": 40, "status": "lost", "time_ms": 50_000, "moves": 80},
        {"player": "ivan", "home": 52, "status": "won", "time_ms": 200_000, "moves": 150},
    ])

    board = boards.day_board(daily)

    assert players(board) == ["ivan", "grace", "erin", "frank", "heidi"]
    assert [entry["rank"] for entry in board["entries"]] == [1, 2, 3, 4, 5]
    assert board["entries"][0]["time"] == "3:20" and board["next"] is None


def test_a_day_board_page_costs_two_queries_with_a_thousand_results(
    alice: Browser, settings: Any, django_assert_num_queries: Any
) -> None:
    daily = a_daily()
    results(daily, [{"player": f"player{n:04}", "home": n % 53, "time_ms": n * 1000,
                     "moves": 100 + n} for n in range(1000)])
    alice.csrf()  # the cookie first: its request is not the one counted

    with django_assert_num_queries(2):  # the day's daily, one page of the board
        page = alice.get(f"/api/daily/three-card/{PAST}/board/?page=3").json()

    assert len(page["entries"]) == settings.BOARD_PAGE_SIZE and page["next"] == 4
    assert page["entries"][0]["rank"] == 2 * settings.BOARD_PAGE_SIZE + 1
    homes = [entry["home"] for entry in page["entries"]]
    assert homes == sorted(homes, reverse=True)
    last = alice.get(f"/api/daily/three-card/{PAST}/board/?page=20").json()
    assert last["next"] is None and last["entries"][-1]["rank"] == 1000


def test_the_day_board_page_costs_three_queries(
    alice: Browser, django_assert_num_queries: Any
) -> None:
    daily = a_daily()
    results(daily, [{"player": f"player{n}", "home": n} for n in range(200)])

    with django_assert_num_queries(3):  # the daily, a page of the board, the charts' figures
        page = alice.get(f"/napoleons-tomb/three-card/daily/{PAST}/")

    assert page.status_code == 200 and b"player199" in page.content


def test_the_all_time_boards(settings: Any, alice: Browser) -> None:
    settings.BOARD_MIN_GAMES = 3
    yesterday = today() - timedelta(days=1)
    for name, games, wins, best, last in [
        ("erin", 10, 6, 4, yesterday), ("frank", 2, 2, 2, PAST), ("grace", 5, 4, 5, PAST),
        ("heidi", 4, 0, 1, PAST),
    ]:
        PlayerStats.objects.create(
            user=User.objects.create(username=name), variant="three-card", games=games,
            wins=wins, win_rate=wins / games, best_streak=best, current_streak=3,
            last_won=last, played_streak=4, last_played=last,
        )

    wins = alice.get("/api/boards/three-card/wins/").json()
    rate = alice.get("/api/boards/three-card/win-rate/").json()
    streak = alice.get("/api/boards/three-card/streak/").json()

    assert players(wins) == ["erin", "grace", "frank"]  # heidi has no win
    assert players(rate) == ["grace", "erin", "heidi"]  # frank has too few games
    assert rate["min_games"] == 3 and rate["entries"][0]["win_rate"] == 0.8
    assert players(streak) == ["grace", "erin", "frank", "heidi"]
    # The board ranks by the best won streak; a streak goes on only while yesterday's
    # daily was won (days won), or played (days played in a row).
    assert [entry["current_streak"] for entry in streak["entries"]] == [0, 3, 0, 0]
    assert [entry["played_streak"] for entry in streak["entries"]] == [0, 4, 0, 0]
    assert alice.get("/api/boards/classic/wins/").json()["entries"] == []
    assert alice.get("/api/boards/three-card/fastest/").status_code == 400


def test_an_all_time_board_costs_one_query_and_the_page_three(
    alice: Browser, django_assert_num_queries: Any
) -> None:
    users = User.objects.bulk_create([User(username=f"player{n}") for n in range(1000)])
    PlayerStats.objects.bulk_create([
        PlayerStats(user=user, variant="three-card", games=20, wins=n % 20, win_rate=n % 20 / 20,
                    best_streak=n % 30) for n, user in enumerate(users)
    ])
    alice.csrf()

    with django_assert_num_queries(1):
        board = alice.get("/api/boards/three-card/win-rate/?page=2").json()
    with django_assert_num_queries(4):  # today's daily (none yet), the three boards' pages
        page = alice.get("/napoleons-tomb/three-card/boards/")

    assert board["entries"][0]["rank"] == 51 and board["next"] == 3
    assert page.status_code == 200 and page.content.count(b"<tr>") > 150


def test_bad_pages_and_days_are_refused(alice: Browser) -> None:
    a_daily()
    future = (today() + timedelta(days=1)).isoformat()
    assert alice.get(f"/api/daily/three-card/{PAST}/board/?page=0").status_code == 400
    assert alice.get(f"/api/daily/three-card/{PAST}/board/?page=x").status_code == 400
    assert alice.get("/api/daily/three-card/2026-13-01/board/").status_code == 400
    assert alice.get(f"/api/daily/three-card/{future}/").status_code == 404
    assert alice.get(f"/api/daily/three-card/{PAST - timedelta(days=1)}/").status_code == 404
    unknown = alice.get(f"/api/daily/freecell/{PAST}/")  # no such variant: a clear 404
    assert unknown.status_code == 404 and "no such variant" in unknown.json()["error"]


# -- the schema says what the server takes ------------------------------------------

def parameters(schema: dict[str, Any], path: str, method: str = "get") -> dict[str, Any]:
    operation = schema["paths"][path][method]
    return {item["name"]: item["schema"] for item in operation["parameters"]}


def test_the_schema_gives_the_boards_days_pages_and_months_the_server_takes(
    alice: Browser
) -> None:
    schema = alice.get("/api/schema/?format=json").json()
    daily = "/api/{game}/{variant}/daily/{day}/"
    page = {"type": "integer", "minimum": 1, "maximum": actions.MAX_PAGE}

    board = parameters(schema, "/api/{game}/{variant}/boards/{board}/")
    assert board["board"] == {"type": "string", "enum": list(boards.ALL_TIME_BOARDS)}
    assert board["page"] == page and parameters(schema, f"{daily}board/")["page"] == page
    for path, method in ((daily, "get"), (f"{daily}board/", "get"), (f"{daily}replay/", "post")):
        day = parameters(schema, path, method)["day"]
        assert day == {"type": "string", "format": "date", "pattern": f"^(?:{DAY_FORM})$"}
    month = parameters(schema, "/api/me/daily-stats/")["month"]
    assert month == {"type": "string", "pattern": f"^(?:{MONTHS})$"}


def test_the_schemas_months_are_the_ones_check_month_takes() -> None:
    """Every month of the years around FIRST_MONTH and LAST_MONTH, and the far ones."""
    years = [0, 1, 999, *range(1890, 1911), *range(2990, 3011), 9999]
    texts = ["", "2026-1", "2026-011", WIDE + "-11", "2026-11 ", "2026-11\n", "2026/11"] + [
        f"{year:04}-{month:02}" for year in years for month in range(14)]
    for text in texts:
        assert bool(re.fullmatch(MONTHS, text)) == _takes(actions.check_month, text), text


def test_a_day_is_iso_digits_only() -> None:
    """Outside the pattern, or no date (as "format": "date" says): refused."""
    assert actions.check_day("2026-11-29") == date(2026, 11, 29)
    for text in ("2026-W48-7", WIDE + "-11-29", "2026-11-29\n", "20261129"):
        assert not re.fullmatch(DAY_FORM, text) and not _takes(actions.check_day, text), text
    assert not _takes(actions.check_day, "2026-11-31")


def _takes(check: Any, text: str) -> bool:
    try:
        check(text)
    except actions.BadRequest:
        return False
    return True
