"""Fair play on the ranked daily: a second account on one device or address, and a
machine-speed game, are held for review off every public board and the live field
until an admin clears them; honest players are not flagged."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from leaderboards import fairplay
from leaderboards.device import COOKIE, MAX_AGE
from leaderboards.models import Attempt, PlayerStats, Review, Standing
from leaderboards.preparing import todays_daily
from leaderboards.tasks import forget_addresses
from patience.tomb import THREE_CARD
from solver_worker.clairvoyance import limits

from .conftest import HUMAN_PACE_S, Browser, Clock
from .lines import seeded_line
from .test_daily_field import watch_field

pytestmark = pytest.mark.django_db
FLOOR_MS = limits("three-card").median_ms
QUEUE = "/admin/leaderboards/flaggedattempt/"


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("napoleon", password="elba-1814-x"))
    return client


def play(browser: Browser, variant: str = "three-card") -> dict[str, Any]:
    response = browser.post(f"/api/daily/{variant}/play/")
    assert response.status_code in (200, 201), response.content
    return dict(response.json())


def on_device_of(other: Browser, user: User, address: str | None = None) -> Browser:
    """Another account in the same browser (its device cookie), from its own address."""
    browser = Browser(address)
    browser.client.cookies[COOKIE] = other.client.cookies[COOKIE].value
    browser.log_in(user)
    return browser


def public_names(viewer: Browser) -> dict[str, list[str]]:
    """Who the day board, the field and the all-time streak board show (API and pages)."""
    day = timezone.now().date().isoformat()
    names = {
        "day": viewer.get(f"/api/daily/three-card/{day}/board/").json()["entries"],
        "field": viewer.get("/api/daily/three-card/field/").json()["entries"],
        "streak": viewer.get("/api/boards/three-card/streak/").json()["entries"],
    }
    found = {where: [entry["player"] for entry in rows] for where, rows in names.items()}
    page = viewer.get(f"/napoleons-tomb/three-card/daily/{day}/").content.decode()
    found["day page"] = [name for name in ("carol", "dave") if f">{name}<" in page]
    return found


def decide(admin_client: Client, action: str, *attempts: Attempt) -> Any:
    response = admin_client.post(QUEUE, {"action": action,
                                         "_selected_action": [a.pk for a in attempts]},
                                 follow=True)
    assert response.status_code == 200
    return response


def test_the_device_cookie_is_random_long_lived_and_http_only(alice: Browser) -> None:
    first = alice.get("/api/csrf/").cookies[COOKIE]
    assert len(first.value) == 32 and int(first.value, 16) >= 0
    assert first["max-age"] == MAX_AGE == 2 * 365 * 24 * 3600
    assert first["httponly"] and first["samesite"] == "Lax"
    assert COOKIE not in alice.get("/api/csrf/").cookies  # kept, not renewed
    assert Browser().get("/api/csrf/").cookies[COOKIE].value != first.value

    alice.client.cookies[COOKIE] = "not-a-device<script>"
    assert alice.get("/api/csrf/").cookies[COOKIE].value != "not-a-device<script>"


def test_two_accounts_on_one_device_are_both_held_until_an_admin_clears_them(
    screened: Any, carol: User, dave: User, alice: Browser, admin_client: Client
) -> None:
    first = Browser()
    first.log_in(carol)
    play(first)
    second = on_device_of(first, dave)
    game = play(second)
    second.move(game["id"], "D")
    # Both have won days before, so both would be on the streak board (days won).
    PlayerStats.objects.filter(user__in=[carol, dave]).update(best_streak=1)

    attempt = Attempt.objects.get(user=dave)
    assert (attempt.flags, attempt.review) == ("device", Review.PENDING)
    # Which account came first says nothing (a scout may start second): both are held.
    first_attempt = Attempt.objects.get(user=carol)
    assert (first_attempt.flags, first_attempt.review) == ("device", Review.PENDING)
    # Its player sees it under review: the API's "me", the daily page, the calendar.
    assert second.get("/api/daily/three-card/").json()["me"]["under_review"] is True
    assert 'id="under-review"' in second.get("/napoleons-tomb/three-card/daily/").content.decode()
    calendar = second.get("/api/me/daily-stats/").json()[0]["calendar"]
    assert [day["under_review"] for day in calendar] == [True]
    assert "under review" in second.get("/me/stats/").content.decode()
    assert first.get("/api/daily/three-card/").json()["me"]["under_review"] is True
    # Nobody else sees them.
    held = public_names(alice)
    assert held == {"day": [], "field": [], "streak": [], "day page": []}

    queue = admin_client.get(QUEUE).content.decode()
    assert "dave" in queue and "device" in queue
    evidence = admin_client.get(f"{QUEUE}{attempt.pk}/change/").content.decode()
    assert "<td>carol</td><td>device</td>" in evidence
    decide(admin_client, "clear", attempt, first_attempt)

    assert Attempt.objects.get(user=dave).review == Review.CLEARED
    shown = public_names(alice)
    assert all(sorted(names) == ["carol", "dave"] for names in shown.values()), shown
    assert "dave" not in admin_client.get(QUEUE).content.decode()  # left the queue
    assert "dave" in admin_client.get(f"{QUEUE}?review=cleared").content.decode()


def test_the_same_address_on_another_device_is_flagged_too(
    screened: Any, carol_browser: Browser, dave: User, alice: Browser
) -> None:
    play(carol_browser)
    other_device = Browser(carol_browser.address)
    other_device.log_in(dave)
    play(other_device)
    assert Attempt.objects.get(user=dave).flags == "address"
    assert "dave" not in public_names(alice)["day"]


def test_other_variants_and_other_places_do_not_count(
    screened: Any, carol_browser: Browser, dave_browser: Browser
) -> None:
    """The classic daily is another deal: it teaches nothing about the 3-card one."""
    play(carol_browser, "classic")
    dave_browser.client.cookies[COOKIE] = carol_browser.client.cookies[COOKIE].value
    play(dave_browser, "three-card")
    assert set(Attempt.objects.values_list("review", flat=True)) == {Review.NONE}


def test_the_address_is_kept_as_a_keyed_hash_only(screened: Any, carol_browser: Browser) -> None:
    play(carol_browser)
    attempt = Attempt.objects.get()
    assert carol_browser.address not in attempt.address_hash
    assert attempt.address_hash == fairplay.keyed_hash("address", carol_browser.address)
    assert len(attempt.address_hash) == 64  # SHA-256
    device = carol_browser.client.cookies[COOKIE].value
    assert attempt.device_hash == fairplay.keyed_hash("device", device) != device


def test_mark_player_unranked_from_the_queue(
    screened: Any, carol: User, dave: User, alice: Browser, admin_client: Client
) -> None:
    first = Browser()
    first.log_in(carol)
    play(first)
    play(on_device_of(first, dave))
    decide(admin_client, "mark_player_unranked", Attempt.objects.get(user=dave))

    assert Attempt.objects.get(user=dave).review == Review.UNRANKED
    assert Standing.objects.get(user=dave).unranked
    assert "dave" not in public_names(alice)["day"]


def test_a_scripted_win_at_machine_speed_is_flagged_for_pace(
    carol_browser: Browser, alice: Browser, todays_daily: Any
) -> None:
    game = play(carol_browser)
    for move in seeded_line(todays_daily.seed):
        assert carol_browser.move(game["id"], move).status_code == 200

    attempt = Attempt.objects.get()
    assert (attempt.status, attempt.flags, attempt.review) == ("won", "pace", Review.PENDING)
    figures = fairplay.pace_figures(fairplay.parse_intervals(attempt.intervals), "three-card")
    assert figures["median_ms"] < FLOOR_MS
    assert "carol" not in public_names(alice)["day"]
    assert carol_browser.get("/api/daily/three-card/").json()["me"]["under_review"] is True


def test_a_scripted_win_ended_with_finish_is_judged_too(
    carol_browser: Browser, todays_daily: Any, clock: Clock
) -> None:
    """Placements paced so the median passes (most just over the floor, the rest at once),
    then the rest played by Finish: the win's time is under placements x floor, and it
    is flagged."""
    game = play(carol_browser)
    placements = 0
    for move in seeded_line(todays_daily.seed):
        if move not in ("D", "R"):  # stock turns are not timed: the script makes them at once
            placements += 1
            clock.tick((FLOOR_MS + 20) / 1000 if placements % 5 < 3 else 0.0)
        state = carol_browser.move(game["id"], move).json()
        if state["can_finish"]:
            break
    finished = carol_browser.post(f"/api/games/{game['id']}/finish/")

    attempt = Attempt.objects.get()
    intervals = fairplay.parse_intervals(attempt.intervals)
    assert finished.status_code == 200 and attempt.status == "won"
    assert fairplay.pace_figures(intervals, "three-card")["median_ms"] >= FLOOR_MS
    assert (attempt.flags, attempt.review) == ("pace", Review.PENDING)


def test_an_honest_player_is_not_flagged_even_turning_the_stock_fast(
    carol_browser: Browser, alice: Browser, todays_daily: Any, clock: Clock
) -> None:
    """Placements at a person's pace; stock turns (a held D key) as fast as the server
    answers: not flagged, and on every board."""
    game = play(carol_browser)
    for move in seeded_line(todays_daily.seed):
        clock.tick(0.03 if move in ("D", "R") else HUMAN_PACE_S)
        assert carol_browser.move(game["id"], move).status_code == 200

    attempt = Attempt.objects.get()
    assert (attempt.status, attempt.flags, attempt.review) == ("won", "", Review.NONE)
    assert public_names(alice)["day"] == ["carol"]
    assert alice.get("/api/boards/three-card/wins/").json()["entries"][0]["player"] == "carol"


def test_address_hashes_past_the_retention_are_blanked(
    screened: Any, carol_browser: Browser, dave_browser: Browser, settings: Any
) -> None:
    play(carol_browser)
    play(dave_browser)
    old = Attempt.objects.filter(user__username="carol")
    old.update(created_at=timezone.now() - timedelta(days=settings.ATTEMPT_ADDRESS_RETENTION_DAYS,
                                                      minutes=1))
    forget_addresses.delay()

    carol, dave = (Attempt.objects.get(user__username=name) for name in ("carol", "dave"))
    assert carol.address_hash == "" and carol.device_hash != ""
    assert dave.address_hash == fairplay.keyed_hash("address", dave_browser.address)
    call_command("forget_addresses", "--days", "0")
    assert not Attempt.objects.exclude(address_hash="").exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_live_field_leaves_a_held_result_out_until_it_is_cleared(
    carol: User, dave: User, alice: Browser, admin_client: Client, solver_screened: None
) -> None:
    daily = await sync_to_async(todays_daily)(THREE_CARD)
    socket = await watch_field(alice)
    await socket.receive_from()
    first = await sync_to_async(Browser)()
    await sync_to_async(first.log_in)(carol)
    await sync_to_async(play)(first)
    assert json.loads(await socket.receive_from())["entry"]["player"] == "carol"

    second = await sync_to_async(on_device_of)(first, dave)
    game = await sync_to_async(play)(second)
    # The same device: carol is held as well, and the field is sent again without her.
    assert json.loads(await socket.receive_from())["entries"] == []
    for move in seeded_line(daily.seed)[:12]:
        await sync_to_async(second.move)(game["id"], move)
    assert await socket.receive_nothing(timeout=0.2)  # dave's start and progress: held

    attempt = await Attempt.objects.aget(user=dave)
    await sync_to_async(decide)(admin_client, "clear", attempt)
    cleared = json.loads(await socket.receive_from())
    assert cleared["entry"]["player"] == "dave"
    await socket.disconnect()
    await get_channel_layer().flush()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_result_flagged_mid_game_leaves_the_live_field(
    carol_browser: Browser, alice: Browser, solver_screened: None
) -> None:
    daily = await sync_to_async(todays_daily)(THREE_CARD)
    socket = await watch_field(alice)
    await socket.receive_from()
    game = await sync_to_async(play)(carol_browser)
    for move in seeded_line(daily.seed):  # machine speed, until the pace check flags it
        await sync_to_async(carol_browser.move)(game["id"], move)
        # Then stop writing: the field socket reads its fresh picture now, and a write at
        # the same instant would lock the unit layer's shared in-memory SQLite table.
        if await Attempt.objects.filter(review=Review.PENDING).aexists():
            break
    messages = []
    while not await socket.receive_nothing(timeout=0.2):
        messages.append(json.loads(await socket.receive_from()))
    # Progress went out until the pace check had seen enough; then a fresh field without it.
    assert messages[0]["type"] == "entry" and messages[-1] == {
        "type": "field", "date": daily.date.isoformat(), "variant": "three-card",
        "card_count": 52, "entries": []}
    assert all(message["type"] == "field" or message["entry"]["home"] < 52
               for message in messages)
    await socket.disconnect()
    await get_channel_layer().flush()


def test_staff_who_may_only_view_the_queue_cannot_decide(
    screened: Any, carol: User, dave: User
) -> None:
    from django.contrib.auth.models import Permission

    first = Browser()
    first.log_in(carol)
    play(first)
    play(on_device_of(first, dave))
    viewer = User.objects.create_user("clerk", password="elba-1814-x", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_flaggedattempt"),
                                Permission.objects.get(codename="view_user"))
    client = Client()
    client.force_login(viewer)
    held = Attempt.objects.get(user=dave)

    queue = client.get(QUEUE).content.decode()
    client.post(QUEUE, {"action": "clear", "_selected_action": [held.pk]})
    client.post("/admin/auth/user/", {"action": "mark_unranked", "_selected_action": [carol.pk]})

    assert "dave" in queue and 'value="clear"' not in queue
    assert Attempt.objects.get(pk=held.pk).review == Review.PENDING
    assert not Standing.objects.filter(user=carol, unranked=True).exists()
