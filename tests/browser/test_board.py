"""The board in real Chromium: a deal won through the page along the solver's line,
half by pointer and half by keyboard; undo, hints, resuming after a reload, the phone
viewport, keyboard-only play and a dropped connection."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from patience.tomb import new_game, parse_move
from tests.service.lines import winning_line

from .board_driver import (
    arrow_to,
    by_keyboard,
    by_pointer,
    close_menu,
    focused_slot,
    open_deal,
    open_menu,
    ready,
    slot,
    still,
    wait_announced,
    wait_moves,
)
from .conftest import OUTPUT

DEAL = 1  # a 3-card deal the solver wins along an 82-move line


def table_labels(page: Any) -> list[str]:
    return page.eval_on_selector_all("#table [data-slot]", "slots => slots.map(s => s.ariaLabel)")


def game_log(page: Any) -> list[str]:
    return page.evaluate("""async () => {
        const id = (await (await fetch('/api/games/')).json())[0].id;
        return (await (await fetch('/api/games/' + id + '/')).json()).state.log;
    }""")


def touch_drag(tab: Any, source: str, target: str) -> None:
    """A finger's drag, as Chromium's touch input (Playwright's touchscreen only taps)."""
    start = tab.locator(source).bounding_box()
    goal = tab.locator(target).bounding_box()
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2
    cdp = tab.context.new_cdp_session(tab)

    def touch(kind: str, *points: tuple[float, float]) -> None:
        cdp.send("Input.dispatchTouchEvent",
                 {"type": kind, "touchPoints": [{"x": x, "y": y} for x, y in points]})

    touch("touchStart", (x0, y0))
    for step in range(1, 9):
        touch("touchMove", (x0 + (x1 - x0) * step / 8, y0 + (y1 - y0) * step / 8))
    touch("touchEnd")
    cdp.detach()


def test_a_deal_is_won_half_by_pointer_half_by_keyboard(page: Any) -> None:
    line = winning_line(DEAL)
    open_deal(page, DEAL)
    page.focus(slot("stock"))
    position = new_game(DEAL, "three-card")
    gestures: dict[str, int] = {}
    for turn, move in enumerate(line):
        if turn % 2:
            by_keyboard(page, move)
            gestures["keyboard"] = gestures.get("keyboard", 0) + 1
        else:
            used = by_pointer(page, move, position, turn // 2)
            gestures[used] = gestures.get(used, 0) + 1
            page.focus(slot("stock"))  # the keyboard carries on from the table
        position.apply(parse_move(move))
        wait_moves(page, turn + 1)
        if turn == len(line) // 2:
            still(page)
            page.screenshot(path=str(OUTPUT / "board-mid-game.png"), full_page=True)

    hop = "getComputedStyle(document.querySelector('[data-slot=nw] .card')).animationName"
    assert page.evaluate(hop) == "hop"  # a modest celebration...
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(hop) == "none"  # ...that keeps still when asked to
    page.emulate_media(reduced_motion="no-preference")
    page.wait_for_selector("#win[open]")  # the win's overlay, the focus in it
    assert page.inner_text("#win-title") == "You won!"
    assert page.evaluate("document.activeElement.closest('#win') !== null")
    facts = page.inner_text("#win-facts")
    assert all(word in facts for word in ("Time", "Moves", "Hints", "Undos"))
    page.screenshot(path=str(OUTPUT / "board-win.png"))
    wait_announced(page, "You won")
    # The last move and the win in one message: the live region keeps only its latest.
    assert page.inner_text("#announcer").index("You won") > 0
    assert page.inner_text("#home") == "52 of 52"
    assert game_log(page) == list(line)
    assert set(gestures) == {"keyboard", "click", "drag", "tap-tap", "double-click"}
    assert gestures["keyboard"] == len(line) // 2
    page.wait_for_function("document.querySelector('#wins').textContent.includes('3-card deal 1')")

    page.keyboard.press("Escape")  # Esc closes the overlay
    assert not page.evaluate("document.querySelector('#win').open")
    page.click("#undo")  # undo works after the end too
    wait_moves(page, len(line) - 1)
    assert page.is_hidden("#end")
    # No more hopping once the game is on again (nor in the next game).
    assert "celebrate" not in (page.get_attribute("#table", "class") or "")


def test_undo_and_hints(page: Any) -> None:
    open_deal(page, DEAL)
    page.keyboard.press("d")
    wait_moves(page, 1)
    wait_announced(page, "Stock turned")
    page.keyboard.press("u")
    wait_moves(page, 0)
    wait_announced(page, "Move undone.")

    page.keyboard.press("h")
    page.wait_for_selector("#table .slot.hinted")
    assert page.eval_on_selector("#table .slot.hinted", "s => s.dataset.slot") == "stock"
    assert "Winnable" in page.inner_text("#message")

    page.keyboard.press("d")
    wait_moves(page, 1)
    assert page.locator("#table .slot.hinted").count() == 0  # the hint was for the old table
    page.click("#fair-hint")
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('Fair hint')")
    assert page.locator("#table .slot.hinted").count() >= 1


def test_a_reload_resumes_the_game_where_it_was(page: Any) -> None:
    line = winning_line(DEAL)[:9]
    open_deal(page, DEAL)
    page.focus(slot("stock"))
    for turn, move in enumerate(line):
        by_keyboard(page, move)
        wait_moves(page, turn + 1)
    before = table_labels(page), page.inner_text("#title")

    page.reload()
    ready(page)
    wait_moves(page, len(line))

    assert (table_labels(page), page.inner_text("#title")) == before
    assert game_log(page) == list(line)


def test_keyboard_only_play_with_a_visible_focus(page: Any) -> None:
    open_deal(page, DEAL)
    page.focus("#variant")
    for _ in range(20):  # tab into the table: one stop, on the stock
        page.keyboard.press("Tab")
        if focused_slot(page):
            break
    assert focused_slot(page) == "stock"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none")

    page.keyboard.press("Enter")  # turn the stock
    wait_moves(page, 1)
    arrow_to(page, "n")  # the arrows follow the piles as they are drawn
    page.keyboard.press("Enter")  # park the waste card in the north cell
    wait_moves(page, 2)
    wait_announced(page, "parked in the north cell")
    assert "north cell:" in page.get_attribute(slot("n"), "aria-label")
    assert "empty" not in page.get_attribute(slot("n"), "aria-label")

    page.keyboard.press("Shift+Tab")  # the table is a single tab stop
    assert focused_slot(page) is None


def test_the_phone_viewport_has_no_horizontal_scroll(chromium: Any, site: Any) -> None:
    context = chromium.new_context(base_url=site.base_url, viewport={"width": 390, "height": 844},
                                   has_touch=True, is_mobile=True)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    try:
        phone.goto("/")
        ready(phone)
        for size in ("S", "M", "L", "XL"):
            open_menu(phone)
            phone.tap(f'[data-size="{size}"]')
            widths = phone.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert widths[0] <= widths[1], f"size {size} scrolls sideways: {widths}"
        close_menu(phone)
        open_deal(phone, DEAL)  # deal 1 starts D C@n D F@nw
        phone.tap(slot("stock"))
        wait_moves(phone, 1)
        phone.tap(slot("waste") + " .card.top")  # tap the card, then the pile
        expect(phone.locator(slot("waste"))).to_have_attribute("aria-label", re.compile("selected"))
        phone.keyboard.press("Escape")  # puts it down again
        expect(phone.locator(slot("waste"))).not_to_have_attribute(
            "aria-label", re.compile("selected"))
        phone.tap(slot("waste") + " .card.top")
        expect(phone.locator(slot("waste"))).to_have_attribute("aria-label", re.compile("selected"))
        phone.tap(slot("n"))
        wait_moves(phone, 2)
        phone.tap(slot("stock"))
        wait_moves(phone, 3)
        phone.tap(slot("waste") + " .card.top")  # a double tap sends it home
        phone.tap(slot("waste") + " .card.top")
        wait_moves(phone, 4)
        wait_announced(phone, "north-west corner")
        touch_drag(phone, slot("waste") + " .card.top", slot("w"))  # a finger drags it
        wait_moves(phone, 5)
        wait_announced(phone, "parked in the west cell")
        still(phone)
        phone.screenshot(path=str(OUTPUT / "board-phone.png"), full_page=True)
        phone.reload()
        ready(phone)
        assert phone.get_attribute('[data-size="XL"]', "aria-pressed") == "true"  # remembered
    finally:
        context.close()
    assert not errors


def test_a_dropped_connection_loses_and_doubles_no_move(page: Any, site: Any) -> None:
    log = OUTPUT / f"site-{site.port}.log"
    logged_before = log.stat().st_size
    open_deal(page, DEAL)
    page.wait_for_function("document.querySelector('#link').textContent === ''")
    # A move goes out and the socket drops before its answer can arrive.
    page.evaluate("""async () => {
        const link = await import('/static/tomb/connection.js');
        link.perform({type: 'move', move: 'D'});
        link.dropForTest();
    }""")
    wait_moves(page, 1)
    page.keyboard.press("d")  # over REST or the new socket, whichever is up
    wait_moves(page, 2)
    page.wait_for_function("document.querySelector('#link').textContent === ''")  # live again
    page.keyboard.press("d")
    wait_moves(page, 3)
    assert game_log(page) == ["D", "D", "D"]
    # The answer to the dropped socket's move had nowhere to go: a line in the log, not a
    # traceback (the server's send on a closed connection is no failure of the game's).
    assert "Traceback" not in log.read_bytes()[logged_before:].decode(errors="replace")


def test_a_fair_hint_once_the_stock_is_known_speaks_from_what_was_seen(page: Any) -> None:
    open_deal(page, DEAL)
    page.focus(slot("stock"))
    turns = 0
    while page.inner_text(slot("stock") + " .count") != "0":  # the whole stock, seen once
        page.keyboard.press("d")
        turns += 1
        wait_moves(page, turns)
    page.keyboard.press("d")  # the waste turned over: the player knows the stock's order
    wait_moves(page, turns + 1)

    page.keyboard.press("g")
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('Fair hint')")
    said = page.inner_text("#message")
    assert "However the unseen cards lie" in said  # exact, yet no word of a peeking solver
    assert "solver" not in said
