"""What players found, in real Chromium: the menu closes once a deal opens, the wins in
it are named, the all-time boards fit a laptop's width, the race strip says what its
figures count, the keys name F, and a new account's statistics are a short welcome.
The screenshots a person looked at go to test-output/."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime
from typing import Any

from playwright.sync_api import expect

from .board_driver import open_menu, ready
from .conftest import OUTPUT, Site
from .test_pages import sign_up
from .test_race import Player, join, open_room, room_of

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
PAGE_WIDE = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
# Every board's box and the sheet round it: [name, scrollWidth, clientWidth] of each.
BOXES = """() => [...document.querySelectorAll('.page, .page .panel, .page .scroll')]
  .map((box) => [box.id || box.className, box.scrollWidth, box.clientWidth])"""
LONG_NAME = "napoleon_bonaparte_the_first_of_france"


def test_the_menu_closes_once_a_deal_opens(page: Any) -> None:
    page.goto("/")
    ready(page)
    open_menu(page)
    page.fill("#deal", "1234")
    page.click("#open-deal button")

    expect(page.locator("#title")).to_have_text(re.compile(r"deal 1234$"))
    assert page.evaluate("document.querySelector('#menu').open") is False


def test_the_menus_wins_are_named_in_every_game(page: Any) -> None:
    page.goto("/st-helena/st-helena/")
    ready(page)
    open_menu(page)
    expect(page.locator("#wins")).to_have_text("Your wins: St. Helena 0")
    page.goto("/")
    ready(page)
    open_menu(page)
    # This game's variants, by their names: no other game's slug ("st-helena 0").
    expect(page.locator("#wins")).to_have_text(
        "Your wins: 3-card deal 0 · classic 1-card deal 0 · traditional cross 0")


def on_the_boards(site: Site, name: str) -> None:
    """A player on the 3-card boards with figures as wide as a keen player's."""
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    day = datetime.now(UTC).date().isoformat()
    with sqlite3.connect(site.database, timeout=20) as database:
        database.execute(
            "INSERT INTO auth_user (username, password, is_superuser, first_name, last_name,"
            " email, is_staff, is_active, date_joined) VALUES (?, '!', 0, '', '', '', 0, 1, ?)",
            (name, now))
        user = database.execute("SELECT id FROM auth_user WHERE username = ?", (name,)).fetchone()
        database.execute(
            "INSERT INTO leaderboards_playerstats (user_id, variant, games, wins, win_rate,"
            " current_streak, best_streak, last_won, played_streak, best_played_streak,"
            " last_played) VALUES (?, 'three-card', 1234, 1111, 0.9, 321, 999, ?, 1234, 1234, ?)",
            (user[0], day, day))


def test_the_all_time_boards_fit_a_laptop_and_a_phone(
    page: Any, site: Site
) -> None:
    on_the_boards(site, LONG_NAME)
    page.goto("/napoleons-tomb/three-card/boards/")
    expect(page.locator("#wins tbody th").first).to_have_text(LONG_NAME)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        assert page.evaluate(PAGE_WIDE), size  # the page never scrolls sideways
        page.screenshot(path=str(OUTPUT / f"polish-boards-{size}.png"), full_page=True)
        # and no board needs its scroll bar: eight columns fit a laptop and a phone
        wider = [box for box in page.evaluate(BOXES) if box[1] > box[2]]
        assert not wider, (size, wider)


def test_the_race_strip_says_what_each_figure_counts(chromium: Any, site: Site) -> None:
    alice, bob = Player(chromium, site), Player(chromium, site)
    try:
        sign_up(alice.page)
        code = open_room(alice.page)
        join(bob.page, alice.page.input_value("#share-link"), "Bob")
        expect(alice.page.locator("#racers-rows tr")).to_have_count(2)
        alice.page.click("#start")
        alice.page.wait_for_url(re.compile(rf"[?&]race={code}"), timeout=20_000)
        ready(alice.page)
        bob_id = next(player["id"] for player in room_of(alice.page, code)["players"]
                      if player["name"] == "Bob")
        bob_on_strip = alice.page.locator(f'#racers-live [data-player="{bob_id}"]')
        expect(bob_on_strip.locator(".home-bar")).to_have_text(re.compile(r"^\s*home 0$"))
        expect(bob_on_strip.locator(".moves")).to_have_text("0 moves")
        # A dot between the figures, drawn by the style sheet: "home 0 · 0 moves".
        alice.page.wait_for_function(
            """id => getComputedStyle(document.querySelector(
              `#racers-live [data-player="${id}"] .moves`), '::before').content === '"· "'""",
            arg=str(bob_id))
        alice.page.locator("#race-strip").screenshot(path=str(OUTPUT / "polish-race-strip.png"))
    finally:
        for player in (alice, bob):
            player.context.close()
    assert not alice.errors and not bob.errors


def test_the_keys_name_finish(page: Any) -> None:
    page.goto("/rules/")
    keys = page.locator("dl.keys")
    expect(keys.locator("dt", has_text=re.compile(r"^F$"))).to_have_count(1)
    expect(keys).to_contain_text("finish")
    expect(page.locator("body")).not_to_contain_text("python -m")


def test_a_new_accounts_statistics_are_a_short_welcome(page: Any) -> None:
    sign_up(page)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto("/me/stats/")
        play = page.get_by_role("link", name="Play a first game")
        expect(play).to_have_attribute("href", "/")
        expect(page.get_by_role("link", name="Try today's daily")).to_be_visible()
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 1500, (size, height)  # it was 5,116 px of zeros and empty calendars
        assert page.evaluate(PAGE_WIDE), size
        page.screenshot(path=str(OUTPUT / f"polish-my-stats-new-{size}.png"), full_page=True)
    play.click()
    page.wait_for_url(re.compile(r"/$"))
    ready(page)
