"""The play page as a player meets it: a table fitted to the screen on a laptop and a phone,
cards that slide (and keep still when asked), Finish with its cascade, the win's overlay,
readable piles, looks remembered per browser, and a first visit without a console error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from game.freeplay import winnable_lines
from patience.tomb import can_finish, new_game, parse_move
from tests.service.lines import winning_line

from .board_driver import open_deal, open_menu, ready, slot, still, wait_moves
from .conftest import OUTPUT

DEAL = 1
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PARTS = ["nw", "n", "ne", "w", "tomb", "e", "sw", "s", "se", "stock", "waste"]
ACTIONS = ["#turn", "#undo", "#hint", "#fair-hint"]


@pytest.fixture(params=["laptop", "phone"])
def device(request: Any, chromium: Any, site: Any) -> Iterator[tuple[str, Any, list[str]]]:
    """A new visitor on a laptop (mouse) or a phone (touch), with its console errors."""
    phone = request.param == "phone"
    context = chromium.new_context(base_url=site.base_url, viewport=PHONE if phone else LAPTOP,
                                   has_touch=phone, is_mobile=phone)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: message.type == "error" and errors.append(message.text))
    yield request.param, tab, errors
    context.close()


def inside_viewport(tab: Any, selector: str) -> bool:
    box = tab.locator(selector).bounding_box()
    size = tab.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= size["width"] + 0.5
            and box["y"] + box["height"] <= size["height"] + 0.5)


def test_the_whole_table_and_its_actions_fit_the_screen(device: Any) -> None:
    name, tab, errors = device
    tab.goto("/")
    ready(tab)
    for size in ("auto", "S", "M", "L", "XL"):
        if size != "auto":
            open_menu(tab)
            tab.click(f'[data-size="{size}"]')
            tab.evaluate("document.querySelector('#menu').open = false")
        for part in PARTS:
            assert inside_viewport(tab, slot(part)), f"{part} is off the screen at size {size}"
        for button in ACTIONS:
            assert inside_viewport(tab, button), f"{button} is off the screen at size {size}"
        scroll = tab.evaluate("[document.documentElement.scrollWidth, innerWidth,"
                              " document.documentElement.scrollHeight, innerHeight]")
        assert scroll[0] <= scroll[1] and scroll[2] <= scroll[3], f"{size} scrolls: {scroll}"
    open_menu(tab)
    tab.click('[data-size="auto"]')
    tab.evaluate("document.querySelector('#menu').open = false")
    card = tab.locator(slot("stock") + " .card").bounding_box()
    assert card["width"] >= (90 if name == "laptop" else 60)  # Auto fills the screen
    badge = tab.evaluate("getComputedStyle(document.querySelector('#turn kbd')).display")
    # Key badges only where a keyboard is likely: never on a touch screen.
    assert (badge != "none") == (name == "laptop")
    assert tab.get_attribute('[data-size="auto"]', "aria-label") == "Card size: fit the screen"
    # Counts are legible: at least 11 px at the size that fits.
    count = tab.evaluate("parseFloat(getComputedStyle(document.querySelector("
                         "'[data-slot=stock] .badge.count')).fontSize)")
    assert count >= 11
    tab.screenshot(path=str(OUTPUT / f"board-fitted-{name}.png"))
    assert not errors, errors


def test_a_first_visit_names_the_piles_once_and_asks_for_nothing_missing(device: Any) -> None:
    _, tab, errors = device
    tab.goto("/")  # a new visitor: no game to resume, and no 404 asking for one
    ready(tab)
    assert tab.is_visible("#welcome") and tab.is_visible("#welcome a[href$='/rules/']")
    assert tab.is_visible(slot("tomb") + " .part")
    # Each pile is named as the game's table names it, and says what it takes.
    assert tab.inner_text(slot("tomb") + " .part") == "tomb"
    assert tab.inner_text(slot("nw") + " .part") == "north-west corner"
    assert tab.inner_text(slot("n") + " .part") == "north cell"
    assert "6 down to A" in tab.get_attribute(slot("tomb"), "title")
    assert "7 up to K" in tab.get_attribute(slot("nw"), "aria-description")
    assert tab.get_attribute(slot("nw"), "aria-label") == "north-west corner: empty, takes a 7"
    # The tomb's countdown stands in the bar.
    assert tab.is_visible("#tomb-counter") == (tab.viewport_size["width"] > 640)
    assert tab.inner_text("#tomb-counter") == "wants 6 · round 1 of 4"
    tab.click("#welcome-ok")
    assert tab.is_hidden(slot("tomb") + " .part")
    tab.reload()
    ready(tab)
    assert tab.is_hidden("#welcome") and tab.is_hidden(slot("tomb") + " .part")
    favicon = tab.get_attribute("link[rel=icon]", "href")
    assert favicon.endswith(".svg") and tab.request.get(favicon).ok
    assert not errors, errors


def test_looks_are_remembered_per_browser(page: Any) -> None:
    page.goto("/")
    ready(page)
    assert "surface-felt" in page.get_attribute("#play", "class")  # green felt first
    assert len(page.locator("#surface option").all()) >= 5
    assert len(page.locator("#back option").all()) >= 3
    assert not page.is_checked("#sound")  # sound is off until asked for
    open_menu(page)
    page.select_option("#surface", "walnut")
    page.select_option("#back", "navy")
    page.check("#sound")
    page.click('[data-size="L"]')
    page.reload()
    ready(page)
    classes = page.get_attribute("#play", "class")
    assert "surface-walnut" in classes and "back-navy" in classes and "surface-felt" not in classes
    assert page.is_checked("#sound")
    assert page.get_attribute('[data-size="L"]', "aria-pressed") == "true"
    page.screenshot(path=str(OUTPUT / "board-walnut.png"))


# Counts the slides started (a slow machine may finish one before the test looks).
COUNT_SLIDES = """() => { window.slides = [];
  const native = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = native.apply(this, args);
    queueMicrotask(() => { if (animation.id === 'tomb-slide')
      window.slides.push(animation.effect.getKeyframes()[0].transform); });
    return animation;
  }; }"""
SLID = "() => window.slides.splice(0).filter((from) => from.startsWith('translate')).length"


def test_cards_slide_and_keep_still_under_reduced_motion(page: Any) -> None:
    open_deal(page, DEAL)  # deal 1 starts D C@n D F@nw
    page.evaluate(COUNT_SLIDES)
    page.focus(slot("stock"))
    page.keyboard.press("d")
    wait_moves(page, 1)
    assert page.evaluate(SLID) > 0  # the turned cards came from the stock
    still(page)
    page.focus(slot("n"))
    page.keyboard.press("Enter")
    wait_moves(page, 2)
    assert page.evaluate(SLID) > 0  # the parked card slid from the waste to the cell
    still(page)
    page.emulate_media(reduced_motion="reduce")
    page.focus(slot("stock"))
    page.keyboard.press("d")
    wait_moves(page, 3)
    assert page.evaluate(SLID) == 0
    assert page.evaluate("document.getAnimations().length") == 0


def finish_point(line: tuple[str, ...]) -> int:
    position = new_game(DEAL, "three-card")
    for count, move in enumerate(line):
        if can_finish(position):
            return count
        position.apply(parse_move(move))
    raise AssertionError("a won line ends in a finish")


def test_finish_runs_the_cards_home_and_the_win_is_shown(device: Any) -> None:
    name, tab, errors = device
    line = winning_line(DEAL)
    cut = finish_point(line)
    open_deal(tab, DEAL)
    game_id = tab.evaluate("new URLSearchParams(location.search).get('game')")
    # The line up to the finish over REST: the page sees it through its socket.
    tab.evaluate("""async ([id, moves]) => {
        const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
        for (const move of moves) {
            await fetch(`/api/games/${id}/moves/`, {method: 'POST', body: JSON.stringify({move}),
                headers: {'Content-Type': 'application/json', 'X-CSRFToken': token}});
        }
    }""", [game_id, list(line[:cut])])
    wait_moves(tab, cut)
    tab.wait_for_selector("#finish:not([hidden])")
    assert inside_viewport(tab, "#finish")
    still(tab)
    if name == "laptop":
        tab.keyboard.press("f")  # keyboard only
    else:
        tab.tap("#finish")
    tab.wait_for_function("document.querySelector('#home').textContent === '52 of 52'")
    # A cascade: the cards go home one after another, each a little later than the last.
    delays = tab.evaluate("""() => document.getAnimations().filter(a => a.id === 'tomb-slide')
        .map(a => a.effect.getTiming().delay)""")
    assert len(set(delays)) >= 3, delays
    tab.wait_for_selector("#win[open]")
    assert inside_viewport(tab, "#win")  # above the fold
    assert tab.inner_text("#win-title") == "You won!"
    facts = tab.inner_text("#win-facts")
    assert all(word in facts for word in ("Time", "Moves", "Hints", "Undos"))
    assert tab.is_visible("#win-new") and tab.is_visible("#win-daily-link")
    assert tab.evaluate("document.activeElement.id") == "win-new"
    tab.screenshot(path=str(OUTPUT / f"board-win-{name}.png"))
    log = tab.evaluate("async id => (await (await fetch(`/api/games/${id}/`)).json()).state.log",
                       game_id)
    assert len(log) > cut and all(move.startswith("F@") for move in log[cut:])
    tab.keyboard.press("Escape")
    assert not tab.evaluate("document.querySelector('#win').open")
    assert not errors, errors


def test_the_overlay_shows_free_play_records_when_the_server_sends_them(page: Any) -> None:
    """The other half of the payload (free_play) comes from the records feature: the
    overlay names a new best from it, and stands without it (the test above)."""
    page.goto("/")
    ready(page)
    page.evaluate("""async () => {
        const { showWin } = await import('/static/tomb/overlay.js');
        const game = { id: 'x', variant: 'classic', deal: 7, seeded: false, ranked: false,
            hints: 0, undos: 2, state: { moves: 61 },
            free_play: { games: 9, wins: 3, win_rate: 0.333, streak: 2, best_streak: 2,
                fastest_ms: 1000, fewest_moves: 61, new_best: ['time', 'moves'],
                winnable_only: false } };
        showWin(game, { variantName: () => 'classic 1-card deal', newDeal() {}, replay() {},
            canReplay: () => true, elapsed: () => '3:07', cardCount: () => 52 });
    }""")
    page.wait_for_selector("#win[open]")
    assert page.inner_text("#win-best") == (
        "New personal best (classic 1-card deal): fastest win and fewest moves!")
    assert "3 won of 9" in page.inner_text("#win-free")
    assert "3:07" in page.inner_text("#win-facts")


def test_keyboard_only_skip_link_picked_card_and_hint_labels(page: Any) -> None:
    open_deal(page, DEAL)
    page.reload()  # the game comes back; the focus starts from the top of the page
    ready(page)
    page.keyboard.press("Tab")  # the first stop on the page is the skip link
    assert page.evaluate("document.activeElement.id") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.slot") == "stock"
    page.keyboard.press("d")
    wait_moves(page, 1)
    still(page)
    page.click(slot("waste") + " .card.top")
    assert page.get_attribute(slot("waste"), "aria-pressed") == "true"
    page.keyboard.press("Escape")
    assert page.get_attribute(slot("waste"), "aria-pressed") == "false"
    page.keyboard.press("h")
    page.wait_for_selector("#table .slot.hinted")
    labels = page.eval_on_selector_all("#table .slot.hinted", "s => s.map(x => x.ariaLabel)")
    assert labels and all("hinted" in label for label in labels)


def test_winnable_only_deals_a_proved_deal_and_its_win_counts_apart(device: Any) -> None:
    name, tab, errors = device
    tab.goto("/")
    ready(tab)
    tab.check("#winnable")
    tab.click("#new")
    tab.wait_for_function("document.querySelector('#title').textContent.includes('proved')")
    game = tab.evaluate("async () => (await (await fetch('/api/games/' + "
                        "new URLSearchParams(location.search).get('game') + '/')).json())")
    variant = game["variant"]  # {"slug", "name"}, or a slug from a server before games
    lines = winnable_lines(variant["slug"] if isinstance(variant, dict) else variant)
    assert game["deal_kind"] == "winnable" and game["deal"] in lines

    tab.reload()
    ready(tab)
    assert tab.is_checked("#winnable")  # remembered by the browser
    play = """async ({id, moves}) => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('csrftoken=')).slice(10);
      for (const move of moves) {
        const answer = await fetch(`/api/games/${id}/moves/`, {method: 'POST',
          headers: {'Content-Type': 'application/json', 'X-CSRFToken': token},
          body: JSON.stringify({move})});
        if (!answer.ok) throw new Error(await answer.text());
      }
    }"""
    tab.evaluate(play, {"id": game["id"], "moves": lines[game["deal"]].split()})
    tab.wait_for_selector("#win[open]")  # the board heard the win from the server
    assert "winnable deals" in tab.inner_text("#win-free")
    assert "1 won of 1" in tab.inner_text("#win-free")
    assert "New personal best" in tab.inner_text("#win-best")
    tab.screenshot(path=str(OUTPUT / f"board-win-winnable-{name}.png"))
    assert not errors


def test_the_first_request_goes_out_early_and_is_used_once(page: Any) -> None:
    """The page sends the board's first request before its modules load; the board takes
    that answer instead of asking again: a first visit deals exactly one game, a reload
    resumes it, and the game named in the URL opens."""
    page.goto("/")
    ready(page)
    mine = "async () => (await (await fetch('/api/games/')).json()).map((game) => game.id)"
    dealt = page.evaluate(mine)
    assert len(dealt) == 1 and dealt[0] in page.url
    page.goto("/")  # no ?game=: the page names the unfinished game, the early GET opens it
    ready(page)
    assert page.evaluate(mine) == dealt and dealt[0] in page.url
    page.evaluate("localStorage.setItem('tomb.variant', 'classic')")
    page.goto("/")  # the chosen variant has no game yet: one new classic deal
    ready(page)
    assert len(page.evaluate(mine)) == 2 and "classic" in page.inner_text("#title").lower()
