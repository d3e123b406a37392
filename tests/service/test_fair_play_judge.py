"""The fair-play judge of issue 25, run when a ranked result ends: a solver's line played
at a person's pace is held as clairvoyant, an honest blind player's win is not, a win
after turning the whole stock first is held at once, scouts are linked to the winner,
and the player hears at once that the result is held."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta
from functools import cache
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.test import Client

from game.models import group_name
from leaderboards import fairplay, judging
from leaderboards.actions import do_store_daily
from leaderboards.boards import being_judged
from leaderboards.days import today
from leaderboards.models import Attempt, Review
from patience import rules_of
from solver_worker import clairvoyance, fairplay_measure

from .conftest import Browser, Clock
from .lines import seeded_line

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs the judge
VARIANT = "three-card"
PACE_S = 1.0  # a person's pace between placements: the pace rule leaves it alone
QUEUE = "/admin/leaderboards/flaggedattempt/"


@pytest.fixture(autouse=True)
def judge_at_once(settings: Any) -> None:
    settings.FAIR_PLAY_REVIEW = "inline"


def start_of(seed: int) -> Any:
    rules = rules_of(VARIANT)
    return rules.replay(rules.deal_from_seed(seed), rules.variants[VARIANT], [])


@cache
def telling_seed() -> int:
    """The first daily seed whose solver line the judge holds (most are: docs/figures.md
    has the share); the test then plays that line as a cheat would."""
    bar = clairvoyance.limits(VARIANT).bits
    for seed in range(1, 80):
        if clairvoyance.judge(start_of(seed), seeded_line(seed)).bits >= bar:
            return seed
    raise AssertionError("no seed of 1-79 has a solver line the judge holds")


@cache
def careful_game(won: bool) -> tuple[int, tuple[str, ...]]:
    """The first daily seed the careful blind player wins (or loses), with its line."""
    for seed in range(1, 80):
        line = fairplay_measure.rule_line(start_of(seed), "careful")
        end = start_of(seed)
        for move in line:
            end.apply(rules_of(VARIANT).parse_move(move))
        if (end.status.value == "won") == won:
            return seed, tuple(line)
    raise AssertionError(f"the careful player {'wins' if won else 'loses'} none of seeds 1-79")


def heard_on(channel: str) -> list[dict[str, Any]]:
    """What the in-memory layer holds for ``channel`` now."""

    async def drain() -> list[dict[str, Any]]:
        layer, found = get_channel_layer(), []
        while True:
            try:
                found.append(await asyncio.wait_for(layer.receive(channel), 0.2))
            except TimeoutError:
                return found

    return async_to_sync(drain)()


def daily_of_seed(seed: int, day: date | None = None) -> Any:
    daily, _ = do_store_daily(day or today(), VARIANT, {"seed": seed, "candidate": 0})
    return daily


def play_line(browser: Browser, line: tuple[str, ...], clock: Clock) -> dict[str, Any]:
    game = browser.post(f"/api/daily/{VARIANT}/play/").json()
    for move in line:
        if move not in ("D", "R"):
            clock.tick(PACE_S)
        assert browser.move(game["id"], move).status_code == 200
    return dict(game)


def me(browser: Browser) -> dict[str, Any]:
    return dict(browser.get(f"/api/daily/{VARIANT}/").json()["me"])


def test_a_solvers_line_at_a_persons_pace_is_held_as_clairvoyant(
    carol_browser: Browser, alice: Browser, clock: Clock
) -> None:
    daily_of_seed(telling_seed())
    play_line(carol_browser, seeded_line(telling_seed()), clock)

    attempt = Attempt.objects.get()
    assert attempt.status == "won" and "pace" not in attempt.flags
    assert fairplay.CLAIRVOYANT in attempt.flags.split() and attempt.review == Review.PENDING
    assert attempt.clairvoyance >= clairvoyance.limits(VARIANT).bits
    assert me(carol_browser)["under_review"] is True
    board = alice.get(f"/api/daily/{VARIANT}/{today()}/board/").json()["entries"]
    assert "carol" not in {entry["player"] for entry in board}


def test_the_queue_shows_the_choices_that_gave_it_away(
    carol_browser: Browser, clock: Clock
) -> None:
    daily_of_seed(telling_seed())
    play_line(carol_browser, seeded_line(telling_seed()), clock)
    admin = Client()
    admin.force_login(User.objects.create_superuser("napoleon", password="elba-1814-x"))

    page = admin.get(f"{QUEUE}{Attempt.objects.get().pk}/change/").content.decode()

    assert "bits (one win alone is held from" in page and "blind players keep it" in page
    assert "last 1 wins of the variant" in page
    assert "the whole stock turned before the first placement: no" in page, \
        page[page.find("The stock"):][:600]


def test_an_honest_blind_players_win_is_not_held(carol_browser: Browser, clock: Clock) -> None:
    seed, line = careful_game(won=True)
    daily_of_seed(seed)
    play_line(carol_browser, line, clock)

    attempt = Attempt.objects.get()
    assert attempt.status == "won" and attempt.clairvoyance is not None
    assert attempt.clairvoyance < clairvoyance.limits(VARIANT).bits
    assert (attempt.flags, attempt.review) == ("", Review.NONE)
    assert me(carol_browser)["under_review"] is False


def test_a_win_after_turning_the_whole_stock_first_is_held_at_once(
    carol_browser: Browser, clock: Clock, settings: Any
) -> None:
    """The single account's cheat on the 3-card deal: the first pass shows every card,
    the redeal plays them as a solver says. Held by the pace rules at the win, judge
    or no judge."""
    settings.FAIR_PLAY_REVIEW = "off"
    seed = telling_seed()
    daily_of_seed(seed)
    line = fairplay_measure.first_pass_line(start_of(seed))
    assert line is not None
    play_line(carol_browser, tuple(line), clock)

    attempt = Attempt.objects.get()
    assert attempt.status == "won" and fairplay.FIRST_PASS in attempt.flags.split()
    assert attempt.review == Review.PENDING and attempt.clairvoyance is None


def test_a_lost_result_is_judged_but_never_held(carol_browser: Browser, clock: Clock) -> None:
    seed, line = careful_game(won=False)
    daily_of_seed(seed)
    play_line(carol_browser, line, clock)

    attempt = Attempt.objects.get()
    assert attempt.status == "lost" and attempt.clairvoyance is not None
    assert attempt.review == Review.NONE


def test_a_scout_on_another_address_is_linked_to_the_winner(
    carol_browser: Browser, dave_browser: Browser, clock: Clock
) -> None:
    """Dave scouts on his own address and device: turns the whole stock, places nothing,
    stops. Carol then plays the line at a person's pace: held, with dave linked by
    timing in the queue."""
    seed = telling_seed()
    daily_of_seed(seed)
    scout = dave_browser.post(f"/api/daily/{VARIANT}/play/").json()
    for _ in range(60):
        clock.tick(0.2)
        if dave_browser.move(scout["id"], "D").json().get("stock_count", 1) == 0:
            break
    clock.tick(30)
    play_line(carol_browser, seeded_line(seed), clock)

    attempt = Attempt.objects.get(user__username="carol")
    links = attempt.evidence["scouts"]
    assert [link["player"] for link in links] == ["dave"]
    assert links[0]["timing"] and not links[0]["device"] and not links[0]["address"]
    assert links[0]["turned_share"] >= fairplay.SCOUT_STOCK_SHARE
    assert attempt.review == Review.PENDING
    scout_attempt = Attempt.objects.get(user__username="dave")
    assert (scout_attempt.flags, scout_attempt.review) == ("scout", Review.PENDING)


def test_the_players_board_hears_at_once_that_the_result_is_held(
    carol_browser: Browser, clock: Clock
) -> None:
    daily_of_seed(telling_seed())
    line = seeded_line(telling_seed())
    game = carol_browser.post(f"/api/daily/{VARIANT}/play/").json()
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group_name(game["id"]), channel)
    for move in line:
        clock.tick(PACE_S)
        carol_browser.move(game["id"], move)

    notices = [event for event in heard_on(channel) if event["type"] == "game.notice"]
    assert notices == [{"type": "game.notice", "notice": "held"}]


def test_a_win_waiting_for_its_judgement_says_it_is_being_checked(
    carol_browser: Browser, clock: Clock, settings: Any
) -> None:
    settings.FAIR_PLAY_REVIEW = "off"
    seed, line = careful_game(won=True)
    daily_of_seed(seed)
    play_line(carol_browser, line, clock)
    attempt = Attempt.objects.select_related("game").get()
    assert not being_judged(attempt, attempt.game)

    settings.FAIR_PLAY_REVIEW = "task"  # as if its task were still queued
    assert being_judged(attempt, attempt.game) and me(carol_browser)["checking"] is True
    judging.judge_result(str(attempt.game_id))
    assert me(carol_browser)["checking"] is False


@cache
def modest_seeds() -> list[int]:
    """Daily seeds whose solver line the judge does not hold on its own, with its bits."""
    bar = clairvoyance.limits(VARIANT).bar(1)
    found = []
    for seed in range(1, 200):
        bits = clairvoyance.judge(start_of(seed), seeded_line(seed)).bits
        if bar / 3 <= bits < bar:
            found.append(seed)
        if len(found) == clairvoyance.RUNNING_WINS:
            return found
    raise AssertionError("too few seeds of 1-199 with a modest solver line")


def test_a_cheat_s_wins_add_up_until_one_is_held(
    carol_browser: Browser, clock: Clock
) -> None:
    """A daily cheat whose every line says little on its own: the sum over their last
    wins reaches the bar measured for that many wins, and that win is held."""
    first_day = clock.now
    held_at = None
    for number, seed in enumerate(modest_seeds()):
        clock.now = first_day - timedelta(days=len(modest_seeds()) - number)
        daily_of_seed(seed, day=clock.now.date())
        play_line(carol_browser, seeded_line(seed), clock)
        attempt = Attempt.objects.filter(user__username="carol").order_by("-pk").first()
        running = attempt.evidence["running"]
        bar = clairvoyance.limits(VARIANT).bar(running["wins"])
        assert running["wins"] == number + 1
        assert (attempt.review == Review.PENDING) == (running["bits"] >= bar)
        if attempt.review == Review.PENDING and held_at is None:
            held_at = number + 1
    assert held_at is not None and held_at > 1
