"""The week ramps: each daily is picked in its weekday's band, shown as a band with the
win rate it stands for (never "0%"), and compared with the real players in the admin."""

from __future__ import annotations

import re
import uuid
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.models import Game
from leaderboards import actions, boards, dailies
from leaderboards.days import today
from leaderboards.models import Attempt, BandCheck, Daily
from patience.tomb import Position, deal_from_seed, get_variant
from solver_worker.players import careful_move, play_out
from solver_worker.rating import BANDS, band_for

from .conftest import Browser

pytestmark = pytest.mark.django_db
MONDAY = date(2026, 11, 2)
ZERO_PERCENT = re.compile(r"(?<![\d.])0%")


def week(variant: str) -> list[Daily]:
    made = [dailies.make_daily(MONDAY + timedelta(days=offset), variant) for offset in range(7)]
    assert all(daily is not None for daily in made)
    return [daily for daily in made if daily is not None]


def test_each_weekday_gets_a_daily_of_its_band_rated_by_the_graded_players(
    screened: list[dict[str, Any]]
) -> None:
    made = week("three-card")
    # Only candidates in the band are screened (all winnable here): one screening a day.
    assert [call["seed"] for call in screened] == [daily.seed for daily in made]
    for daily in made:
        wanted = dailies.wanted_bands(daily.date)
        assert daily.wanted_bands == ",".join(wanted) and daily.band in wanted
        assert not daily.band_fell_back
        assert daily.rating_games and daily.rating is not None
        assert daily.band == band_for(daily.rating, "three-card")
    days = [d.band for d in Daily.objects.filter(variant="three-card").order_by("date")]
    assert days[0] == "easy" and days[-2:] == ["expert", "expert"]


def test_with_no_candidate_of_the_band_searched_the_closest_band_is_taken_and_said(
    screened: list[dict[str, Any]], settings: Any
) -> None:
    settings.DAILY_BAND_CANDIDATES = 0
    daily = dailies.make_daily(MONDAY + timedelta(days=5), "three-card")  # a Saturday
    assert daily is not None and daily.wanted_bands == "expert"
    rated = [dailies.rate_seed(seed, "three-card")[1]
             for seed in (c["seed"] for c in screened[:1])]
    assert rated == [daily.band]
    closest = min(abs(BANDS.index(band) - 3) for _, band in (
        dailies.rate_seed(seed, "three-card")
        for _, seed in dailies.candidate_seeds(daily.date, "three-card")))
    assert abs(BANDS.index(daily.band) - 3) == closest
    assert daily.band_fell_back == (daily.band != "expert")


def test_a_three_card_week_proved_winnable_has_a_deal_the_careful_player_loses(
    solver_screened: None
) -> None:
    lost = 0
    for daily in week("three-card"):
        position = Position(deal_from_seed(daily.seed), get_variant("three-card"))
        play_out(position, careful_move)
        lost += position.status.value != "won"
    assert lost >= 1


def test_the_daily_and_archive_pages_show_the_band_and_its_rate_and_never_zero_percent(
    alice: Browser, screened: Any
) -> None:
    made = dailies.make_daily(today(), "three-card")
    assert made is not None
    Daily.objects.filter(pk=made.pk).update(rating=0.0, band="expert", rating_games=124,
                                            difficulty=1.0, sampling_win_rate=0.0)
    Daily.objects.create(date=today() - timedelta(days=1), variant="three-card", seed=5,
                         candidate=0, rating=0.004, rating_games=250, band="expert",
                         difficulty=1.0, sampling_win_rate=0.0)
    Daily.objects.create(date=today() - timedelta(days=2), variant="three-card", seed=6,
                         candidate=0, rating=0.121, rating_games=124, band="hard")
    page = alice.get("/napoleons-tomb/three-card/daily/").content.decode()
    archive = alice.get("/napoleons-tomb/three-card/daily/archive/").content.decode()
    assert "expert: our graded blind players won none of 124 games" in page
    assert "expert: our graded blind players won under 1% of 250 games" in archive
    assert "hard: our graded blind players won 12% of 124 games" in archive
    for html in (page, archive):
        assert not ZERO_PERCENT.search(html) and not re.search(r"difficulty \d", html)
    api = alice.get("/api/daily/three-card/").json()
    assert (api["band"], api["rating"], api["rating_games"]) == ("expert", 0.0, 124)


def test_the_admin_sets_each_band_beside_the_real_players_win_rate() -> None:
    hard = Daily.objects.create(date=MONDAY, variant="three-card", seed=1, candidate=0,
                                rating=0.12, rating_games=124, band="hard")
    Daily.objects.create(date=MONDAY + timedelta(days=1), variant="three-card", seed=2,
                         candidate=0, rating=0.3, rating_games=124, band="easy")
    for number, status in enumerate(("won", "lost", "lost", "won", "playing")):
        user = User.objects.create_user(f"p{number}")
        game = Game.objects.create(id=uuid.uuid4(), variant="three-card", seeded=True,
                                   cards="AC 2C", owner=user, ranked=True)
        Attempt.objects.create(daily=hard, game=game, user=user, ranked=True, status=status)
    client = Client()
    client.force_login(User.objects.create_superuser("napoleon", password="elba-1814-x"))

    page = client.get("/admin/leaderboards/bandcheck/").content.decode()

    checks = {c.band: c for c in BandCheck.objects.all()}
    assert (checks["hard"].played, checks["hard"].won, checks["hard"].rating) == (4, 2, 0.12)
    assert (checks["easy"].played, checks["easy"].players_rate) == (0, None)
    assert "50.0%" in page and "12.0%" in page and "no finished ranked game" in page
    assert actions.do_compare_bands()[0].band == "easy"  # written in band order
    assert boards.rating_text(hard) == "hard: our graded blind players won 12% of 124 games"
