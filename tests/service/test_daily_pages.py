"""The plain pages of the daily challenge, the archive, and the API's schema."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from game.models import Game
from leaderboards import dailies
from leaderboards.days import today
from leaderboards.models import PlayerStats

from .conftest import Browser
from .secrecy import CARD_TOKEN

pytestmark = pytest.mark.django_db


def past_daily(days_ago: int = 3) -> Any:
    daily = dailies.make_daily(today() - timedelta(days=days_ago), "three-card")
    assert daily is not None
    return daily


def test_todays_page_shows_a_visitor_the_field_and_invites_them_without_a_play_button(
    alice: Browser, screened: Any
) -> None:
    response = alice.get("/napoleons-tomb/three-card/daily/")

    page = response.content.decode()
    assert response.status_code == 200 and "csrftoken" in response.cookies
    for part in ('id="field"', "tomb/daily.js", ">Sign up</a>", ">Play a free deal</a>",
                 ">Past dailies</a>", f'data-date="{today().isoformat()}"'):
        assert part in page
    assert 'id="play-daily"' not in page
    assert not CARD_TOKEN.findall(page)


def test_todays_page_tells_a_new_account_when_its_first_daily_opens(
    screened: Any, db: Any
) -> None:
    newcomer = Browser()
    newcomer.log_in(User.objects.create_user("erin", password="tomb-of-the-emperor"))

    page = newcomer.get("/napoleons-tomb/three-card/daily/").content.decode()

    tomorrow = today() + timedelta(days=1)
    assert f"first ranked daily opens at <strong><time datetime=\"{tomorrow}T00:00:00+00:00" in page
    assert 'id="play-daily"' not in page and ">Play a free deal</a>" in page


def test_todays_page_costs_two_queries_for_a_visitor(
    alice: Browser, screened: Any, django_assert_num_queries: Any
) -> None:
    alice.get("/api/daily/three-card/")  # made (by the eager task) before the count
    with django_assert_num_queries(2):  # today's daily, the field
        assert alice.get("/napoleons-tomb/three-card/daily/").status_code == 200


def test_a_logged_in_player_is_told_the_ranked_rules(
    carol_browser: Browser, screened: Any
) -> None:
    page = carol_browser.get("/napoleons-tomb/three-card/daily/").content.decode()
    assert "a move that turns up a card (a stock turn) cannot be undone" in page


def test_a_past_day_shows_its_board_its_order_and_a_replay(
    alice: Browser, screened: Any
) -> None:
    daily = past_daily()

    page = alice.get(f"/napoleons-tomb/three-card/daily/{daily.date}/").content.decode()
    replay = alice.post(f"/api/daily/three-card/{daily.date}/replay/")
    info = alice.get(f"/api/daily/three-card/{daily.date}/").json()

    assert " ".join(daily.deal().texts) in page and 'id="replay-daily"' in page
    assert replay.status_code == 201 and replay.json()["ranked"] is False
    assert Game.objects.get(pk=replay.json()["id"]).cards.split() == daily.deal().texts
    assert info["archived"] is True and info["cards"] == daily.deal().texts


def test_todays_deal_is_not_an_archive_yet(alice: Browser, screened: Any) -> None:
    page = alice.get(f"/napoleons-tomb/three-card/daily/{today()}/").content.decode()
    replay = alice.post(f"/api/daily/three-card/{today()}/replay/")

    assert 'id="replay-daily"' not in page and not CARD_TOKEN.findall(page)
    assert replay.status_code == 409
    assert alice.get(f"/api/daily/three-card/{today()}/").json()["cards"] is None


def test_the_archive_lists_past_days_only(alice: Browser, screened: Any) -> None:
    old = past_daily(2)
    alice.get("/api/daily/three-card/")  # today's

    listed = alice.get("/api/daily/three-card/archive/").json()
    page = alice.get("/napoleons-tomb/three-card/daily/archive/").content.decode()

    assert [entry["date"] for entry in listed] == [old.date.isoformat()]
    assert old.date.isoformat() in page and today().isoformat() not in page


def test_unknown_days_and_variants_get_plain_error_pages(alice: Browser, screened: Any) -> None:
    tomorrow = today() + timedelta(days=1)
    assert alice.get("/daily/").status_code == 200  # every game's dailies
    assert alice.get("/daily/freecell/").status_code == 404
    assert alice.get("/napoleons-tomb/freecell/daily/").status_code == 404
    assert alice.get(f"/napoleons-tomb/three-card/daily/{tomorrow}/").status_code == 404
    assert alice.get("/napoleons-tomb/three-card/daily/2026-02-30/").status_code == 400
    assert alice.get("/napoleons-tomb/three-card/boards/").status_code == 200


def test_the_daily_script_is_served(alice: Browser) -> None:
    response = alice.get("/static/tomb/daily.js")
    assert response.status_code == 200
    assert b"/ws/daily/" in b"".join(response.streaming_content)


def test_the_schema_describes_the_daily_api(alice: Browser) -> None:
    schema = alice.get("/api/schema/").content.decode()
    game = "/api/{game}/{variant}"
    for path in (f"{game}/daily/", f"{game}/daily/play/", f"{game}/daily/field/",
                 f"{game}/daily/{{day}}/board/", f"{game}/daily/{{day}}/replay/",
                 f"{game}/daily/archive/", f"{game}/boards/{{board}}/",
                 "/api/me/daily-stats/"):
        assert f"{path}:" in schema
    # The first addresses still answer, but the schema documents each operation once.
    assert "/api/daily/{variant}/:" not in schema


# -- the pages' server rendering: what a player sees before any script runs -------------

def play_greedily(browser: Browser, game: str, target: int = 52) -> dict[str, Any]:
    """Home when a card fits, else turn, else park: until `target` home or the end."""
    state = browser.get(f"/api/games/{game}/").json()
    while state["status"] == "playing" and state["home"] < target:
        legal = state["state"]["legal"]
        move = next(m for m in [*(m for m in legal if m.startswith("F")), "D", "R",
                                *(m for m in legal if m.startswith("C"))] if m in legal)
        state = browser.move(game, move).json()
    return state


def attempt_part(page: str) -> str:
    return page.split('id="me"', 1)[1].split("</section>", 1)[0]


def test_the_daily_page_follows_my_attempt_and_never_shows_a_card(
    carol_browser: Browser, screened: Any
) -> None:
    before = carol_browser.get("/napoleons-tomb/three-card/daily/").content.decode()
    game = carol_browser.post("/api/daily/three-card/play/").json()["id"]
    played = play_greedily(carol_browser, game, target=1)
    during = carol_browser.get("/napoleons-tomb/three-card/daily/").content.decode()
    finished = play_greedily(carol_browser, game)
    after = carol_browser.get("/napoleons-tomb/three-card/daily/").content.decode()

    assert "Not started yet" in attempt_part(before) and "Play today's daily" in before
    assert "In progress" in attempt_part(during) and "Continue your game" in during
    assert f"<strong>{played['home']}</strong> of 52 cards home" in during
    assert '<tr data-player="carol" class="me" aria-current="true">' in during
    assert 'On today\'s board: <strong id="my-rank">1 of 1</strong>' in during
    assert "Finished" in attempt_part(after) and "See your game" in after
    assert finished["status"] in ("won", "lost") and 'id="copy-share"' in after
    assert f"Napoleon&#x27;s Tomb 3-card deal daily {today().isoformat()}: " in attempt_part(after)
    for page in (before, during, after):
        assert not CARD_TOKEN.findall(page)
        assert "tomb/pages.css" in page


def test_the_days_board_pages_and_marks_my_row(
    carol_browser: Browser, dave_browser: Browser, screened: Any, settings: Any
) -> None:
    settings.BOARD_PAGE_SIZE = 1
    for browser in (carol_browser, dave_browser):
        browser.post("/api/daily/three-card/play/")
    board = f"/napoleons-tomb/three-card/daily/{today()}/"

    first = dave_browser.get(board).content.decode()
    second = dave_browser.get(board + "?page=2").content.decode()

    assert 'href="?page=2"' in first and "Previous page" not in first
    assert 'href="?page=1"' in second and "Next page" not in second
    assert first.count('class="me"') + second.count('class="me"') == 1
    assert dave_browser.get(board + "?page=0").status_code == 400


def test_each_all_time_board_turns_its_own_pages(
    carol_browser: Browser, screened: Any, settings: Any
) -> None:
    carol_browser.post("/api/daily/three-card/play/")
    # The streak board ranks days won in a row: carol won a day before.
    PlayerStats.objects.filter(user__username="carol").update(best_streak=1)

    first = carol_browser.get("/napoleons-tomb/three-card/boards/").content.decode()
    later = carol_browser.get(
        "/napoleons-tomb/three-card/boards/?board=streak&page=2").content.decode()

    assert ('<tr class="me" aria-current="true"><td>1</td><th scope="row">carol'
            '<span class="you"> (you)</span></th>') in first
    assert 'id="today"' in first and '<tr data-player="carol" class="me"' in first
    assert "Nobody yet on this page" in later and 'href="?board=streak&amp;page=1#streak"' in later
    assert carol_browser.get("/napoleons-tomb/three-card/boards/?board=fastest").status_code == 400


def test_the_calendar_turns_months_but_not_past_this_one(
    carol_browser: Browser, screened: Any
) -> None:
    carol_browser.post("/api/daily/three-card/play/")
    this_month = today().strftime("%Y-%m")
    last_month = (today().replace(day=1) - timedelta(days=1)).strftime("%Y-%m")

    now = carol_browser.get("/me/stats/").content.decode()
    before = carol_browser.get(f"/me/stats/?month={last_month}").content.decode()

    assert f'href="?month={last_month}" data-month rel="prev"' in now
    assert 'rel="next"' not in now and 'aria-current="date"' in now
    assert f'href="?month={this_month}" data-month rel="next"' in before
    assert 'class="played' not in before and 'class="played playing"' in now


def test_account_forms_show_their_errors(carol: Any) -> None:
    browser = Browser()
    token = browser.csrf()

    login = browser.client.post("/accounts/login/", {
        "username": "carol", "password": "wrong", "csrfmiddlewaretoken": token,
    }).content.decode()
    signup = browser.client.post("/accounts/signup/", {
        "username": "carol", "password1": "a-long-password-1", "password2": "another-one-2",
        "csrfmiddlewaretoken": token,
    }).content.decode()

    assert 'role="alert"' in login and "correct username and password" in login
    assert 'role="alert"' in signup and "That name is taken." in signup
    assert signup.count('aria-invalid="true"') == 2
    assert 'name="csrfmiddlewaretoken"' in login and 'name="csrfmiddlewaretoken"' in signup


def test_the_archive_pages_back_through_older_dailies(
    alice: Browser, screened: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leaderboards import views

    monkeypatch.setattr(views, "ARCHIVE_PAGE", 2)
    days = [past_daily(ago).date.isoformat() for ago in (1, 2, 3)]

    newest = alice.get("/napoleons-tomb/three-card/daily/archive/").content.decode()
    older = alice.get(
        f"/napoleons-tomb/three-card/daily/archive/?before={days[1]}").content.decode()

    assert days[0] in newest and days[1] in newest and days[2] not in newest
    assert f'href="?before={days[1]}"' in newest
    assert days[2] in older and days[1] not in older and "Older dailies" not in older
    assert alice.get("/napoleons-tomb/three-card/daily/archive/?before=someday").status_code == 400


def test_sign_up_from_the_daily_page_comes_back_to_it(alice: Browser, db: Any) -> None:
    form = alice.get("/accounts/signup/?next=/napoleons-tomb/three-card/daily/").content.decode()

    def sign_up(name: str, after: str) -> Any:
        return alice.client.post("/accounts/signup/", {
            "username": name, "password1": "tomb-of-the-emperor-1821",
            "password2": "tomb-of-the-emperor-1821", "next": after,
            "csrfmiddlewaretoken": alice.csrf(),  # a log-in rotates it
        })

    assert 'name="next" value="/napoleons-tomb/three-card/daily/"' in form
    today_page = "/napoleons-tomb/three-card/daily/"
    assert sign_up("erin", today_page)["Location"] == today_page
    alice.client.logout()
    assert sign_up("frank", "https://elsewhere.example/")["Location"] == "/"


def test_the_archive_shows_my_result_on_each_past_daily(
    carol_browser: Browser, screened: Any, clock: Any
) -> None:
    played = carol_browser.post("/api/daily/three-card/play/").json()
    day = today().isoformat()
    home = play_greedily(carol_browser, played["id"], target=1)["home"]
    clock.tick(24 * 60 * 60)  # the next day: yesterday's daily is in the archive
    past_daily(2)  # one carol did not play

    page = carol_browser.get("/napoleons-tomb/three-card/daily/archive/").content.decode()
    mine = page.split(day, 1)[1].split("</li>", 1)[0]

    assert f"you: {home} home" in mine
    assert page.count("not played") == 1
