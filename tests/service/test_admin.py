"""The admin: read-only games, dailies and attempts; marking a player unranked hides them
from the day boards, the all-time boards and the live field, and marking them ranked
brings them back."""

from __future__ import annotations

import asyncio
import uuid
from datetime import date
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.test import Client

from game import actions
from game.models import Game
from leaderboards import boards, events
from leaderboards.models import Attempt, Daily, PlayerStats, Standing
from patience.tomb import THREE_CARD, deal_from_number

pytestmark = pytest.mark.django_db
PAST = date(2026, 11, 1)


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("napoleon", password="elba-1814-x"))
    return client


def a_day_with(*names: str) -> Daily:
    """A past daily with one ranked, won attempt per name (the first fastest)."""
    daily = Daily.objects.create(date=PAST, variant="three-card", seed=987654321, candidate=2)
    for number, name in enumerate(names):
        user = User.objects.create_user(name)
        game = Game.objects.create(id=uuid.uuid4(), variant="three-card", seeded=True,
                                   cards="AC 2C", owner=user, ranked=True)
        Attempt.objects.create(daily=daily, game=game, user=user, ranked=True, status="won",
                               home=52, time_ms=60_000 * (number + 1), moves=100)
        PlayerStats.objects.create(user=user, variant="three-card", games=1, wins=1,
                                   win_rate=1.0, best_streak=1)
    return daily


def players(board: dict[str, Any]) -> list[str]:
    return [entry["player"] for entry in board["entries"]]


def mark(admin_client: Client, action: str, *names: str) -> Any:
    ids = [str(User.objects.get(username=name).pk) for name in names]
    return admin_client.post("/admin/auth/user/", {"action": action, "_selected_action": ids},
                             follow=True)


def test_an_unranked_player_is_on_no_board_until_marked_ranked(admin_client: Client) -> None:
    daily = a_day_with("erin", "frank", "grace")

    answer = mark(admin_client, "mark_unranked", "erin")

    assert answer.status_code == 200 and b"1 player(s) marked unranked" in answer.content
    assert Standing.objects.get(user__username="erin").unranked
    assert players(boards.day_board(daily)) == ["frank", "grace"]
    assert players(boards.field_of(daily, PAST, "three-card")) == ["frank", "grace"]
    assert players(boards.all_time_board("three-card", "wins")) == ["frank", "grace"]
    assert boards.day_board(daily)["entries"][0]["rank"] == 1  # ranks close up

    mark(admin_client, "mark_ranked", "erin")

    assert players(boards.day_board(daily)) == ["erin", "frank", "grace"]
    assert players(boards.all_time_board("three-card", "streak")) == ["erin", "frank", "grace"]


def test_the_user_list_filters_by_ranked_status(admin_client: Client) -> None:
    a_day_with("erin", "frank")
    mark(admin_client, "mark_unranked", "frank")

    unranked = admin_client.get("/admin/auth/user/?ranked=no").content
    ranked = admin_client.get("/admin/auth/user/?ranked=yes").content

    assert b">frank<" in unranked and b">erin<" not in unranked
    assert b">erin<" in ranked and b">frank<" not in ranked
    page = admin_client.get(f"/admin/auth/user/{User.objects.get(username='frank').pk}/change/")
    assert page.status_code == 200 and b"by napoleon" in page.content


def test_the_live_field_leaves_an_unranked_player_out(admin_client: Client) -> None:
    daily = a_day_with("erin", "frank")
    mark(admin_client, "mark_unranked", "erin")
    layer = get_channel_layer()
    async_to_sync(layer.group_add)(events.field_group("three-card"), "watcher")

    for attempt in Attempt.objects.filter(daily=daily).order_by("user__username"):
        events.send_attempt(str(attempt.game_id))

    async def received() -> list[str]:
        names = []
        while True:
            try:
                message = await asyncio.wait_for(layer.receive("watcher"), 0.2)
            except TimeoutError:
                return names
            names.append(message["entry"]["player"])

    assert async_to_sync(received)() == ["frank"]


def test_a_game_is_read_only_but_shows_its_deal(admin_client: Client) -> None:
    carol = User.objects.create_user("carol")
    game = actions.do_create_game(actions.Player(user_id=carol.pk), THREE_CARD,
                                  deal_from_number(2))
    url = f"/admin/game/game/{game['id']}/change/"

    page = admin_client.get(url)
    edit = admin_client.post(url, {"log": "D D D", "status": "won"})

    assert page.status_code == 200
    assert Game.objects.get(pk=game["id"]).cards.encode() in page.content  # admins see the deal
    assert b'name="log"' not in page.content and b'type="submit" value="Save"' not in page.content
    assert edit.status_code == 403 and Game.objects.get(pk=game["id"]).log == ""
    assert admin_client.get("/admin/game/game/add/").status_code == 403
    assert admin_client.get(f"/admin/game/game/{game['id']}/delete/").status_code == 403


def test_games_are_filtered_and_searched_by_player(admin_client: Client) -> None:
    for name, variant in [("carol", "three-card"), ("dave", "classic")]:
        user = User.objects.create_user(name)
        actions.do_create_game(actions.Player(user_id=user.pk), THREE_CARD
                               if variant == "three-card" else actions.check_variant(variant),
                               deal_from_number(7))

    classic = admin_client.get("/admin/game/game/?variant=classic").content
    carols = admin_client.get("/admin/game/game/?q=carol").content

    assert b">dave<" in classic and b">carol<" not in classic
    assert b">carol<" in carols and b">dave<" not in carols
    assert admin_client.get("/admin/game/game/?ranked__exact=1&status=won").status_code == 200


def test_dailies_and_attempts_are_listed_with_their_figures(admin_client: Client) -> None:
    a_day_with("erin", "frank")

    dailies = admin_client.get("/admin/leaderboards/daily/").content
    attempts = admin_client.get("/admin/leaderboards/attempt/?q=frank&daily__variant=three-card")

    assert b"987654321" in dailies and b"Nov. 1, 2026" in dailies
    assert attempts.status_code == 200
    assert b">frank<" in attempts.content and b">erin<" not in attempts.content
    assert b"2:00" in attempts.content  # frank's time
    assert admin_client.get("/admin/leaderboards/daily/add/").status_code == 403
    daily = Daily.objects.get()
    page = admin_client.get(f"/admin/leaderboards/daily/{daily.pk}/change/").content
    assert " ".join(daily.deal().texts).encode() in page  # admins may see the deal
    assert admin_client.get("/admin/leaderboards/playerstats/?variant=classic").status_code == 200


def test_a_player_who_is_not_staff_cannot_reach_the_admin(carol: User) -> None:
    client = Client()
    client.force_login(carol)

    assert client.get("/admin/game/game/").status_code == 302  # to the admin's log-in
    assert client.post("/admin/auth/user/", {"action": "mark_unranked",
                                             "_selected_action": [carol.pk]}).status_code == 302
    assert not Standing.objects.exists()
