"""The daily page in real Chromium: a ranked attempt started from the page shows up on the
day's board and, live, on a visitor's field; a finished attempt offers its share line.

Three-card only: the site's background maker screens today's deal with the real solver
at start-up, which is quick for it (classic can take minutes).
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import OUTPUT, client_address
from .test_pages import play, sign_up, start_daily


def watcher(chromium: Any, site: Any) -> tuple[Any, Any, list[str]]:
    """A second browser: a visitor on a phone who asks for reduced motion, its JavaScript
    errors collected."""
    context = chromium.new_context(base_url=site.base_url, viewport={"width": 390, "height": 844},
                                   reduced_motion="reduce", extra_http_headers=client_address())
    context.set_default_timeout(15_000)
    # Keep the page's sockets within reach, so the test can cut the live field's.
    context.add_init_script("""(() => { const Native = window.WebSocket; window.sockets = [];
      window.WebSocket = function (...args) { const s = new Native(...args);
        window.sockets.push(s); return s; };
      window.WebSocket.prototype = Native.prototype; })();""")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    return context, tab, errors


def test_a_visitor_sees_no_card_and_is_asked_to_log_in(page: Any) -> None:
    page.goto("/daily/three-card/")
    expect(page.locator("#me").get_by_role("link", name="Log in")).to_be_visible()
    expect(page.locator("#me").get_by_role("link", name="Play a free deal")).to_be_visible()
    expect(page.get_by_role("button", name="Play today's daily")).to_have_count(0)
    html = page.content()
    assert not re.search(r"\b(?:[2-9TJQKA])[CDHS]\b", page.locator("main").inner_text())
    assert 'data-card' not in html


def test_a_new_account_is_told_when_its_first_daily_opens(page: Any) -> None:
    sign_up(page, days_ago=0)
    page.goto("/daily/three-card/")
    expect(page.locator("#not-yet")).to_contain_text("your first ranked daily opens at")
    expect(page.get_by_role("button", name="Play today's daily")).to_have_count(0)
    page.get_by_role("link", name="Play a free deal").click()
    page.wait_for_url(re.compile(r"/(\?.*)?$"))


def test_a_daily_attempt_shows_up_on_the_days_board_and_live(
    page: Any, site: Any, chromium: Any
) -> None:
    context, visitor, errors = watcher(chromium, site)
    visitor.goto("/daily/three-card/")
    status = visitor.locator("#field-status")
    expect(status).to_have_text("Live.")
    # A dropped connection comes back by itself.
    visitor.evaluate("window.sockets.forEach((socket) => socket.close())")
    expect(status).to_contain_text("reconnecting")
    expect(status).to_have_text("Live.")
    assert visitor.evaluate("window.sockets.length") == 2

    name = sign_up(page)
    page.goto("/daily/three-card/")
    expect(page.locator("#attempt-state")).to_contain_text("Not started")
    game = start_daily(page)
    played = play(page, game, target=3)
    assert played["ranked"] is True and played["home"] >= 3

    # The visitor's field follows over the socket, without a reload.
    row = visitor.locator(f"#field-rows tr[data-player='{name}']")
    expect(row).to_contain_text(str(played["home"]))
    expect(row.locator("td").nth(2)).to_have_text(
        "playing" if played["status"] == "playing" else played["status"])
    # Others' progress is not read out (a busy field would flood a screen reader): the
    # live region is for the watcher's own rank only, and this visitor has none.
    assert visitor.locator("#field-news").inner_text() == ""
    assert row.evaluate("(el) => getComputedStyle(el).animationName") == "none"
    visitor.screenshot(path=OUTPUT / "daily-field-phone.png", full_page=True)

    # The day's board has the player, with the cards home, the row marked as theirs.
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    page.goto(f"/daily/three-card/{today}/")
    mine = page.locator("tr.me")
    expect(mine.get_by_role("rowheader")).to_contain_text(name)
    expect(mine.locator("td").nth(1)).to_contain_text(str(played["home"]))

    # Back on the daily page: the attempt is in progress and the button continues it.
    page.goto("/daily/three-card/")
    expect(page.locator("#my-rank")).to_have_text(re.compile(r"^\d+ of \d+$"))
    if played["status"] == "playing":
        expect(page.locator("#attempt-state")).to_contain_text("In progress")
        page.get_by_role("button", name="Continue your game").click()
        expect(page).to_have_url(re.compile(rf"/\?game={game}$"))
    context.close()
    assert not errors, f"JavaScript errors on the visitor's page: {errors}"


def test_a_finished_attempt_offers_its_share_line_to_copy(page: Any) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_up(page)
    game = start_daily(page)
    finished = play(page, game)  # to the end: won or stuck
    assert finished["status"] in ("won", "lost")

    page.goto("/daily/three-card/")
    expect(page.locator("#attempt-state")).to_contain_text("Finished")
    share = page.get_by_label("Share your result")
    expect(share).to_have_value(re.compile(r"^Napoleon's Tomb 3-card deal daily \d{4}-\d\d-\d\d: "))
    page.get_by_role("button", name="Copy").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == share.input_value()
    expect(page.get_by_role("button", name="See your game")).to_be_visible()
    page.screenshot(path=OUTPUT / "daily-finished.png", full_page=True)


def test_the_daily_page_fits_a_phone_in_portrait(page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up(page)
    page.goto("/daily/three-card/")
    game = start_daily(page)
    play(page, game, target=1)
    page.goto("/daily/three-card/")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 360
    field = page.locator("#field .scroll")
    assert field.evaluate("(box) => box.scrollWidth <= box.clientWidth")  # no sideways scroll
    play_button = page.get_by_role("button", name="Continue your game")
    box = play_button.bounding_box()
    assert box is not None and box["height"] >= 40  # a thumb-sized target


def test_a_ranked_player_hears_their_own_rank_change_and_nothing_else(
    page: Any, site: Any, chromium: Any
) -> None:
    sign_up(page)
    start_daily(page)
    page.goto("/daily/three-card/")
    expect(page.locator("#field-status")).to_have_text("Live.")
    news = page.locator("#field-news")

    context, rival, errors = watcher(chromium, site)
    name = sign_up(rival)
    game = start_daily(rival)
    played = play(rival, game, target=3)
    assert played["home"] >= 3

    # Overtaken (other tests' players may be in today's field too): said in words about
    # the player's own place, never the rival's moves.
    expect(news).to_have_text(re.compile(r"^You are now \d+ of \d+ in the field\.$"),
                              timeout=10_000)
    assert name not in news.inner_text()
    context.close()
    assert not errors
