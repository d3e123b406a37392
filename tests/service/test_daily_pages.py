"""The plain pages of the daily challenge, the archive, and the API's schema."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from game.models import Game
from leaderboards import dailies
from leaderboards.days import today

from .conftest import Browser
from .secrecy import CARD_TOKEN

pytestmark = pytest.mark.django_db


def past_daily(days_ago: int = 3) -> Any:
    daily = dailies.make_daily(today() - timedelta(days=days_ago), "three-card")
    assert daily is not None
    return daily


def test_todays_page_offers_the_game_and_the_field_and_no_card(
    alice: Browser, screened: Any
) -> None:
    response = alice.get("/daily/three-card/")

    page = response.content.decode()
    assert response.status_code == 200 and "csrftoken" in response.cookies
    for part in ('id="play-daily"', 'id="field"', "tomb/daily.js", "Log in</a> to play it ranked",
                 f'data-date="{today().isoformat()}"'):
        assert part in page
    assert not CARD_TOKEN.findall(page)


def test_todays_page_costs_two_queries_for_a_visitor(
    alice: Browser, screened: Any, django_assert_num_queries: Any
) -> None:
    alice.get("/api/daily/three-card/")  # made on demand before the count
    with django_assert_num_queries(2):  # today's daily, the field
        assert alice.get("/daily/three-card/").status_code == 200


def test_a_logged_in_player_is_told_the_ranked_rules(
    carol_browser: Browser, screened: Any
) -> None:
    page = carol_browser.get("/daily/three-card/").content.decode()
    assert "a stock turn (D or R) cannot be undone" in page


def test_a_past_day_shows_its_board_its_order_and_a_replay(
    alice: Browser, screened: Any
) -> None:
    daily = past_daily()

    page = alice.get(f"/daily/three-card/{daily.date}/").content.decode()
    replay = alice.post(f"/api/daily/three-card/{daily.date}/replay/")
    info = alice.get(f"/api/daily/three-card/{daily.date}/").json()

    assert " ".join(daily.deal().texts) in page and 'id="replay-daily"' in page
    assert replay.status_code == 201 and replay.json()["ranked"] is False
    assert Game.objects.get(pk=replay.json()["id"]).cards.split() == daily.deal().texts
    assert info["archived"] is True and info["cards"] == daily.deal().texts


def test_todays_deal_is_not_an_archive_yet(alice: Browser, screened: Any) -> None:
    page = alice.get(f"/daily/three-card/{today()}/").content.decode()
    replay = alice.post(f"/api/daily/three-card/{today()}/replay/")

    assert 'id="replay-daily"' not in page and not CARD_TOKEN.findall(page)
    assert replay.status_code == 409
    assert alice.get(f"/api/daily/three-card/{today()}/").json()["cards"] is None


def test_the_archive_lists_past_days_only(alice: Browser, screened: Any) -> None:
    old = past_daily(2)
    alice.get("/api/daily/three-card/")  # today's

    listed = alice.get("/api/daily/three-card/archive/").json()
    page = alice.get("/daily/three-card/archive/").content.decode()

    assert [entry["date"] for entry in listed] == [old.date.isoformat()]
    assert old.date.isoformat() in page and today().isoformat() not in page


def test_unknown_days_and_variants_get_plain_error_pages(alice: Browser, screened: Any) -> None:
    tomorrow = today() + timedelta(days=1)
    assert alice.get("/daily/").status_code == 302
    assert alice.get("/daily/freecell/").status_code == 400
    assert alice.get(f"/daily/three-card/{tomorrow}/").status_code == 404
    assert alice.get("/daily/three-card/2026-02-30/").status_code == 400
    assert alice.get("/boards/three-card/").status_code == 200


def test_the_daily_script_is_served(alice: Browser) -> None:
    response = alice.get("/static/tomb/daily.js")
    assert response.status_code == 200
    assert b"/ws/daily/" in b"".join(response.streaming_content)


def test_the_schema_describes_the_daily_api(alice: Browser) -> None:
    schema = alice.get("/api/schema/").content.decode()
    for path in ("/api/daily/{variant}/", "/api/daily/{variant}/play/",
                 "/api/daily/{variant}/field/", "/api/daily/{variant}/{day}/board/",
                 "/api/daily/{variant}/{day}/replay/", "/api/daily/{variant}/archive/",
                 "/api/boards/{variant}/{board}/", "/api/me/daily-stats/"):
        assert f"{path}:" in schema
