"""Klondike on the board (RULES-KLONDIKE.md), on the real site: the columns' face-down
cards drawn as backs, one for each the view counts; runs lifted whole by a drag, by a
tap and a tap, and by keys (up to choose how deep, Enter); a card sent home by a
double-click; the turn-3 waste fanned three deep with only its top card in play; the
Hints switch; and screenshots of Klondike, the Tomb and St. Helena at 1280x800 and
390x844 under test-output/ (docs/screenshots/ keeps a copy of the Klondike ones).

Each position is reached by a plain greedy player over the engine's legal moves (the
view's `legal` in the same order), played on the site over REST: the page follows
by its socket, as it does for a move made in another tab."""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from patience import rules_of

from .board_driver import (
    focused_slot,
    path_by_keyboard,
    ready,
    run_card,
    slot,
    still,
    wait_announced,
    wait_moves,
)
from .conftest import OUTPUT, client_address

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
COLUMNS = [f"t{i}" for i in range(1, 8)]

View = dict[str, Any]
Wanted = Callable[[View], Any]


def seen_as(view: View) -> str:
    """A position as the player sees it (the score left out: a card sent home and back
    is the same table)."""
    return json.dumps(view["piles"], sort_keys=True)


def greedy(variant: str, deal: int, wanted: Wanted,
           steps: int = 400) -> tuple[list[str], Any] | None:
    """A deterministic player: a move that turns a card face up first, then a card home,
    the waste's card, the longest run; never back to a table it has seen; the stock
    when nothing else is new. The line to the first
    position where ``wanted(view)`` is something, and that something; None if none."""
    rules = rules_of(variant)
    position = rules.new_game(deal, variant)
    line: list[str] = []
    seen = set()
    for _ in range(steps):
        view = rules.visible_view(position)
        if view["status"] != "playing":
            return None
        found = wanted(view)
        if found:
            return line, found
        seen.add(seen_as(view))
        paths = view["paths"]
        table_moves = sorted(
            (move for move in view["legal"]
             if move not in ("D", "R") and not paths[move]["from"].startswith("f")),
            key=lambda move: (not rules.reveals(position, rules.parse_move(move)),
                              not paths[move]["to"].startswith("f"),
                              paths[move]["from"] != "waste", -paths[move]["count"]))
        pick = None
        for move in table_moves:
            trial = position.copy()
            trial.apply(rules.parse_move(move))
            if seen_as(rules.visible_view(trial)) not in seen:
                pick = move
                break
        pick = pick or next((move for move in ("D", "R") if move in view["legal"]), None)
        if pick is None:
            return None
        position.apply(rules.parse_move(pick))
        line.append(pick)
    return None


def first_deal(variant: str, wanted: Wanted,
               deals: range = range(1, 200)) -> tuple[int, list[str], Any]:
    for deal in deals:
        found = greedy(variant, deal, wanted)
        if found:
            return deal, *found
    raise AssertionError(f"no {variant} deal in {deals} reaches the position wanted")


def run_of_three(view: View) -> str | None:
    """A run of three or more cards that may move onto another column."""
    return next((move for move, path in view["paths"].items()
                 if path["count"] >= 3 and path["to"] in COLUMNS), None)


@pytest.fixture
def tab(chromium: Any, site: Any) -> Iterator[Any]:
    context = chromium.new_context(base_url=site.base_url, viewport=LAPTOP,
                                   extra_http_headers=client_address())
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def open_klondike(page: Any, variant: str, deal: int) -> str:
    """A free game of that deal, opened at the variant's own address; its id."""
    page.goto(f"/klondike/{variant}/?deal={deal}")
    ready(page)
    page.wait_for_function(
        "deal => document.querySelector('#title').textContent.endsWith('deal ' + deal)", arg=deal)
    wait_moves(page, 0)
    page.wait_for_function("document.body.dataset.link === 'live'")
    page.evaluate("document.querySelector('#welcome-ok').click()")  # the piles' names go
    return str(page.evaluate("new URLSearchParams(location.search).get('game')"))


def push(page: Any, game_id: str, moves: list[str]) -> None:
    """Play moves over REST, as another tab would; the board follows."""
    before = int(page.inner_text("#moves"))
    page.evaluate("""async ([id, moves]) => {
        const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
        for (const move of moves) {
            const answer = await fetch(`/api/games/${id}/moves/`, {method: 'POST',
                body: JSON.stringify({move}),
                headers: {'Content-Type': 'application/json', 'X-CSRFToken': token}});
            if (!answer.ok) throw new Error(move + ': ' + await answer.text());
        }
    }""", [game_id, moves])
    wait_moves(page, before + len(moves))
    still(page)


def state(page: Any, game_id: str) -> View:
    found: View = page.evaluate(
        "async id => (await (await fetch(`/api/games/${id}/`)).json()).state", game_id)
    return found


def assert_drawn_as_the_view_says(page: Any, view: View) -> None:
    """Each column: one card back for each face-down card, then its face-up cards."""
    for name in COLUMNS:
        pile = view["piles"][name]
        backs = page.locator(slot(name) + " .card.back").count()
        faces = page.eval_on_selector_all(slot(name) + " .card[data-card]",
                                          "cards => cards.map((card) => card.dataset.card)")
        assert backs == pile["down"], (name, backs, pile)
        assert faces == pile["up"], (name, faces, pile)
    assert page.inner_text(slot("stock") + " .count") == str(view["piles"]["stock"]["down"])


def test_a_run_of_three_moves_by_drag_and_the_backs_match_the_view(tab: Any) -> None:
    deal, line, move = first_deal("turn-1", run_of_three)
    game = open_klondike(tab, "turn-1", deal)
    assert_drawn_as_the_view_says(tab, state(tab, game))  # the deal: 0 to 6 backs a column
    push(tab, game, line)
    view = state(tab, game)
    path = view["paths"][move]
    assert path["count"] >= 3
    run = view["piles"][path["from"]]["up"][-path["count"]:]
    # Drag the run by its lowest card: every card on it goes along as one piece.
    card = tab.locator(run_card(tab, path["from"], path["count"])).bounding_box()
    goal = tab.locator(slot(path["to"])).bounding_box()
    tab.mouse.move(card["x"] + card["width"] / 2, card["y"] + 6)
    tab.mouse.down()
    tab.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=8)
    ghost = tab.eval_on_selector_all(".ghost .card", "cards => cards.map((c) => c.dataset.card)")
    assert ghost == run, (ghost, run)
    assert tab.locator(slot(path["from"]) + " .card.lifted").count() == path["count"]
    assert "target" in tab.get_attribute(slot(path["to"]), "class")  # where it may go, lit
    assert "over" in tab.get_attribute(slot(path["to"]), "class")
    tab.screenshot(path=str(OUTPUT / "klondike-run-dragged.png"))
    tab.mouse.up()
    wait_moves(tab, len(line) + 1)
    after = state(tab, game)
    assert after["log"][-1] == move
    assert after["piles"][path["to"]]["up"][-path["count"]:] == run
    wait_announced(tab, f"and the {path['count'] - 1} cards on it went")
    still(tab)
    assert_drawn_as_the_view_says(tab, after)


def test_tap_and_tap_and_a_double_click_home(tab: Any) -> None:
    def home_and_column(view: View) -> tuple[str, str] | None:
        """A column card that may go home, and a one-card move between two other
        columns (which leaves that home move as it is)."""
        paths = view["paths"]
        for home, way in paths.items():
            if way["from"] not in COLUMNS or not way["to"].startswith("f"):
                continue
            onto = next((m for m, p in paths.items()
                         if p["count"] == 1 and p["to"] in COLUMNS and p["from"] in COLUMNS
                         and way["from"] not in (p["from"], p["to"])), None)
            if onto:
                return home, onto
        return None

    deal, line, (home, onto) = first_deal("turn-1", home_and_column)
    game = open_klondike(tab, "turn-1", deal)
    push(tab, game, line)
    view = state(tab, game)
    path = view["paths"][onto]
    tab.click(run_card(tab, path["from"]))  # tap the card: it is picked up...
    assert "selected" in tab.get_attribute(slot(path["from"]), "aria-label")
    assert "target" in tab.get_attribute(slot(path["to"]), "class")
    tab.click(slot(path["to"]))  # ...and tap where it goes
    wait_moves(tab, len(line) + 1)
    view = state(tab, game)
    assert view["log"][-1] == onto

    # A double-click sends a column's top card to its foundation (the one home move
    # from that column, which is what the board plays).
    source = view["paths"][home]["from"]
    still(tab)
    tab.dblclick(run_card(tab, source))
    wait_moves(tab, len(line) + 2)
    view = state(tab, game)
    assert view["log"][-1] == home
    assert_drawn_as_the_view_says(tab, view)


def test_keys_choose_how_deep_a_run_to_lift(tab: Any) -> None:
    def two_lifts(view: View) -> tuple[str, int] | None:
        """A column with two or more lifts, one of them longer than the first."""
        for name in COLUMNS:
            counts = view["pickable"].get(name, [])
            if len(counts) >= 2:
                move = next(m for m, p in view["paths"].items()
                            if p["from"] == name and p["count"] == counts[1])
                return move, counts[1]
        return None

    deal, line, (move, count) = first_deal("turn-1", two_lifts)
    game = open_klondike(tab, "turn-1", deal)
    push(tab, game, line)
    path = state(tab, game)["paths"][move]
    tab.focus(slot(path["from"]))
    assert focused_slot(tab) == path["from"]
    tab.keyboard.press("ArrowUp")  # one more card: the run's lowest card is aimed at
    aimed = tab.eval_on_selector_all("#table .card.aim",
                                     "cards => cards.map((c) => c.dataset.card)")
    assert aimed == [state(tab, game)["piles"][path["from"]]["up"][-count]]
    wait_announced(tab, f"{count} cards from the")
    tab.keyboard.press("ArrowDown")  # back to the first lift
    path_by_keyboard(tab, path)  # arrows to it, up to the run, Enter, arrows, Enter
    wait_moves(tab, len(line) + 1)
    assert state(tab, game)["log"][-1] == move


def test_the_turn_3_waste_fans_three_and_only_its_top_is_in_play(tab: Any) -> None:
    game = open_klondike(tab, "turn-3", 1)
    tab.click(slot("stock"))
    wait_moves(tab, 1)
    still(tab)
    view = state(tab, game)
    shown = tab.eval_on_selector_all(slot("waste") + " .card[data-card]",
                                     "cards => cards.map((c) => c.dataset.card)")
    assert shown == view["piles"]["waste"]["up"][-3:] and len(shown) == 3
    assert tab.inner_text(slot("stock") + " .count") == "21"
    # The lower two cannot be dragged; the top one can (and goes back where it was).
    for card, lifts in ((tab.locator(slot("waste") + " .card[data-card]").first, 0),
                        (tab.locator(slot("waste") + " .card.top"), 1)):
        box = card.bounding_box()
        tab.mouse.move(box["x"] + 5, box["y"] + box["height"] / 2)
        tab.mouse.down()
        tab.mouse.move(box["x"] + 40, box["y"] + box["height"] / 2 + 20, steps=5)
        assert tab.locator(".ghost .card").count() == lifts
        tab.mouse.up()
    assert state(tab, game)["log"] == ["D"]


def test_the_hints_switch_unlights_the_targets_and_is_remembered(tab: Any) -> None:
    deal, line, move = first_deal("turn-1", run_of_three)
    game = open_klondike(tab, "turn-1", deal)
    push(tab, game, line)
    path = state(tab, game)["paths"][move]
    tab.click("#menu summary")
    assert tab.is_checked("#lit")  # on at first, as on seed 004's site
    tab.uncheck("#lit")
    tab.evaluate("document.querySelector('#menu').open = false")
    tab.click(run_card(tab, path["from"], path["count"]))
    assert "selected" in tab.get_attribute(slot(path["from"]), "aria-label")
    assert tab.locator("#table .slot.target").count() == 0
    assert "can go here" not in tab.get_attribute(slot(path["to"]), "aria-label")
    tab.click(slot(path["to"]))  # the move is still played
    wait_moves(tab, len(line) + 1)
    tab.reload()
    ready(tab)
    assert not tab.is_checked("#lit")


def finishing(variant: str, deal: int, nodes: int = 5000) -> list[str]:
    """A line to a position Finish may play home (stock and waste empty, no card face
    down): best first, by cards home and face-down cards left, a little by length."""
    rules = rules_of(variant)

    def replayed(line: list[str]) -> Any:
        position = rules.new_game(deal, variant)
        for move in line:
            position.apply(rules.parse_move(move))
        return position

    def worth(view: View, length: int) -> float:
        down = sum(view["piles"][name]["down"] for name in COLUMNS)
        return -10 * view["home"] + 8 * down + 0.3 * length

    first = rules.visible_view(rules.new_game(deal, variant))
    waiting = [(worth(first, 0), 0, [])]
    seen = {seen_as(first) + str(first["stock_count"])}
    for order in range(nodes):
        if not waiting:
            break
        _, _, line = heapq.heappop(waiting)
        position = replayed(line)
        if rules.finishing_line(position) is not None:
            return line
        view = rules.visible_view(position)
        for move in view["legal"]:
            if view["paths"][move]["from"].startswith("f"):
                continue
            trial = position.copy()
            trial.apply(rules.parse_move(move))
            after = rules.visible_view(trial)
            key = seen_as(after) + str(after["stock_count"])
            if key not in seen:
                seen.add(key)
                heapq.heappush(waiting, (worth(after, len(line) + 1), order, [*line, move]))
    raise AssertionError(f"no line to Finish on {variant} deal {deal}")


def test_finish_runs_the_cards_home_then_the_cascade_then_the_win(tab: Any) -> None:
    line = finishing("turn-1", 1)
    game = open_klondike(tab, "turn-1", 1)
    push(tab, game, line)
    tab.wait_for_selector("#finish:not([hidden])")
    tab.keyboard.press("f")
    tab.wait_for_function("document.querySelector('#home').textContent.startsWith('52')")
    # The cards fly home one after another (the lowest first), each a little later.
    delays = tab.evaluate("""() => document.getAnimations().filter(a => a.id === 'tomb-slide')
        .map(a => a.effect.getTiming().delay)""")
    assert len(set(delays)) >= 3, delays
    tab.wait_for_selector("canvas.cascade", state="attached")  # then they bounce off
    tab.wait_for_timeout(1200)
    tab.screenshot(path=str(OUTPUT / "klondike-cascade.png"))
    tab.wait_for_selector("#win[open]")  # and the win's overlay once it is over
    tab.wait_for_selector("canvas.cascade", state="detached")
    assert tab.inner_text("#win-title") == "You won!"
    log = state(tab, game)["log"]
    assert log[:len(line)] == line and all("-f" in move for move in log[len(line):])


# -- screenshots ---------------------------------------------------------------------

def long_column_and_fan(view: View) -> str | None:
    """A column of four or more backs under four or more face-up cards, three fanned
    on the waste."""
    if len(view["piles"]["waste"]["up"]) < 3:
        return None
    return next((name for name in COLUMNS if view["piles"][name]["down"] >= 4
                 and len(view["piles"][name]["up"]) >= 4), None)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_the_three_games(chromium: Any, site: Any, size: str) -> None:
    phone = size == "phone"
    context = chromium.new_context(base_url=site.base_url, viewport=PHONE if phone else LAPTOP,
                                   has_touch=phone, is_mobile=phone,
                                   extra_http_headers=client_address())
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        deal, line, column = first_deal("turn-3", long_column_and_fan)
        game = open_klondike(page, "turn-3", deal)
        page.screenshot(path=str(OUTPUT / f"klondike-turn-3-opening-{size}.png"))
        push(page, game, line)
        view = state(page, game)
        assert_drawn_as_the_view_says(page, view)
        # The long column fits the screen, its last card whole on the stage, clear of the
        # actions (beside the table on a laptop, under it on a phone).
        last = page.locator(slot(column) + " .card.top").bounding_box()
        stage = page.locator("#stage").bounding_box()
        actions = page.locator("#actions").bounding_box()
        assert last["y"] + last["height"] <= stage["y"] + stage["height"] + 1, (last, stage)
        assert (last["x"] + last["width"] <= actions["x"] + 1
                or last["y"] + last["height"] <= actions["y"] + 1), (last, actions)
        page.screenshot(path=str(OUTPUT / f"klondike-turn-3-long-column-{size}.png"))
        for game_slug, variant in (("napoleons-tomb", "three-card"), ("st-helena", "st-helena")):
            page.goto(f"/{game_slug}/{variant}/?deal=1")
            ready(page)
            wait_moves(page, 0)
            page.evaluate("document.querySelector('#welcome-ok').click()")
            still(page)
            page.screenshot(path=str(OUTPUT / f"klondike-{game_slug}-opening-{size}.png"))
    finally:
        context.close()
    assert not errors, errors
