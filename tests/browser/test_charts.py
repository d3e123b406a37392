"""The charts in real Chromium: the day's spread after my game, and my history on My
statistics, each an SVG image with its text alternative and its table of figures;
screenshots at a desktop and a phone size under test-output/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import OUTPUT, Site, serving
from .test_pages import CONTRAST, play, sign_up, start_daily


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A site of this module's own: the made-up field below would crowd the first page
    of today's board that other modules' players look for themselves on."""
    with serving(tmp_path_factory.mktemp("charts-site")) as running:
        yield running


SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
WIDEST = "() => document.documentElement.scrollWidth"

# Other players' ranked results on today's 3-card daily, and a history of past results
# for one player, written straight into the site's database: the figures the charts
# read, without playing forty games through the browser. (The past dailies' rows stand
# for days long gone: nobody plays them here.)
SEED = """
import uuid
from datetime import timedelta
from django.contrib.auth.models import User
from game.models import Game
from leaderboards.days import today
from leaderboards.models import Attempt, Daily

def attempt(daily, user, **row):
    game = Game.objects.create(id=uuid.uuid4(), variant=daily.variant, seeded=True,
                               cards="", owner=user, ranked=True)
    Attempt.objects.create(daily=daily, game=game, user=user, ranked=True, **row)

todays = Daily.objects.get(date=today(), variant="three-card")
for n in range(36):
    user = User.objects.create(username=f"field{uuid.uuid4().hex[:8]}")
    if n % 4:
        attempt(todays, user, status="won", home=52, time_ms=150_000 + (n * 37 % 29) * 11_000,
                moves=160 + (n * 13 % 17) * 6)
    else:
        attempt(todays, user, status="lost", home=8 + n, time_ms=90_000, moves=80)
me = User.objects.get(username=NAME)
for back in range(20, 330, 3):
    day = today() - timedelta(days=back)
    daily, _ = Daily.objects.get_or_create(date=day, variant="three-card",
                                           defaults={"seed": 5000 + back, "candidate": 0})
    won = back % 7 not in (0, 3)
    attempt(daily, me, status="won" if won else "lost", home=52 if won else 30,
            time_ms=120_000 + back * 900, moves=150)
"""


def shoot(page: Any, name: str, part: str) -> None:
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        assert page.evaluate(WIDEST) <= viewport["width"], (name, size)  # no sideways scroll
        page.locator(part).first.scroll_into_view_if_needed()
        page.screenshot(path=str(OUTPUT / f"charts-{name}-{size}.png"))
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate(WIDEST) <= 360


def check_chart(page: Any, ident: str) -> None:
    """An SVG image named by its title and described in words, with its figures."""
    figure = page.locator(f"#{ident}")
    image = figure.get_by_role("img")
    expect(image).to_be_visible()
    title = figure.locator("svg > title").text_content()
    desc = figure.locator("svg > desc").text_content()
    assert title and desc and len(desc) > 30
    expect(image).to_have_accessible_name(title)
    expect(image).to_have_accessible_description(desc)
    figure.get_by_text("The figures").click()
    expect(figure.get_by_role("table")).to_be_visible()
    assert figure.locator("tbody tr").count() >= 1
    figure.get_by_text("The figures").click()  # closed again for the screenshots


def test_the_day_in_figures_after_my_game(page: Any, site: Any) -> None:
    name = sign_up(page)
    game = start_daily(page)
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    page.goto(f"/daily/three-card/{today}/")
    expect(page.locator(".spread")).to_contain_text("once you have finished")
    expect(page.locator(".spread").get_by_role("img")).to_have_count(0)

    site.manage("shell", "-c", f"NAME = {name!r}\n" + SEED)
    finished = play(page, game)
    page.goto(f"/daily/three-card/{today}/")

    if finished["status"] == "won":
        check_chart(page, "chart-time")
        expect(page.locator("#chart-time svg > desc")).to_contain_text("Your time:")
        expect(page.locator("#chart-time .bar.mine")).to_have_count(1)
    else:
        check_chart(page, "chart-home")
        expect(page.locator("#chart-home svg > desc")).to_contain_text(
            f"Yours: {finished['home']}")
        expect(page.locator("#chart-home .bar.mine")).to_have_count(1)
    check_chart(page, "chart-moves")
    assert page.evaluate(CONTRAST)["ratio"] >= 1
    shoot(page, "day", ".spread")


def test_my_statistics_show_weeks_and_months(page: Any, site: Any) -> None:
    name = sign_up(page)
    start_daily(page)
    site.manage("shell", "-c", f"NAME = {name!r}\n" + SEED)
    page.goto("/me/stats/")

    three = page.locator("section.stats-variant", has=page.get_by_role(
        "heading", name="3-card deal"))
    check_chart(page, "chart-three-card-weeks")
    check_chart(page, "chart-three-card-months")
    expect(three.locator("#chart-three-card-months svg circle")).not_to_have_count(0)
    # A variant never played ranked has no section of empty charts.
    expect(page.locator("#chart-classic-weeks")).to_have_count(0)
    assert page.evaluate(CONTRAST)["ratio"] >= 1
    shoot(page, "my-stats", "#chart-three-card-weeks")
