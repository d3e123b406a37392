"""The pages, the rules and the share line in Russian and Finnish (issue 16, round 2):
translated words, names of games and variants, dates and a Monday-first calendar."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.utils import translation

from game.models import Game
from leaderboards.boards import share_text
from leaderboards.days import today
from leaderboards.models import Daily

from .conftest import Browser

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)


def in_language(browser: Browser, code: str) -> Browser:
    browser.client.cookies["django_language"] = code
    return browser


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize(("code", "words", "absent"), [
    ("ru", ["Как играть в «Гробницу Наполеона»", "Шаг за шагом", "Собирайте углы вверх",
            "Можно ли выиграть любой расклад?", "Партия дня и как строятся рейтинги"],
     ["Step by step", "Can every deal be won?", "How to play"]),
    ("fi", ["Näin pelaat Napoleonin hautaa", "Vaihe vaiheelta", "Rakenna kulmat ylöspäin",
            "Voiko jokaisen jaon voittaa?", "Päivän peli ja tulostaulujen järjestys"],
     ["Step by step", "Can every deal be won?", "How to play"]),
])
def test_the_tomb_s_rules_page_speaks_the_language(
        alice: Browser, code: str, words: list[str], absent: list[str]) -> None:
    page = text_of(in_language(alice, code).get("/rules/").content.decode())

    for word in words:
        assert word in page, (code, word)
    for word in absent:
        assert word not in page, (code, word)
    # the proved deals' counts still reach the translated sentence
    assert re.search(r"\d+ (доказанных раскладов|todistetusta kolmen)", page)


def test_the_rank_letters_of_the_rules_picture_follow_russian_cards(alice: Browser) -> None:
    page = in_language(alice, "ru").get("/rules/").content.decode()
    assert 'class="red">В</text>' in page and 'class="ink">К</text>' in page  # noqa: RUF001


@pytest.mark.parametrize(("code", "title", "won"), [
    ("ru", "Как играть: Остров Святой Елены", "Партия выиграна, когда все 104 карты на базах."),
    ("fi", "Näin pelaat: Pyhä Helena", "Peli on voitettu, kun kaikki 104 korttia ovat"),
])
def test_a_table_built_rules_page_names_the_game_in_the_language(
        alice: Browser, code: str, title: str, won: str) -> None:
    page = text_of(in_language(alice, code).get("/st-helena/rules/").content.decode())
    assert title in page and won in page and "The table" not in page


@pytest.mark.parametrize(("code", "words"), [
    ("ru", ["Партия дня", "Гробница Наполеона", "по три карты", "Ваша партия",
            "Участники: сегодняшний рейтинг в прямом эфире", "Зарегистрируйтесь"]),
    ("fi", ["Päivän peli", "Napoleonin hauta", "kolmen kortin jako", "Sinun pelisi",
            "Kenttä: päivän tulostaulu suorana", "Rekisteröidy"]),
])
def test_the_daily_page_speaks_the_language(
        alice: Browser, screened: Any, code: str, words: list[str]) -> None:
    response = in_language(alice, code).get("/napoleons-tomb/three-card/daily/")
    html = response.content.decode()
    page = text_of(html)

    assert response.status_code == 200
    for word in words:
        assert word in page, (code, word)
    for english in ("Daily challenge", "Your game", "Play a free deal", "The field"):
        assert english not in page, (code, english)
    # the date as the language writes it, the ISO date kept for the script
    assert f'data-date="{today().isoformat()}"' in html
    assert f'<time datetime="{today().isoformat()}">' in html
    assert str(today().year) in page


@pytest.mark.parametrize(("code", "monday", "sunday"), [
    ("en", "Mon", "Sun"), ("ru", "Пн", "Вс"), ("fi", "ma", "su")])  # noqa: RUF001
def test_the_statistics_calendar_starts_the_week_as_the_language_does(
        carol_browser: Browser, screened: Any, code: str, monday: str, sunday: str) -> None:
    carol_browser.post("/api/daily/three-card/play/")
    html = in_language(carol_browser, code).get("/me/stats/").content.decode()

    heads = re.findall(r'<th scope="col" abbr="[^"]+">([^<]+)</th>', html)
    assert len(heads) >= 7
    week = heads[:7]
    # Russian and Finnish weeks start on Monday; English (Django's format) on Sunday.
    assert week[0] == (sunday if code == "en" else monday), (code, week)
    assert week[-1] == (sunday if code != "en" else heads[6]), (code, week)
    if code != "en":
        assert "Dailies played (ranked)" not in html


def test_the_share_line_in_russian_has_its_plurals_names_and_date() -> None:
    daily = Daily(date=date(2026, 11, 29), variant="three-card")
    lost = Game(status="lost", home=38, moves=22, hints=2, started_at=START,
                finished_at=START + timedelta(seconds=3723))

    with translation.override("ru"):
        line = share_text(daily, lost, place=(3, 17), link="https://tomb.example.org/b/")

    assert line == ("Гробница Наполеона, по три карты, партия дня 29.11.2026: на базе 38 из "
                    "52 карт за 1:02:03, 22 хода, 2 подсказки, место 3 из 17. "
                    "Рейтинг: https://tomb.example.org/b/")


def test_the_share_line_in_finnish_and_english_stays_as_players_paste_it() -> None:
    daily = Daily(date=date(2026, 11, 29), variant="classic")
    won = Game(status="won", home=52, moves=1, hints=0, started_at=START,
               finished_at=START + timedelta(seconds=61))

    with translation.override("fi"):
        finnish = share_text(daily, won, ranked=False)
    with translation.override("en"):
        english = share_text(daily, won, ranked=False)

    assert finnish == ("Napoleonin hauta, klassinen yhden kortin jako, päivän peli 29.11.2026, "
                       "ei tuloksiin: voitto ajassa 1:01, 1 siirto, ei vihjeitä.")
    assert english == ("Napoleon's Tomb classic 1-card deal daily 2026-11-29, unranked: won in "
                       "1:01, 1 move, no hints.")


def test_the_board_gets_its_table_in_the_readers_language() -> None:
    """The payload's table carries each pile's words translated on the server."""
    from game.payloads import table_of

    with translation.override("ru"):
        piles = {pile["name"]: pile for pile in table_of("cross")["piles"]}
    assert piles["tomb"]["label"] != "tomb" and piles["n"]["in"] != "in the north cross place"
    with translation.override("en"):
        piles = {pile["name"]: pile for pile in table_of("cross")["piles"]}
    assert piles["n"]["in"] == "in the north cross place"


def test_the_table_built_rules_page_names_the_piles_in_russian(alice: Browser) -> None:
    page = text_of(in_language(alice, "ru").get("/st-helena/rules/").content.decode())
    assert "база червей от короля" in page and "стопка 12" in page and "King of hearts" not in page
