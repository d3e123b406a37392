"""The new games end to end in real Chromium: the cross variant of Napoleon's Tomb and
St. Helena (RULES-CROSS-AND-ST-HELENA.md), and Klondike turn-1 and turn-3
(RULES-KLONDIKE.md). A solver's winning line is replayed on the page by pointer and by
keyboard, driven only by each move's path ({from, to, count}) and the table's pile
elements; Klondike's pointer lines each drag a run of three or more cards at once
(by its lowest lifted card), and its keyboard lines lift runs with the up arrow. A
ranked daily of each variant, played by a month-old account, is won and shows on the
day's board; free play opens any deal number.

Which game a variant belongs to, its address and its number of cards come from the
registry (``rules_of``): the module names no game's table.

The site here makes these variants' dailies (the session's site makes only the 3-card
one), so this module runs a site of its own."""

from __future__ import annotations

import re
import time
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
    stock_move,
    wait_moves,
    wait_moves_confirming,
)
from .conftest import OUTPUT, Site, _require_chromium, client_address
from .test_pages import sign_up

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
VARIANTS = ["cross", "st-helena", "turn-1", "turn-3", "two-deck-tomb"]
# Deals whose solver line is among the shortest of the first few (Budget 5 s):
# cross 8 (102 moves), cross 3 (103), St. Helena 2 (136). Klondike's, among deals
# 1-300: turn-1 127 (the core's line: runs of 4, 8, 10, 5, 3 and 4 dragged at once), turn-1
# 206 (123; a run of 3), turn-3 84 (114; runs of 3 to 9), turn-3 2 (112; runs of 3 to 8).
# The two-deck Tomb's: 30 (178 moves) and 43 (188), each proved in a few milliseconds.
POINTER_DEALS = {"cross": 8, "st-helena": 2, "turn-1": 127, "turn-3": 84, "two-deck-tomb": 30}
KEYBOARD_DEALS = {"cross": 3, "st-helena": 2, "turn-1": 206, "turn-3": 2, "two-deck-tomb": 43}
# The longest run each Klondike pointer line drags at once (its path's count).
LONGEST_RUN = {"turn-1": 10, "turn-3": 9}  # the compiled core's lines for these deals
# The variants whose solver sends a stack home card by card: the board plays its line
# with each such series as one drag of the whole stack (gathered_line), the move the
# rules offer for it.
GATHERED = {"two-deck-tomb"}
# turn-3 is won by pointer on a phone (its runs dragged by a narrower strip).
POINTER_VIEWPORT = {"turn-3": PHONE}
# St. Helena's keyboard replay starts this many moves before the end (its full line,
# each move a dozen key presses, would add over a minute; the pointer test plays it
# whole): the moves before are played through the API, then the page is reloaded on
# the late position. The others play their whole line.
LATE_MOVES = {"st-helena": 40, "two-deck-tomb": 40}
# A ranked daily's moves at a person's pace: over the pace rule's 300 ms a placement.
HUMAN_PACE_S = 0.4


def address(variant: str) -> str:
    """The variant's board, under its game's slug."""
    return f"/{rules_of(variant).slug}/{variant}/"


@pytest.fixture(scope="module")
def new_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A site that makes today's dailies of every variant here at start-up."""
    _require_chromium()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    # No follow-up difficulty rating: on this site it runs in the one maker thread, and
    # a Klondike daily's (four sampling games) takes minutes there, holding back the
    # next variant's daily; a ranked game needs none.
    running, before = Site(tmp_path_factory.mktemp("newgames"),
                           DAILY_VARIANTS=",".join(VARIANTS),
                           DAILY_DIFFICULTY_GAMES="0"), Site.running
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


def drawn(pile: Any, count: int) -> int:
    """How many top cards of a pile the board draws, so a drag can hold the lowest: a
    fan to the right its ``show`` (or the board's three), a column all of them."""
    return (pile.show or 3) if pile.fan == "right" else count


def gathered_line(variant: str, deal: int, line: list[str]) -> list[str]:
    """The line with each series of single moves that takes a whole stack, one card at a
    time, from one pile to another replaced by the legal move that takes it at once,
    where that move lands the very same table (its view after is the series' view)."""
    rules = rules_of(variant)
    piles = {pile.name: pile for pile in rules.table(rules.variants[variant]).piles}
    position, gathered, at = dealt(variant, deal), [], 0
    while at < len(line):
        move = line[at]
        view = rules.visible_view(position)
        single = view["paths"][move]
        whole = [(other, path["count"]) for other, path in view["paths"].items()
                 if other != move and path["from"] == single["from"] and path["to"] == single["to"]
                 and path["count"] > 1 and line[at:at + path["count"]] == [move] * path["count"]
                 and path["count"] <= drawn(piles[path["from"]], path["count"])]
        if whole:
            other, count = max(whole, key=lambda found: found[1])
            after = position.copy()
            after.apply(rules.parse_move(other))
            for _ in range(count):
                position.apply(rules.parse_move(move))
            assert rules.visible_view(after)["piles"] == rules.visible_view(position)["piles"]
            gathered.append(other)
            at += count
            continue
        position.apply(rules.parse_move(move))
        gathered.append(move)
        at += 1
    return gathered


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
    page.goto(f"{address(variant)}?deal={deal}")
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


def replay(page: Any, paths: list[Path], how: str, played: int = 0, pace_s: float = 0) -> None:
    """Play the paths on the page; ``pace_s`` keeps at least that long between moves (a
    ranked daily played faster than a person is held for review by the pace rule:
    leaderboards.fairplay.too_fast, 300 ms a placement, timed from the move before)."""
    page.focus(slot("stock"))
    last = 0.0
    for turn, path in enumerate(paths, start=played + 1):
        time.sleep(max(0.0, pace_s - (time.monotonic() - last)))
        last = time.monotonic()
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
    cards = rules_of(variant).card_count
    assert page.inner_text("#home") == f"{cards} of {cards}"
    assert game["status"] == "won" and game["home"] == cards
    assert game["state"]["log"] == line


def runs_dragged(page: Any, paths: list[Path]) -> list[int]:
    """The lengths of the runs of three or more cards the line moves at once (not the
    stock's turns of three)."""
    return [path["count"] for path in paths
            if path["count"] >= 3 and not stock_move(page, path)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_solver_line_is_won_by_pointer(chromium: Any, new_site: Site, variant: str) -> None:
    """The whole line, from the deal's first move, by drags and stock clicks; Klondike's
    drags runs of three or more cards at once, turn-3's on a phone."""
    deal = POINTER_DEALS[variant]
    line = winning_line(variant, deal)
    if variant in GATHERED:
        line = gathered_line(variant, deal, line)
    paths = paths_along(variant, deal, line)
    viewport = POINTER_VIEWPORT.get(variant, LAPTOP)
    context, page, errors = open_tab(chromium, new_site, viewport)
    try:
        open_free_deal(page, variant, deal)
        if viewport is PHONE:
            # The player has read the welcome: on a phone a first game's pile names
            # cover the middle of the waste's top card, and a drag pressed on a name
            # does not lift the card.
            page.click("#welcome-ok")
        if variant in GATHERED:  # whole stacks dragged onto a base by their lowest card
            assert max(path["count"] for path in paths if not stock_move(page, path)) >= 2
        if variant in LONGEST_RUN:
            assert max(runs_dragged(page, paths), default=0) == LONGEST_RUN[variant], \
                runs_dragged(page, paths)
        replay(page, paths, "pointer")
        assert_won(page, variant, latest_game(page), line)
        still(page)
        size = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(OUTPUT / f"new-games-won-{variant}-{size}.png"))
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


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_solver_line_is_won_by_keyboard(tab: Any, variant: str) -> None:
    """Arrows (up and down also choose how deep to lift), Enter and D only. Each plays
    its whole line but St. Helena, its last LATE_MOVES moves, from the late position
    reached through the API and reloaded."""
    deal = KEYBOARD_DEALS[variant]
    line = winning_line(variant, deal)
    if variant in GATHERED:
        line = gathered_line(variant, deal, line)
    paths = paths_along(variant, deal, line)
    open_free_deal(tab, variant, deal)
    played = 0
    if variant in LATE_MOVES:
        played = len(line) - LATE_MOVES[variant]
        game_id = latest_game(tab)["id"]
        play_by_api(tab, game_id, line[:played])
        tab.goto(f"{address(variant)}?game={game_id}")
        ready(tab)
        wait_moves(tab, played)
        tab.wait_for_function("document.body.dataset.link === 'live'")
    replay(tab, paths[played:], "keyboard", played)
    assert_won(tab, variant, latest_game(tab), line)
    still(tab)
    tab.screenshot(path=str(OUTPUT / f"new-games-won-{variant}-by-keyboard-1280x800.png"))


def daily_seed(site: Site, variant: str) -> int:
    return int(site.manage("shell", "-c", (
        "from leaderboards.models import Daily; from leaderboards.days import today;"
        f"print(Daily.objects.get(date=today(), variant='{variant}').seed)"
    )).strip().splitlines()[-1])


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_ranked_daily_is_won_and_shows_on_the_days_board(
    tab: Any, new_site: Site, variant: str
) -> None:
    new_site.wait_for_daily(variant)
    name = sign_up(tab, days_ago=30)
    seed = daily_seed(new_site, variant)
    # Each run's site has its own secret, so its own daily: the site proved it winnable,
    # but on a loaded machine its line may take the solver longer than a chosen deal's.
    line = winning_line(variant, seed, seeded=True, seconds=90)
    tab.goto(f"{address(variant)}daily/")
    tab.get_by_role("button", name="Play today's daily").click()
    tab.wait_for_url(re.compile(r"\?game=[0-9a-f-]{36}$"))
    game_id = tab.url.rsplit("=", 1)[1]
    ready(tab)
    tab.wait_for_function("document.body.dataset.link === 'live'")
    assert "ranked attempt" in tab.inner_text("#title")
    replay(tab, paths_along(variant, seed, line, seeded=True), "pointer", pace_s=HUMAN_PACE_S)
    game = game_by_id(tab, game_id)
    assert game["ranked"] is True
    assert_won(tab, variant, game, line)

    today = tab.evaluate("new Date().toISOString().slice(0, 10)")
    tab.goto(f"{address(variant)}daily/{today}/")
    assert name in tab.inner_text("main")


@pytest.mark.parametrize("deal", [999999, 1])
@pytest.mark.parametrize("variant", VARIANTS)
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
