"""Charts drawn on the server (leaderboards.charts) and the pages that show them: text
alternatives, proportions, the reader's mark, empty data, and one query per chart."""

from __future__ import annotations

import re
import uuid
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from game.models import Game
from leaderboards import chart_data, charts
from leaderboards.days import today
from leaderboards.models import Attempt, Daily, Review, Standing

from .conftest import Browser
from .secrecy import CARD_TOKEN

PAST = date(2026, 11, 1)
BAR = re.compile(r'<rect class="bar( mine)?" x="[\d.]+" y="[\d.]+" width="[\d.]+" '
                 r'height="([\d.]+)" data-count="(\d+)"/>')


# -- the builders (no database) -------------------------------------------------------

def test_a_histogram_has_a_title_a_description_and_a_table() -> None:
    chart = charts.histogram("c1", "Winners' times", [61_000, 65_000, 125_000],
                             chart_data.TIME, empty="none")

    assert chart.svg is not None and chart.table is not None and chart.empty is None
    svg = str(chart.svg)
    assert 'role="img"' in svg and 'aria-labelledby="c1-title"' in svg
    assert 'aria-describedby="c1-desc"' in svg
    assert '<title id="c1-title">Winners&#x27; times</title>' in svg
    assert f'<desc id="c1-desc">{chart.desc.replace(chr(39), "&#x27;")}</desc>' in svg
    assert chart.desc.startswith("3 players, time from 1:01 to 2:05")
    assert sum(int(count) for _, count in chart.table.rows) == 3


def test_bars_are_proportional_to_their_counts() -> None:
    chart = charts.histogram("c", "Moves", [100] * 4 + [110] * 2 + [130], chart_data.MOVES,
                             empty="none")

    bars = [(float(height), int(count)) for _, height, count in BAR.findall(str(chart.svg))]
    tallest = max(height for height, _ in bars)
    assert [count for _, count in bars if count] == [4, 2, 1]
    for height, count in bars:
        assert height == pytest.approx(tallest * count / 4, abs=0.11)
    assert len(bars) <= charts.MAX_BINS


def test_my_mark_sits_in_my_bin_and_is_said_in_words() -> None:
    times = [60_000, 90_000, 120_000, 150_000, 180_000]
    chart = charts.histogram("c", "Winners' times", times, chart_data.TIME, mine=90_000,
                             mine_words="Your time", empty="none")

    svg = str(chart.svg)
    marked = [(mine, count) for mine, _, count in BAR.findall(svg) if mine]
    assert marked == [(" mine", "1")]
    assert '<line class="mark"' in svg and ">Your time: 1:30</text>" in svg
    assert "Your time: 1:30, faster than 60% of them." in chart.desc
    assert chart.table is not None
    assert [row for row in chart.table.rows if row[0].endswith("(yours)")] == [
        ("1:30 to 1:45 (yours)", "1")]


def test_cards_home_count_more_as_better() -> None:
    chart = charts.histogram("c", "Cards home", [10, 20, 30, 40], chart_data.HOME, mine=30,
                             mine_words="Yours", empty="none")
    assert "Yours: 30, more cards home than 50% of them." in chart.desc


def test_no_data_gives_a_sentence_not_an_empty_chart() -> None:
    nothing = [charts.histogram("a", "Times", [], chart_data.TIME, empty="Nobody won."),
               charts.rate_bars("b", "Rate", [charts.Rate("w", "w", 0, 0)] * 3,
                                empty="No daily played."),
               charts.best_line("c", "Best", [charts.Best("m", "m", None)] * 3,
                                empty="No daily won.")]

    assert [(chart.svg, chart.table, chart.empty) for chart in nothing] == [
        (None, None, "Nobody won."), (None, None, "No daily played."),
        (None, None, "No daily won.")]


def test_every_text_is_escaped() -> None:
    chart = charts.rate_bars("x", "<script>alert(1)</script>",
                             [charts.Rate("<b>week</b>", "<i>", 1, 2)], empty="none")
    assert "<script>" not in str(chart.svg) and "<i>" not in str(chart.svg)
    assert "&lt;script&gt;" in str(chart.svg)


def test_win_rate_bars_and_best_times() -> None:
    rates = charts.rate_bars("r", "Win rate", [charts.Rate("one", "1", 1, 2),
                                               charts.Rate("two", "2", 0, 0),
                                               charts.Rate("three", "3", 3, 3)], empty="")
    best = charts.best_line("b", "Best", [charts.Best("Jan", "J", 200_000),
                                          charts.Best("Feb", "F", None),
                                          charts.Best("Mar", "M", 100_000)], empty="")

    assert re.findall(r'height="([\d.]+)" data-rate="(\d+)"', str(rates.svg)) == [
        (f"{charts.PLOT_H / 2:.1f}", "50"), (f"{charts.PLOT_H:.1f}", "100")]
    assert rates.desc == "2 of the 3 periods with a daily played; 4 won of 5 (80%); " \
                         "the best, three: 100%."
    ys = dict(re.findall(r'cy="([\d.]+)" r="5" data-ms="(\d+)"', str(best.svg)))
    assert len(ys) == 2 and "fastest, 1:40, in Mar" in best.desc
    assert best.table is not None and best.table.rows[1] == ("Feb", "no win")


# -- the pages -----------------------------------------------------------------------------

def a_daily(day: date = PAST) -> Daily:
    return Daily.objects.create(date=day, variant="three-card", seed=999 + day.toordinal(),
                                candidate=0)


def result(daily: Daily, user: User | None, **row: Any) -> Attempt:
    user = user or User.objects.create(username=f"p{uuid.uuid4().hex[:8]}")
    game = Game.objects.create(id=uuid.uuid4(), variant=daily.variant, seeded=True, cards="",
                               owner=user, ranked=True)
    return Attempt.objects.create(daily=daily, game=game, user=user, ranked=True, **row)


def field(daily: Daily) -> None:
    for n in range(30):
        result(daily, None, status="won", home=52, time_ms=120_000 + n * 7_000,
               moves=110 + n)
    for n in range(10):
        result(daily, None, status="lost", home=10 + 3 * n, time_ms=200_000, moves=90)


@pytest.mark.django_db
def test_a_past_days_charts_cost_one_query_and_leave_out_held_results(
    alice: Browser, django_assert_num_queries: Any
) -> None:
    daily = a_daily()
    field(daily)
    held = result(daily, None, status="won", home=52, time_ms=1_000, moves=5,
                  review=Review.PENDING)
    hidden = result(daily, None, status="won", home=52, time_ms=2_000, moves=6)
    Standing.objects.create(user=hidden.user, unranked=True)
    alice.csrf()

    with django_assert_num_queries(3):  # the day's daily, a page of the board, the spread
        page = alice.get(f"/napoleons-tomb/three-card/daily/{PAST}/").content.decode()

    assert 'id="chart-time"' in page and 'id="chart-home"' in page
    assert "30 players, time from 2:00 to 5:23" in page  # neither 0:01 nor 0:02
    assert "10 players, cards home from 10 to 37" in page
    assert held.user.username not in page


@pytest.mark.django_db
def test_today_shows_the_charts_only_after_my_game_and_never_a_card(
    carol: User, carol_browser: Browser, alice: Browser, django_assert_num_queries: Any
) -> None:
    daily = a_daily(today())
    field(daily)
    mine = result(daily, carol, status="playing", home=20, time_ms=50_000, moves=40)

    today_page = f"/napoleons-tomb/three-card/daily/{today()}/"
    assert "The day in figures" in alice.get(today_page).content.decode()
    assert 'id="chart-time"' not in alice.get(today_page).content.decode()
    assert 'id="chart-time"' not in carol_browser.get(
        f"/napoleons-tomb/three-card/daily/{today()}/").content.decode()

    Attempt.objects.filter(pk=mine.pk).update(status="won", home=52, time_ms=150_000,
                                              moves=200)
    with django_assert_num_queries(5):  # session, user; daily, board page, spread
        page = carol_browser.get(f"/napoleons-tomb/three-card/daily/{today()}/").content.decode()

    assert 'id="chart-time"' in page and 'id="chart-moves"' in page
    assert "Your time: 2:30, faster than" in page and "Your moves: 200" in page
    assert 'id="chart-home"' not in page  # a winner is not shown the losers' chart
    assert not CARD_TOKEN.findall(page)


@pytest.mark.django_db
def test_my_result_under_review_is_marked_for_me_but_not_counted(
    carol: User, carol_browser: Browser
) -> None:
    daily = a_daily()
    field(daily)
    result(daily, carol, status="lost", home=44, time_ms=1, moves=1, review=Review.PENDING)

    page = carol_browser.get(f"/napoleons-tomb/three-card/daily/{PAST}/").content.decode()

    assert "10 players, cards home from 10 to 37" in page and "Yours: 44" in page


@pytest.mark.django_db
def test_my_statistics_draw_weeks_and_months_in_two_queries(
    carol: User, carol_browser: Browser, django_assert_num_queries: Any
) -> None:
    day = today()
    for back, status, ms in ((0, "won", 300_000), (1, "lost", 0), (8, "won", 200_000),
                             (40, "won", 100_000), (400, "won", 50_000)):
        result(a_daily(day - timedelta(days=back)), carol, status=status, home=52,
               time_ms=ms, moves=100)

    carol_browser.get("/me/stats/")  # the session's first page also brings back her language
    # session, user; free play (game.actions); stats, free play, calendar; weeks, months;
    # races (none: no list of them)
    with django_assert_num_queries(9):
        page = carol_browser.get("/me/stats/").content.decode()

    assert 'id="chart-three-card-weeks"' in page and 'id="chart-three-card-months"' in page
    # A variant never played ranked has no charts of empty weeks (nor a section).
    assert 'id="chart-classic-weeks"' not in page and "No ranked classic" not in page
    assert "1:40" in page and "0:50" not in page  # 400 days ago is out of the window
    rates = chart_data.weekly_rates(carol.pk, day)["three-card"]
    assert len(rates) == 12 and sum(r.played for r in rates) == 4  # 40 days: in 12 weeks
    assert sum(r.won for r in rates) == 3
    playing = a_daily(day - timedelta(days=2))
    result(playing, carol, status="playing", home=3, time_ms=1, moves=1)
    Attempt.objects.filter(user=carol, daily__date=day).update(status="playing")
    rates = chart_data.weekly_rates(carol.pk, day)["three-card"]
    # Today's game still being played is not counted yet; an earlier day's is, not won.
    assert (sum(r.played for r in rates), sum(r.won for r in rates)) == (4, 2)
