"""The board's input at its edges: a drag whose card is played from elsewhere, held
keys, an empty deal number, a refused move said aloud."""

from __future__ import annotations

from typing import Any

from .board_driver import open_deal, open_menu, slot, still, wait_announced, wait_moves
from .test_board_reconnect import another_tab


def my_game_count(page: Any) -> int:
    return page.evaluate("async () => (await (await fetch('/api/games/')).json()).length")


def test_a_drag_ends_cleanly_when_its_card_is_played_from_another_tab(page: Any) -> None:
    open_deal(page, 1)
    page.keyboard.press("d")
    wait_moves(page, 1)
    still(page)  # the turned card has landed: press where it rests, not where it slid from
    card = page.locator("#table .waste .card.top").bounding_box()
    page.mouse.move(card["x"] + card["width"] / 2, card["y"] + card["height"] / 2)
    page.mouse.down()
    page.mouse.move(card["x"] + 40, card["y"] + 60, steps=4)
    page.wait_for_selector(".ghost")

    assert another_tab(page, "moves/", {"move": "C"}) == 200  # that card goes to a cell
    wait_moves(page, 2)
    page.wait_for_selector(".ghost", state="detached")  # no ghost left on the page
    page.mouse.move(card["x"] + 80, card["y"] + 90, steps=2)
    page.mouse.up()

    assert page.locator(".lifted, .ghost").count() == 0
    assert "picking" not in (page.get_attribute("#table", "class") or "")
    page.keyboard.press("d")  # and the board plays on
    wait_moves(page, 3)


def test_a_held_key_acts_once_and_an_empty_deal_number_deals_nothing(page: Any) -> None:
    open_deal(page, 1)
    before = my_game_count(page)
    page.locator("body").focus()

    for _ in range(4):
        page.keyboard.down("n")  # after the first, the browser marks them as repeats
    page.keyboard.up("n")
    page.wait_for_function("!document.querySelector('#title').textContent.endsWith('deal 1')")
    page.wait_for_timeout(300)
    assert my_game_count(page) == before + 1

    open_menu(page)
    page.fill("#deal", "")
    page.click("#open-deal button")
    page.wait_for_timeout(300)
    assert my_game_count(page) == before + 1


def test_a_refused_move_is_said_aloud(page: Any) -> None:
    open_deal(page, 1)
    page.focus(slot("nw"))
    page.keyboard.press("Enter")  # the waste is empty: nothing can go there
    wait_announced(page, "does not go on the north-west corner")
    assert page.inner_text("#message") == page.inner_text("#announcer")
