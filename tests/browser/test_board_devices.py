"""The board across tabs and devices, and a deal that ends lost: one player's game in
two tabs stays in step, a logged-in player finds the unfinished game on another device,
and a lost deal says so and offers undo, replay and a new deal."""

from __future__ import annotations

from typing import Any

from patience.tomb import new_game, parse_move

from .board_driver import by_keyboard, open_deal, ready, slot, wait_announced, wait_moves

LOSING_CLASSIC = ("D C@n D C@w D C@e D C@s" + " D" * 48).split()  # classic deal 2: lost


def new_tab(chromium: Any, site: Any, **options: Any) -> Any:
    context = chromium.new_context(base_url=site.base_url, **options)
    errors: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.errors = errors
    return tab


def log_in(tab: Any, username: str, password: str) -> None:
    tab.goto("/accounts/login/")
    tab.fill("#id_username", username)
    tab.fill("#id_password", password)
    tab.click("form:has(#id_username) button[type=submit]")  # not the language menu's
    tab.wait_for_url("**/")
    ready(tab)


def test_two_tabs_of_one_game_stay_in_step(page: Any) -> None:
    open_deal(page, 1)
    other = page.context.new_page()
    other.goto(page.url)  # the URL names the game
    ready(other)

    page.focus(slot("stock"))
    page.keyboard.press("d")
    wait_moves(other, 1)
    other.focus(slot("stock"))
    other.keyboard.press("u")
    wait_moves(page, 0)
    wait_announced(page, "Move undone.")


def test_another_device_resumes_the_logged_in_players_game(chromium: Any, site: Any) -> None:
    site.manage("shell", "-c", "from django.contrib.auth.models import User; "
                "User.objects.create_user('ann', password='tomb-of-the-emperor')")
    laptop = new_tab(chromium, site)
    phone = new_tab(chromium, site, viewport={"width": 390, "height": 844})
    try:
        log_in(laptop, "ann", "tomb-of-the-emperor")
        open_deal(laptop, 7)
        laptop.focus(slot("stock"))
        for turn in range(3):
            laptop.keyboard.press("d")
            wait_moves(laptop, turn + 1)
        labels = laptop.eval_on_selector_all("#table [data-slot]", "s => s.map(x => x.ariaLabel)")

        log_in(phone, "ann", "tomb-of-the-emperor")
        wait_moves(phone, 3)
        assert phone.inner_text("#title").endswith("deal 7")
        assert phone.eval_on_selector_all("#table [data-slot]", "s => s.map(x => x.ariaLabel)") \
            == labels
    finally:
        laptop.context.close()
        phone.context.close()
    assert not laptop.errors and not phone.errors


def test_a_lost_deal_says_so_and_offers_undo_replay_and_new(page: Any) -> None:
    page.goto("/")
    ready(page)
    page.select_option("#variant", "classic")
    page.wait_for_function("document.querySelector('#title').textContent.startsWith('classic')")
    open_deal(page, 2)
    position = new_game(2, "classic")
    page.focus(slot("stock"))
    for turn, move in enumerate(LOSING_CLASSIC):
        by_keyboard(page, move)
        position.apply(parse_move(move))
        wait_moves(page, turn + 1)
    assert position.status.value == "lost"

    page.wait_for_selector("#end.lost:not([hidden])")
    assert "lost" in page.inner_text("#end-text")
    wait_announced(page, "lost")
    for button in ("#end-undo", "#end-replay", "#end-new"):
        assert page.is_enabled(button)

    page.click("#end-undo")
    wait_moves(page, len(LOSING_CLASSIC) - 1)
    assert page.is_hidden("#end")
    page.keyboard.press("d")
    wait_moves(page, len(LOSING_CLASSIC))
    page.click("#end-replay")
    wait_moves(page, 0)
    assert page.inner_text("#title") == "classic 1-card deal · deal 2"
    assert page.is_hidden("#end")
