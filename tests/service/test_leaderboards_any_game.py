"""A game registered at test time gets its daily, boards, statistics, share line and API
at once: nothing in the leaderboards names a game. Hostile game and variant URLs are 404s.

The test game ("Test Patience", variant "test-one") is Napoleon's Tomb's engine under
another name and slug, registered by patching the registry's dicts, with the Tomb's
search as its solver. It has no difficulty bands, so its daily is screened winnable
and shown as not rated.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command

import patience
import solver_worker.games
from leaderboards import dailies
from leaderboards.days import today
from leaderboards.models import Attempt, Daily, PlayerStats
from patience.tomb import Variant
from patience.tomb.rules import TombRules
from solver_worker.games.tomb import search

from .conftest import Browser, Clock
from .lines import seeded_line

pytestmark = pytest.mark.django_db
ONE = Variant(slug="test-one", name="test one-deal", turn=3, passes=3)
GAME, VARIANT = "test-patience", "test-one"
HOME = f"/{GAME}/{VARIANT}"


class TestPatience(TombRules):
    """Another game to the registry: its own slug, name and variant."""

    __test__ = False  # not a test class, whatever its name
    slug = GAME  # type: ignore[misc]
    name = "Test Patience"  # type: ignore[misc]

    @property
    def variants(self) -> dict[str, Variant]:
        return {VARIANT: ONE}

    @property
    def default_variant(self) -> Variant:
        return ONE

    def new_game(self, deal: Any, variant: Any) -> Any:
        return super().new_game(deal, self.variants[variant] if variant == VARIANT else variant)


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch, settings: Any) -> TestPatience:
    game = TestPatience()
    monkeypatch.setitem(patience.GAMES, GAME, game)  # type: ignore[index]
    monkeypatch.setitem(patience._GAME_OF_VARIANT, VARIANT, game)
    monkeypatch.setitem(solver_worker.games.SOLVERS, GAME, search.solve)
    settings.DAILY_SCREEN_BUDGET_SECONDS = 2.0
    settings.DAILY_VARIANTS = []  # every registered variant
    return game


def test_a_registered_game_gets_a_daily_boards_and_statistics(
    registered: TestPatience, carol_browser: Browser, carol: Any, alice: Browser, clock: Clock
) -> None:
    assert VARIANT in dailies.daily_variants()

    page = alice.get(f"{HOME}/daily/").content.decode()  # made by the (eager) maker
    daily = Daily.objects.get(variant=VARIANT)
    assert "Test Patience" in page and "not rated" in page and daily.band == ""
    assert daily.rating is None and daily.line_length
    home = alice.get("/daily/").content.decode()
    assert f'href="{HOME}/daily/"' in home and "Napoleon&#x27;s Tomb" in home

    game = carol_browser.post(f"/api/{GAME}/{VARIANT}/daily/play/").json()
    line = seeded_line(daily.seed)
    for move in line:
        clock.tick(1)
        assert carol_browser.move(game["id"], move).status_code == 200

    attempt = Attempt.objects.get(game_id=game["id"])
    assert attempt.status == "won" and attempt.time_ms == (len(line) - 1) * 1000
    stats = PlayerStats.objects.get(user=carol, variant=VARIANT)
    assert (stats.games, stats.wins, stats.best_streak) == (1, 1, 1)

    todays = carol_browser.get(f"/api/{GAME}/{VARIANT}/daily/").json()
    assert todays["game"] == GAME and todays["game_name"] == "Test Patience"
    assert todays["me"]["share"].startswith(f"Test Patience daily {daily.date}: won")
    assert f"Board: http://testserver{HOME}/daily/{daily.date}/" in todays["me"]["share"]
    board = alice.get(f"/api/{GAME}/{VARIANT}/daily/{daily.date}/board/").json()
    assert [entry["player"] for entry in board["entries"]] == ["carol"]
    wins = alice.get(f"/api/{GAME}/{VARIANT}/boards/wins/").json()
    assert wins["game_name"] == "Test Patience" and wins["entries"][0]["player"] == "carol"
    assert "carol" in alice.get(f"{HOME}/boards/").content.decode()
    # A ranked daily of the default game too: My statistics lists only the games played.
    PlayerStats.objects.create(user=carol, variant="three-card", games=1)
    mine = carol_browser.get("/me/stats/").content.decode()
    assert '<h2 id="game-test-patience" class="game-name">Test Patience</h2>' in mine
    assert mine.index('id="game-napoleons-tomb"') < mine.index('id="game-test-patience"')  # by game
    api_stats = carol_browser.get("/api/me/daily-stats/").json()
    assert {"variant": VARIANT, "game": GAME, "wins": 1}.items() <= next(
        entry for entry in api_stats if entry["variant"] == VARIANT).items()


def test_the_old_urls_redirect_or_answer_for_any_game(alice: Browser, screened: Any) -> None:
    moved = alice.get("/daily/classic/archive/?before=2026-11-01")
    assert moved.status_code == 301
    assert moved["Location"] == "/napoleons-tomb/classic/daily/archive/?before=2026-11-01"
    assert alice.get("/boards/three-card/")["Location"] == "/napoleons-tomb/three-card/boards/"
    assert alice.get("/daily/three-card/2026-11-01/")["Location"] == (
        "/napoleons-tomb/three-card/daily/2026-11-01/")
    old = alice.get("/api/boards/three-card/wins/")  # the old API answers as before
    new = alice.get("/api/napoleons-tomb/three-card/boards/wins/")
    assert old.status_code == new.status_code == 200 and old.json() == new.json()
    todays = alice.get("/api/daily/three-card/").json()
    assert todays == alice.get("/api/napoleons-tomb/three-card/daily/").json()


@pytest.mark.parametrize("url", [
    "/no-such-game/three-card/daily/",  # no such game
    "/napoleons-tomb/st-elsewhere/daily/",  # not a variant of the game
    "/napoleons-tomb/three-card/daily/archive/x/",
    "/napoleons-tomb/three-card/boards/../../admin/",
    "/NAPOLEONS-TOMB/three-card/daily/",
    "/napoleons-tomb/three-card%00/daily/",
    "/daily/no-such-variant/",
    "/boards/%3Cscript%3E/",
    "/api/no-such-game/three-card/daily/",
    "/api/napoleons-tomb/nope/daily/field/",
    "/api/napoleons-tomb/three-card/boards/wins/../../",
    "/api/daily/no-such-variant/field/",
])
def test_hostile_game_and_variant_urls_are_404s(alice: Browser, url: str) -> None:
    response = alice.get(url)
    assert response.status_code == 404
    if url.startswith("/api/"):
        assert "error" in response.json()


def test_a_variant_of_another_game_is_not_found_under_this_one(
    registered: TestPatience, alice: Browser
) -> None:
    crossed = alice.get(f"/api/{GAME}/three-card/daily/field/")
    assert crossed.status_code == 404
    assert crossed.json()["error"] == "Test Patience has no such variant (known: test-one)"
    assert alice.get(f"/napoleons-tomb/{VARIANT}/boards/").status_code == 404
    assert alice.get("/admin/leaderboards/daily/").status_code == 302  # the admin's, still


def test_the_commands_make_and_rescreen_a_registered_games_dailies(
    registered: TestPatience, capsys: Any
) -> None:
    call_command("make_dailies", "--days", "1", "--variant", VARIANT)
    ahead = (today() + timedelta(days=1)).isoformat()
    call_command("rescreen_day", ahead, "--variant", VARIANT, "--budget", "2")

    out = capsys.readouterr().out
    assert out.count(f"{VARIANT}: candidate ") == 2 and "not rated" in out
    assert f"{ahead} {VARIANT}: kept: still proved winnable" in out
    assert Daily.objects.filter(variant=VARIANT, band="", rating=None).count() == 2
