"""The two new games end to end in real Chromium: the cross variant of Napoleon's Tomb
and St. Helena (RULES-CROSS-AND-ST-HELENA.md). A solver's winning line is replayed on
the page by pointer and by keyboard, driven only by each move's path ({from, to,
count}) and the table's pile elements; a ranked daily of each is played to a win and
shows on the day's board; free play opens any deal number.

The site here makes the new games' dailies (the session's site makes only the 3-card
one), so this module runs a site of its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from patience import rules_of
from solver_worker.driver import Budget
from solver_worker.games import solve_position

from .board_driver import (
    Path,
    path_by_keyboard,
    path_by_pointer,
    ready,
    slot,
    still,
    wait_moves,
    wait_moves_confirming,
)
from .conftest import OUTPUT, Site, _require_chromium, client_address
from .test_pages import sign_up

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GAME_OF = {"cross": "napoleons-tomb", "st-helena": "st-helena"}
CARDS = {"cross": 52, "st-helena": 104}
# Deals whose solver line is among the shortest of the first few (Budget 5 s):
# cross 8 (102 moves), cross 3 (103), St. Helena 2 (136).
POINTER_DEALS = {"cross": 8, "st-helena": 2}
KEYBOARD_DEALS = {"cross": 3, "st-helena": 2}
# St. Helena's keyboard replay starts this many moves before the end (its full line,
# each move a dozen key presses, would add over a minute; the pointer test plays it
# whole): the moves before are played through the API, then the page is reloaded on
# the late position.
LATE_MOVES = 40


@pytest.fixture(scope="module")
def new_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A site that makes today's cross and St. Helena dailies at start-up."""
    _require_chromium()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    running, before = Site(tmp_path_factory.mktemp("newgames"),
                           DAILY_VARIANTS="cross,st-helena"), Site.running
    running.start(wait_for_dailies=False)
    Site.running = running
    try:
        yield running
    finally:
        Site.running = before
        running.stop()


def open_tab(chromium: Any, site: Site, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    context = chromium.new_context(base_url=site.base_url, viewport=viewport,
                                   extra_http_headers=client_address())
    context.set_default_timeout(20_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    return context, tab, errors


@pytest.fixture
def tab(chromium: Any, new_site: Site) -> Iterator[Any]:
    context, page, errors = open_tab(chromium, new_site, LAPTOP)
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def dealt(variant: str, deal: int, seeded: bool = False) -> Any:
    """The game's first position: a public deal number, or a daily's secret seed."""
    rules = rules_of(variant)
    return rules.new_game(rules.deal_from_seed(deal) if seeded else deal, variant)


def winning_line(variant: str, deal: int, seeded: bool = False, seconds: float = 5) -> list[str]:
    result = solve_position(dealt(variant, deal, seeded), Budget(seconds=seconds))
    assert result.verdict == "won", (variant, deal, result.verdict)
    return list(result.line)


def paths_along(variant: str, deal: int, line: list[str],
                seeded: bool = False) -> list[Path]:
    """Each move's path ({from, to, count}) in the position it is played from, as
    the game's state gives it to the page."""
    rules = rules_of(variant)
    position = dealt(variant, deal, seeded)
    paths = []
    for move in line:
        paths.append(dict(rules.visible_view(position)["paths"][move]))
        position.apply(rules.parse_move(move))
    return paths


def open_free_deal(page: Any, variant: str, deal: int) -> None:
    page.goto(f"/{GAME_OF[variant]}/{variant}/?deal={deal}")
    ready(page)
    page.wait_for_function(
        "deal => document.querySelector('#title').textContent.endsWith('deal ' + deal)", arg=deal)
    wait_moves(page, 0)
    page.wait_for_function("document.body.dataset.link === 'live'")


def latest_game(page: Any) -> dict[str, Any]:
    game: dict[str, Any] = page.evaluate("""async () => {
        const id = (await (await fetch('/api/games/')).json())[0].id;
        return await (await fetch('/api/games/' + id + '/')).json();
    }""")
    return game


def game_by_id(page: Any, game_id: str) -> dict[str, Any]:
    game: dict[str, Any] = page.evaluate(
        "async id => await (await fetch('/api/games/' + id + '/')).json()", game_id)
    return game


def replay(page: Any, paths: list[Path], how: str, played: int = 0) -> None:
    page.focus(slot("stock"))
    for turn, path in enumerate(paths, start=played + 1):
        try:
            if how == "pointer":
                path_by_pointer(page, path)
            else:
                path_by_keyboard(page, path)
            wait_moves_confirming(page, turn)
        except Exception as failed:
            page.screenshot(path=str(OUTPUT / "new-games-failed.png"))
            said = page.inner_text("#announcer")
            raise AssertionError(f"move {turn} {path} by {how}: {said}") from failed


def assert_won(page: Any, variant: str, game: dict[str, Any], line: list[str]) -> None:
    page.wait_for_selector("#win[open]")
    assert page.inner_text("#win-title") == "You won!"
    cards = CARDS[variant]
    assert page.inner_text("#home") == f"{cards} of {cards}"
    assert game["status"] == "won" and game["home"] == cards
    assert game["state"]["log"] == line


@pytest.mark.parametrize("variant", ["cross", "st-helena"])
def test_a_solver_line_is_won_by_pointer(chromium: Any, new_site: Site, variant: str) -> None:
    """The whole line, from the deal's first move, by drags and stock clicks."""
    deal = POINTER_DEALS[variant]
    line = winning_line(variant, deal)
    context, page, errors = open_tab(chromium, new_site, LAPTOP)
    try:
        open_free_deal(page, variant, deal)
        replay(page, paths_along(variant, deal, line), "pointer")
        assert_won(page, variant, latest_game(page), line)
        still(page)
        page.screenshot(path=str(OUTPUT / f"new-games-won-{variant}-1280x800.png"))
    finally:
        context.close()
    assert not errors, errors


def play_by_api(page: Any, game_id: str, moves: list[str]) -> None:
    page.evaluate("""async ({game, moves}) => {
      const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).slice(10);
      for (const move of moves) {
        const response = await fetch(`/api/games/${game}/moves/`, {method: "POST",
          credentials: "same-origin",
          headers: {"Content-Type": "application/json", "X-CSRFToken": token},
          body: JSON.stringify({move})});
        if (!response.ok) throw new Error(`${move}: ${response.status} ${await response.text()}`);
      }
    }""", {"game": game_id, "moves": moves})


@pytest.mark.parametrize("variant", ["cross", "st-helena"])
def test_a_solver_line_is_won_by_keyboard(tab: Any, variant: str) -> None:
    """Arrows, Enter and D only. The cross plays its whole line; St. Helena its last
    LATE_MOVES moves, from the late position reached through the API and reloaded."""
    deal = KEYBOARD_DEALS[variant]
    line = winning_line(variant, deal)
    paths = paths_along(variant, deal, line)
    open_free_deal(tab, variant, deal)
    played = 0
    if variant == "st-helena":
        played = len(line) - LATE_MOVES
        game_id = latest_game(tab)["id"]
        play_by_api(tab, game_id, line[:played])
        tab.goto(f"/{GAME_OF[variant]}/{variant}/?game={game_id}")
        ready(tab)
        wait_moves(tab, played)
        tab.wait_for_function("document.body.dataset.link === 'live'")
    replay(tab, paths[played:], "keyboard", played)
    assert_won(tab, variant, latest_game(tab), line)


def daily_seed(site: Site, variant: str) -> int:
    return int(site.manage("shell", "-c", (
        "from leaderboards.models import Daily; from leaderboards.days import today;"
        f"print(Daily.objects.get(date=today(), variant='{variant}').seed)"
    )).strip().splitlines()[-1])


@pytest.mark.parametrize("variant", ["cross", "st-helena"])
def test_a_ranked_daily_is_won_and_shows_on_the_days_board(
    tab: Any, new_site: Site, variant: str
) -> None:
    new_site.wait_for_daily(variant)
    name = sign_up(tab, days_ago=30)
    seed = daily_seed(new_site, variant)
    # Each run's site has its own secret, so its own daily: the site proved it winnable,
    # but on a loaded machine its line may take the solver longer than a chosen deal's.
    line = winning_line(variant, seed, seeded=True, seconds=90)
    tab.goto(f"/{GAME_OF[variant]}/{variant}/daily/")
    tab.get_by_role("button", name="Play today's daily").click()
    tab.wait_for_url(re.compile(r"\?game=[0-9a-f-]{36}$"))
    game_id = tab.url.rsplit("=", 1)[1]
    ready(tab)
    tab.wait_for_function("document.body.dataset.link === 'live'")
    assert "ranked attempt" in tab.inner_text("#title")
    replay(tab, paths_along(variant, seed, line, seeded=True), "pointer")
    game = game_by_id(tab, game_id)
    assert game["ranked"] is True
    assert_won(tab, variant, game, line)

    today = tab.evaluate("new Date().toISOString().slice(0, 10)")
    tab.goto(f"/{GAME_OF[variant]}/{variant}/daily/{today}/")
    assert name in tab.inner_text("main")


@pytest.mark.parametrize("deal", [999999, 1])
@pytest.mark.parametrize("variant", ["cross", "st-helena"])
def test_free_play_opens_any_deal_number(tab: Any, variant: str, deal: int) -> None:
    open_free_deal(tab, variant, deal)
    rules = rules_of(variant)
    view = rules.visible_view(rules.new_game(deal, variant))
    first = view["legal"][0]
    path_by_pointer(tab, dict(view["paths"][first]))
    wait_moves(tab, 1)
    game = latest_game(tab)
    assert game["deal"] == deal and game["state"]["log"] == [first]


def test_st_helena_on_a_phone(chromium: Any, new_site: Site) -> None:
    context, page, errors = open_tab(chromium, new_site, PHONE)
    try:
        open_free_deal(page, "st-helena", 1)
        view = rules_of("st-helena").visible_view(rules_of("st-helena").new_game(1, "st-helena"))
        move = next(m for m in view["legal"] if m != "D")
        source, target = view["paths"][move]["from"], view["paths"][move]["to"]
        page.click(slot(source) + " .card.top")
        page.click(slot(target))
        wait_moves(page, 1)
        for pile in page.locator("#table [data-slot]").all():
            box = pile.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390.5
        still(page)
        page.screenshot(path=str(OUTPUT / "new-games-st-helena-390x844.png"))
    finally:
        context.close()
    assert not errors, errors
