"""Accounts: sign up, log in, log out, change password; a visitor's game follows them."""

from __future__ import annotations

from django.contrib.auth.models import User

from game.models import Game

from .conftest import Browser

PASSWORD = "tomb-of-the-emperor"


def form(browser: Browser, url: str, data: dict[str, str]) -> object:
    browser.client.get(url)  # the form page sets the CSRF cookie
    return browser.client.post(url, {**data, "csrfmiddlewaretoken": browser.csrf()})


def test_signing_up_takes_the_unfinished_game_along(alice: Browser) -> None:
    game = alice.new_game()
    alice.move(game["id"], "D")

    response = form(alice, "/accounts/signup/", {
        "username": "alice", "password1": PASSWORD, "password2": PASSWORD,
    })

    assert response.status_code == 302
    alice_user = User.objects.get(username="alice")
    assert Game.objects.get(pk=game["id"]).owner == alice_user
    resumed = alice.get("/api/games/resume/?variant=three-card").json()
    assert resumed["id"] == game["id"] and resumed["state"]["moves"] == 1


def test_logging_in_takes_the_unfinished_game_along(alice: Browser, carol: User) -> None:
    game = alice.new_game()

    response = form(alice, "/accounts/login/", {"username": "carol", "password": PASSWORD})

    assert response.status_code == 302
    assert Game.objects.get(pk=game["id"]).owner == carol
    assert alice.move(game["id"], "D").status_code == 200


def test_a_wrong_password_logs_nobody_in(alice: Browser, carol: User) -> None:
    game = alice.new_game()
    response = form(alice, "/accounts/login/", {"username": "carol", "password": "nope"})
    assert response.status_code == 200
    assert Game.objects.get(pk=game["id"]).owner is None


def test_logging_out_leaves_the_game_with_the_account(alice: Browser, carol: User) -> None:
    form(alice, "/accounts/login/", {"username": "carol", "password": PASSWORD})
    game = alice.new_game()

    response = alice.client.post("/accounts/logout/", {"csrfmiddlewaretoken": alice.csrf()})

    assert response.status_code == 302
    assert alice.get(f"/api/games/{game['id']}/").status_code == 403
    assert alice.get("/api/games/").json() == []


def test_changing_the_password(alice: Browser, carol: User) -> None:
    form(alice, "/accounts/login/", {"username": "carol", "password": PASSWORD})

    response = form(alice, "/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": "a-new-tomb-2024", "new_password2":
        "a-new-tomb-2024",
    })

    assert response.status_code == 302
    carol.refresh_from_db()
    assert carol.check_password("a-new-tomb-2024")


def test_the_account_pages_render(alice: Browser) -> None:
    for url in ("/accounts/login/", "/accounts/signup/"):
        response = alice.get(url)
        assert response.status_code == 200 and b"csrfmiddlewaretoken" in response.content
