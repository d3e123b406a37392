"""Fixtures of the service tests: named players with their own browsers."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import pytest_asyncio
from django.contrib.auth.models import User
from django.test import Client
from websockets.asyncio.client import ClientConnection

from game import actions, events
from patience.tomb import THREE_CARD, deal_from_number

EASY_DEAL = 2  # a 3-card deal whose winning line the test search finds at once
# Seconds the clock fixture moves between a ranked daily's moves, so a test that
# wins one is timed like a person (leaderboards.fairplay holds machine-speed wins).
HUMAN_PACE_S = 0.5


class Browser:
    """A test client that sends JSON and Django's CSRF token, like the page does. Each
    comes from an address of its own (the daily's fair-play check compares addresses)
    and keeps its own cookies, so its own device."""

    addresses = itertools.count(1)

    def __init__(self, address: str | None = None) -> None:
        number = next(self.addresses)
        self.address = address or f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"
        self.client = Client(enforce_csrf_checks=True, REMOTE_ADDR=self.address)

    def csrf(self) -> str:
        if "csrftoken" not in self.client.cookies:
            self.client.get("/api/csrf/")
        return self.client.cookies["csrftoken"].value

    def get(self, url: str) -> Any:
        return self.client.get(url)

    def post(self, url: str, body: Any = None, raw: str | None = None) -> Any:
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        return self.client.post(
            url, data=data, content_type="application/json", HTTP_X_CSRFTOKEN=self.csrf()
        )

    def new_game(self, deal: int | None = EASY_DEAL, variant: str = "three-card") -> Any:
        response = self.post("/api/games/", {"variant": variant, "deal": deal})
        assert response.status_code == 201, response.content
        return response.json()

    def move(self, game_id: str, move: str) -> Any:
        return self.post(f"/api/games/{game_id}/moves/", {"move": move})

    def log_in(self, user: User) -> None:
        self.client.force_login(user)


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """The in-process cache outlives a test: start each with no log-in throttle counters."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def alice(db: Any) -> Browser:
    return Browser()


@pytest.fixture
def bob(db: Any) -> Browser:
    return Browser()


def regular(name: str) -> User:
    """A player whose account is a month old: older than today's daily, so they may play it
    ranked (an account made after a daily opened waits for the next day's)."""
    joined = datetime.now(UTC) - timedelta(days=30)
    return User.objects.create_user(name, password="tomb-of-the-emperor", date_joined=joined)


@pytest.fixture
def carol(db: Any) -> User:
    return regular("carol")


@pytest.fixture
def dave(db: Any) -> User:
    return regular("dave")


@pytest.fixture
def carol_browser(carol: User) -> Browser:
    browser = Browser()
    browser.log_in(carol)
    return browser


@pytest.fixture
def dave_browser(dave: User) -> Browser:
    browser = Browser()
    browser.log_in(dave)
    return browser


@pytest.fixture
def screened(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Dailies without the solver: every candidate counts as winnable (for tests that
    need dailies, not wins). Returns the screenings asked for."""
    from leaderboards import dailies

    calls: list[dict[str, Any]] = []

    def fake(seed: int, variant: str, budget_s: float, games: int = 0) -> dict[str, Any]:
        calls.append({"seed": seed, "variant": variant, "games": games})
        return {"winnable": True, "verdict": "won", "line_length": 90,
                "difficulty": 0.25 if games else None,
                "sampling_win_rate": 0.75 if games else None}

    monkeypatch.setattr(dailies, "screen", fake)
    return calls


@pytest.fixture
def solver_screened(settings: Any) -> None:
    """Dailies screened by the real solver, 3-card only, on a short budget: a candidate
    it cannot prove at once is skipped, so the tests stay fast whatever the date."""
    settings.DAILY_SCREEN_BUDGET_SECONDS = 1.0
    settings.DAILY_VARIANTS = ["three-card"]


@pytest.fixture
def todays_daily(solver_screened: None, db: Any) -> Any:
    """Today's 3-card daily, proved winnable by the real solver."""
    from leaderboards.preparing import todays_daily

    return todays_daily(THREE_CARD)


class Clock:
    """The server's clock, moved by hand (django.utils.timezone.now)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Starts a second after today's UTC midnight, so ticking never crosses into tomorrow."""
    from django.utils import timezone

    start = datetime.combine(datetime.now(UTC).date(), time(0, 0, 1), tzinfo=UTC)
    clock = Clock(start)
    monkeypatch.setattr(timezone, "now", clock)
    return clock


@pytest.fixture
def carol_game(carol: User) -> dict[str, Any]:
    """A game of carol's on the easy deal, made through the action as the API would."""
    return actions.do_create_game(
        actions.Player(user_id=carol.pk), THREE_CARD, deal_from_number(EASY_DEAL)
    )


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every event the actions send to channel groups, in order."""
    events_sent: list[dict[str, Any]] = []

    def record(game_id: str, event: dict[str, Any]) -> None:
        events_sent.append({"group": game_id, **event})

    monkeypatch.setattr(events, "_group_send", record)
    return events_sent


@pytest.fixture
def statements() -> Any:
    """Capture the SQL statements of a block, without the test's own savepoints.

    Tests run inside a transaction, so each action's atomic() becomes a
    SAVEPOINT pair that production (autocommit, outermost atomic) never sends.
    """
    from contextlib import contextmanager

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    @contextmanager
    def capture() -> Any:
        found: list[str] = []
        with CaptureQueriesContext(connection) as context:
            yield found
        found.extend(
            query["sql"].split()[0] for query in context.captured_queries
            if "SAVEPOINT" not in query["sql"]
        )

    return capture


@pytest_asyncio.fixture
async def sockets() -> AsyncIterator[list[ClientConnection]]:
    """The sockets a test opens, closed after it (the integration tests' boards)."""
    opened: list[ClientConnection] = []
    yield opened
    for socket in opened:
        await socket.close()
