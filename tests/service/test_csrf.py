"""CSRF on every write: each URL pattern of the site, walked from the resolver, refuses a
POST, PUT, PATCH or DELETE without the token from a logged-in session (403, changing
nothing); and each write the site offers succeeds with the token."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.views import View
from rest_framework.views import APIView

from game.actions import Player
from game.models import Game
from leaderboards.days import today
from leaderboards.models import Daily
from patience.tomb import THREE_CARD
from races.actions import do_create_race

pytestmark = pytest.mark.django_db
WRITE_METHODS = ("post", "put", "patch", "delete")
PASSWORD = "tomb-of-the-emperor"
# Function views that take form posts (a class-based view says so by its methods).
FUNCTION_WRITES = {"accounts/signup/"}


def routes(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every URL pattern as (route, view), resolvers flattened."""
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            callback = pattern.callback
            view = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
            yield prefix + str(pattern.pattern), view or callback


def concrete(route: str, values: dict[str, str]) -> str:
    """A URL for the route: each parameter filled in, the admin's regexes too."""
    url = route.replace("^(?P<app_label>auth|game|leaderboards|races)/$", "auth/")
    url = url.replace("(?P<url>.*)$", "nowhere/")
    url = re.sub(r"<(?:\w+:)?(\w+)>", lambda match: values[match.group(1)], url)
    return "/" + url


def takes_writes(route: str, view: Any) -> bool:
    if route.startswith("admin/"):
        return False  # every admin view takes posts; test_admin covers what they do
    if isinstance(view, type) and issubclass(view, APIView | View):
        return any(hasattr(view, method) for method in WRITE_METHODS)
    return route in FUNCTION_WRITES


def writes_of(route: str, view: Any) -> list[str]:
    if isinstance(view, type) and issubclass(view, APIView):
        return [method for method in WRITE_METHODS if hasattr(view, method)]
    # Django's form views answer PUT as POST; a browser's form only ever posts.
    return ["post"]


@pytest.fixture
def values(carol: User, carol_game: dict[str, Any]) -> dict[str, str]:
    return {"game_id": carol_game["id"], "game": "napoleons-tomb", "variant": "three-card",
            "day": (today() - timedelta(days=1)).isoformat(), "board": "wins",
            "uidb64": "MQ", "token": "set-password", "object_id": str(carol.pk),
            "content_type_id": "1", "id": str(carol.pk), "entry_id": "1",
            "code": do_create_race(Player(user_id=carol.pk), THREE_CARD, 5, True)["code"]}


def session_of(user: User | None) -> Client:
    """A browser that enforces CSRF, holding the CSRF cookie (it just forgot the token)."""
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    client.get("/api/csrf/")
    return client


def send(client: Client, method: str, url: str, data: Any = None, token: bool = True) -> Any:
    headers = {"HTTP_X_CSRFTOKEN": client.cookies["csrftoken"].value} if token else {}
    if isinstance(data, dict) and not url.startswith("/api/"):
        return getattr(client, method)(url, data, **headers)  # a form
    body = "" if data is None else json.dumps(data)
    return getattr(client, method)(url, body, content_type="application/json", **headers)


def test_every_write_without_the_token_is_refused(carol: User, values: dict[str, str],
                                                  carol_game: dict[str, Any]) -> None:
    client = session_of(carol)
    before = (Game.objects.count(), User.objects.count())
    walked = 0

    for route, _view in routes():
        url = concrete(route, values)
        for method in WRITE_METHODS:
            response = send(client, method, url, {"move": "D"}, token=False)
            assert response.status_code == 403, f"{method.upper()} {url}: {response.status_code}"
            if url.startswith("/api/"):  # says why, in the API's own format
                assert b"CSRF" in response.content
            walked += 1

    assert walked > 250  # the whole site, admin included
    assert (Game.objects.count(), User.objects.count()) == before
    assert Game.objects.get(pk=carol_game["id"]).version == carol_game["version"]


def write_table(game_id: str, day: str) -> dict[tuple[str, str], tuple[Any, set[int]]]:
    """Each write the site offers: (route, method) -> (body, statuses meaning success)."""
    return {
        ("api/games/", "post"): ({"variant": "classic", "deal": 7}, {201}),
        ("api/games/<uuid:game_id>/moves/", "post"): ({"move": "D"}, {200}),
        ("api/games/<uuid:game_id>/undo/", "post"): (None, {200}),
        ("api/games/<uuid:game_id>/hint/", "post"): (None, {200}),
        # Past the CSRF check to the rules, which refuse to finish a game just begun.
        ("api/games/<uuid:game_id>/finish/", "post"): (None, {409}),
        ("api/daily/<str:variant>/play/", "post"): (None, {200, 201}),
        ("api/daily/<str:variant>/<str:day>/replay/", "post"): (None, {201}),
        ("api/<game:game>/<variant:variant>/daily/play/", "post"): (None, {200, 201}),
        ("api/<game:game>/<variant:variant>/daily/<str:day>/replay/", "post"): (None, {201}),
        # carol's room (values), she alone in it: past the CSRF check to the race's rules.
        ("api/races/", "post"): ({"variant": "three-card"}, {201}),
        ("api/races/<str:code>/join/", "post"): (None, {409}),  # in it already
        ("api/races/<str:code>/ready/", "post"): ({"ready": True}, {200}),
        ("api/races/<str:code>/options/", "post"): ({"minutes": 10}, {200}),
        ("api/races/<str:code>/start/", "post"): (None, {409}),  # alone
        ("api/races/<str:code>/give-up/", "post"): (None, {409}),  # not running
        ("api/races/<str:code>/rematch/", "post"): (None, {409}),  # not over
        ("api/races/<str:code>/leave/", "post"): (None, {200}),
        ("accounts/signup/", "post"): ({"username": "erin", "password1": PASSWORD,
                                        "password2": PASSWORD}, {302}),
        ("accounts/login/", "post"): ({"username": "carol", "password": PASSWORD}, {302}),
        ("accounts/logout/", "post"): ({}, {302}),
        ("accounts/password_change/", "post"): ({"old_password": PASSWORD,
                                                 "new_password1": "a-new-tomb-2024",
                                                 "new_password2": "a-new-tomb-2024"}, {302}),
        ("accounts/password_reset/", "post"): ({"email": "carol@example.org"}, {302}),
        # A forged reset link: the page says the link is invalid (no write, no 403).
        ("accounts/reset/<uidb64>/<token>/", "post"): ({"new_password1": "x"}, {200}),
    }


def test_every_write_with_the_token_succeeds(carol: User, values: dict[str, str],
                                             screened: Any) -> None:
    Daily.objects.create(date=today() - timedelta(days=1), variant="three-card", seed=42,
                         candidate=0)
    table = write_table(values["game_id"], values["day"])
    offered = {(route, method) for route, view in routes() if takes_writes(route, view)
               for method in writes_of(route, view)}

    assert offered == set(table), "a write without its CSRF check here"
    for (route, method), (body, statuses) in table.items():
        logged_in = not route.startswith(("accounts/signup/", "accounts/login/"))
        client = session_of(carol if logged_in else None)
        response = send(client, method, concrete(route, values), body)
        assert response.status_code in statuses, f"{method} {route}: {response.status_code}"
