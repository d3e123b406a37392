"""Race a friend in real Chromium: three players (two accounts and a visitor) race one
deal to the end on the real site (uvicorn, its socket layer, the races API).

Alice opens a room, Bob and the visitor Vera join by its shared link and say they are
ready, Alice starts it; a synchronized countdown opens the three boards at the same
server time. Each plays on their own board; Bob closes his page mid-race and comes back
to his game exactly as it was, on the server's clock; Vera gives up; Alice and Bob win
(the solver's line for the secret deal is found here from the site's database, as a
player could not). The results reach all three, the rematch takes them all to a new
room, and Vera replays Alice's game, whose deal shows only once the race is over.
Screenshots of each step at a laptop and a phone size land under test-output/.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from patience import rules_of
from solver_worker.driver import Budget
from solver_worker.games import solve_position

from .board_driver import path_by_pointer, ready, still, wait_moves
from .conftest import OUTPUT, Site, client_address
from .test_pages import sign_up

VARIANT = "three-card"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
WIDEST = "() => document.documentElement.scrollWidth"
BOB_BOARD_MOVES = 3  # Bob plays the solver line's first moves on his board, then drops


class Player:
    """One browser context: its own cookies and address, so its own account or visitor."""

    def __init__(self, chromium: Any, site: Site) -> None:
        self.context = chromium.new_context(base_url=site.base_url, viewport=SIZES["desktop"],
                                            extra_http_headers=client_address())
        self.context.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.page = self.new_page()

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page


@pytest.fixture
def players(chromium: Any, site: Site) -> Iterator[list[Player]]:
    made = [Player(chromium, site) for _ in range(3)]
    yield made
    for player in made:
        player.context.close()
    assert not [player.errors for player in made if player.errors]


def shoot(page: Any, name: str, whole: bool = True) -> None:
    """The page at both sizes (nothing wider than the phone), then back to the laptop's;
    ``whole``: the whole page, else the window (the board fills it)."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        # The board fits its cards to the new size on its next frames.
        fits = page.wait_for_function(f"({WIDEST})() <= {viewport['width']}", timeout=3000)
        page.screenshot(path=str(OUTPUT / f"race-{name}-{size}.png"), full_page=whole)
        assert fits, (name, size)
    page.set_viewport_size(SIZES["desktop"])


def room_of(page: Any, code: str) -> dict[str, Any]:
    room: dict[str, Any] = page.evaluate(
        "async code => await (await fetch(`/api/races/${code}/`)).json()", code)
    return room


def game_of(page: Any, game_id: str) -> dict[str, Any]:
    game: dict[str, Any] = page.evaluate(
        "async id => await (await fetch(`/api/games/${id}/`)).json()", game_id)
    return game


def first_position(site: Site, game_id: str) -> Any:
    """The race game's first position, from the deal the site stored (secret to players)."""
    with sqlite3.connect(site.database, timeout=20) as database:
        cards, variant = database.execute(
            "SELECT cards, variant FROM game_game WHERE id = ?", (game_id.replace("-", ""),)
        ).fetchone()
    rules = rules_of(variant)
    return rules.new_game(rules.deal_from_texts(cards.split(), None, True), variant)


def winning_line(site: Site, game_id: str) -> tuple[list[str], list[dict[str, Any]]]:
    """The solver's line for the race's deal and each move's path ({from, to, count})."""
    position = first_position(site, game_id)
    result = solve_position(first_position(site, game_id), Budget(seconds=20))
    assert result.verdict == "won", result.verdict
    rules = rules_of(VARIANT)
    paths = []
    for move in result.line:
        paths.append(dict(rules.visible_view(position)["paths"][move]))
        position.apply(rules.parse_move(move))
    return list(result.line), paths


# Plays moves through the game's REST API from the player's page (the board follows
# over its socket); returns the last answer.
PLAY_MOVES = """async ({game, moves}) => {
  const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).slice(10);
  let state = null;
  for (const move of moves) {
    const response = await fetch(`/api/games/${game}/moves/`, {method: "POST",
      credentials: "same-origin", body: JSON.stringify({move}),
      headers: {"Content-Type": "application/json", "X-CSRFToken": token}});
    state = await response.json();
    if (!response.ok) throw new Error(`${move}: ${response.status} ${JSON.stringify(state)}`);
  }
  return state;
}"""


def seconds_on(clock_text: str) -> int:
    minutes, seconds = clock_text.split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def open_room(alice: Any) -> str:
    alice.goto("/race/")
    expect(alice.get_by_role("navigation", name="Site").get_by_role("link", name="Race")
           ).to_have_attribute("aria-current", "page")
    alice.select_option("#race-variant", VARIANT)
    alice.get_by_label("5 minutes", exact=True).check()
    alice.get_by_role("button", name="Open the room").click()
    alice.wait_for_url(re.compile(r"/race/[\w-]+/$"))
    return alice.url.rstrip("/").rsplit("/", 1)[1]


def join(page: Any, link: str, name: str | None = None) -> None:
    page.goto(link)
    join_form = page.locator("#join")
    expect(join_form).to_be_visible()
    if name:
        page.get_by_label("Your name in the race").fill(name)
    join_form.get_by_role("button", name="Join").click()
    expect(page.locator("#mine")).to_be_visible()
    page.click("#ready")
    expect(page.locator("#ready")).to_have_attribute("aria-pressed", "true")


def test_three_players_race_to_the_end(players: list[Player], site: Site) -> None:
    alice, bob, vera = (player.page for player in players)
    names = {"alice": sign_up(alice), "bob": sign_up(bob)}

    # -- the lobby: a room, its link, two joins, ready, start ----------------------------
    code = open_room(alice)
    link = alice.input_value("#share-link")
    assert link.endswith(f"/race/{code}/")
    expect(alice.locator("#start")).to_be_disabled()
    join(bob, link)
    join(vera, link, "Vera")
    expect(alice.locator("#racers-rows tr")).to_have_count(3)
    expect(alice.locator("#start")).to_be_enabled()
    shoot(alice, "lobby")
    alice.click("#start")

    # -- the countdown, then every board on the same deal ---------------------------------
    for page in (alice, bob, vera):
        expect(page.locator("#countdown")).to_be_visible()
    shoot(vera, "countdown")
    for page in (alice, bob, vera):
        page.wait_for_url(re.compile(rf"[?&]race={code}"), timeout=20_000)
        ready(page)
        page.wait_for_function("document.body.dataset.link === 'live'")
        expect(page.locator("#race-strip")).to_be_visible()
        expect(page.locator("#hint")).to_be_hidden()  # no hints in a race
    room = room_of(alice, code)
    ids = {player["name"]: player["id"] for player in room["players"]}
    alice_game = room["me"]["game"]
    bob_game = room_of(bob, code)["me"]["game"]
    line, paths = winning_line(site, alice_game)

    # -- each plays on their own board; the others see it live -----------------------------
    vera.click("#turn")
    wait_moves(vera, 1)
    for index in range(BOB_BOARD_MOVES):
        path_by_pointer(bob, paths[index])
        wait_moves(bob, index + 1)
    bob_on_alice = alice.locator(f'#racers-live [data-player="{ids[names["bob"]]}"]')
    expect(bob_on_alice.locator(".moves")).to_contain_text(str(BOB_BOARD_MOVES))
    expect(alice.locator(f'#racers-live [data-player="{ids["Vera"]}"] .moves')
           ).to_contain_text("1")
    still(bob)  # no card in flight in the picture
    shoot(bob, "strip", whole=False)

    # -- Bob drops and comes back: his game as it was, on the server's clock ---------------
    before = game_of(bob, bob_game)
    clock_before = seconds_on(bob.inner_text("#clock"))
    bob.close()
    time.sleep(2)
    bob = players[1].new_page()
    bob.goto(f"/race/{code}/")
    bob.click("#to-board")
    ready(bob)
    wait_moves(bob, BOB_BOARD_MOVES)
    after = game_of(bob, bob_game)
    assert (after["state"], after["version"]) == (before["state"], before["version"])
    bob.wait_for_function("s => { const [m, x] = document.querySelector('#clock').textContent"
                          ".split(':'); return Number(m) * 60 + Number(x) >= s; }",
                          arg=clock_before + 2)

    # -- the replay is refused while the race runs ------------------------------------------
    peek = players[1].new_page()
    peek.goto(f"/race/{code}/replay/{ids[names['alice']]}/")
    expect(peek.locator("#race-message")).not_to_be_empty()
    expect(peek.locator("#viewer")).to_be_hidden()
    assert peek.locator("#deal .card").count() == 0
    peek.close()

    # -- Vera gives up; Alice, then Bob, win ---------------------------------------------------
    vera.click("#give-up")
    vera.click("#confirm-yes")
    expect(vera.locator("#give-up")).to_be_hidden()
    vera_on_alice = alice.locator(f'#racers-live [data-player="{ids["Vera"]}"]')
    expect(vera_on_alice.locator(".status")).to_have_text("gave up")
    expect(vera.locator("#race-over")).to_contain_text("the others are still racing")
    won = alice.evaluate(PLAY_MOVES, {"game": alice_game, "moves": line})
    assert won["status"] == "won"
    won = bob.evaluate(PLAY_MOVES, {"game": bob_game, "moves": line[BOB_BOARD_MOVES:]})
    assert won["status"] == "won"

    # -- the results, for all three ------------------------------------------------------------
    for page in (alice, bob, vera):
        expect(page.locator("#race-over")).to_contain_text("The race is over.")
        if page is vera:
            page.locator("#race-over a").click()
        else:  # a winner's dialog leads back to the race
            expect(page.locator("#win")).to_be_visible()
            page.locator("#win-race").click()
        page.wait_for_url(re.compile(rf"/race/{code}/$"))
        rows = page.locator("#racers-rows tr")
        expect(rows).to_have_count(3)
        expect(rows.nth(0)).to_contain_text(names["alice"])
        expect(rows.nth(2)).to_contain_text("Vera")
        expect(rows.nth(2)).to_contain_text("gave up")
    shoot(bob, "results")

    # -- the race on the players' statistics ----------------------------------------------------
    stats = players[0].new_page()
    stats.goto("/me/stats/")
    races = stats.locator("section.races")
    expect(races.locator("dt:text-is('Races') + dd")).to_have_text("1")
    expect(races.locator("dt:text-is('Wins') + dd")).to_have_text("1")
    expect(races.locator("tbody tr")).to_have_count(1)
    races.scroll_into_view_if_needed()
    shoot(stats, "my-stats", whole=False)
    stats.close()

    # -- the rematch takes everyone to a new room ----------------------------------------------
    alice.click("#rematch")
    alice.wait_for_url(lambda url: re.search(r"/race/[\w-]+/$", url) and code not in url)
    rematch = alice.url.rstrip("/").rsplit("/", 1)[1]
    assert rematch != code
    for page in (bob, vera):
        page.wait_for_url(re.compile(rf"/race/{rematch}/$"))
        expect(page.locator("#racers-rows tr")).to_have_count(3)
        expect(page.locator("#mine")).to_be_visible()

    # -- Vera watches Alice's game, and its deal, now that the race is over ---------------------
    vera.goto(f"/race/{code}/replay/{ids[names['alice']]}/")
    expect(vera.locator("#viewer")).to_be_visible()
    expect(vera.locator("#step")).to_contain_text("The deal")
    expect(vera.locator("#deal .card")).to_have_count(52)
    vera.keyboard.press("ArrowRight")
    expect(vera.locator("#step")).to_contain_text(f"Move 1 of {len(line)}")
    vera.keyboard.press("End")
    expect(vera.locator("#step")).to_contain_text(f"Move {len(line)} of {len(line)}")
    expect(vera.locator("#table .slot.foundation .card:not(.empty)")).not_to_have_count(0)
    vera.keyboard.press("Home")
    expect(vera.locator("#first")).to_be_disabled()
    for _ in range(30):
        vera.keyboard.press("ArrowRight")
    expect(vera.locator("#step")).to_contain_text(f"Move 30 of {len(line)}")
    shoot(vera, "replay")


def test_a_visitor_is_told_how_to_open_or_join(page: Any) -> None:
    page.goto("/race/")
    expect(page.locator("#new-race")).to_have_count(0)  # opening a room needs an account
    expect(page.locator(".invite a.button")).to_have_attribute(
        "href", "/accounts/login/?next=/race/")
    assert page.goto("/race/no-such-room/").status == 404


def test_a_room_without_visitors_asks_a_visitor_to_log_in(players: list[Player]) -> None:
    owner, visitor = players[0].page, players[2].page
    sign_up(owner)
    code = open_room(owner)
    visitors = owner.get_by_label("Visitors may join with a name")
    expect(visitors).to_be_checked()
    with owner.expect_response(lambda response: response.url.endswith("/options/")):
        visitors.uncheck()
    visitor.goto(f"/race/{code}/")
    expect(visitor.locator("#visitors-off")).to_be_visible()
    expect(visitor.locator("#join")).to_be_hidden()
    owner.get_by_label("Time limit").select_option("10")
    expect(visitor.locator("#room-what")).to_contain_text("10 minutes")  # live, by the socket
    visitors.check()
    expect(visitor.locator("#join")).to_be_visible()
    visitor.get_by_label("Your name in the race").fill("Vic")
    visitor.locator("#join").get_by_role("button", name="Join").click()
    expect(owner.locator("#racers-rows tr")).to_have_count(2)
    expect(owner.locator("#racers-rows")).to_contain_text("Vic")
    visitor.click("#leave")
    visitor.wait_for_url(re.compile(r"/race/$"))
    expect(owner.locator("#racers-rows tr")).to_have_count(1)
