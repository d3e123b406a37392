"""The board on a ranked daily attempt (opened as /?game=<id> by the daily page): it says
which daily it is, and shows the server's refusal to undo a stock turn."""

from __future__ import annotations

from typing import Any

from .board_driver import ready, slot, wait_moves
from .test_pages import make_past_daily, sign_up, start_daily


def test_a_ranked_daily_asks_before_a_turn_and_a_hint_and_offers_no_turn_undo(page: Any) -> None:
    sign_up(page)
    start_daily(page)
    ready(page)
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    assert page.inner_text("#title") == f"Daily 3-card deal {today} — ranked attempt"
    assert page.is_disabled("#replay")  # a daily has no public number to replay

    page.focus(slot("stock"))
    page.keyboard.press("d")  # the first stock turn of a ranked attempt asks first
    page.wait_for_selector("#confirm[open]")
    assert "cannot be undone" in page.inner_text("#confirm-text")
    assert page.evaluate("document.activeElement.id") == "confirm-no"  # the safe choice
    page.keyboard.press("Escape")  # no: nothing is turned
    assert page.inner_text("#moves") == "0"
    page.focus(slot("stock"))
    page.keyboard.press("d")
    page.wait_for_selector("#confirm[open]")
    # Each key waits for the focus it needs: without these waits the Enter said no in
    # about 1 run in 5 (4 of 20 runs, the session's first tree and this one alike).
    page.wait_for_function("document.activeElement.id === 'confirm-no'")
    page.keyboard.press("Shift+Tab")  # to "Turn", by keyboard only
    page.wait_for_function("document.activeElement.id === 'confirm-yes'")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    page.focus(slot("stock"))
    page.keyboard.press("d")  # warned once: the next turn just turns
    wait_moves(page, 2)
    assert page.is_disabled("#undo")  # the server refuses it, so the board does not offer it
    assert "cannot take back a stock turn" in page.get_attribute("#undo", "title")
    page.keyboard.press("u")
    assert page.inner_text("#moves") == "2"

    page.keyboard.press("h")  # a hint marks the result assisted: asked first
    page.wait_for_selector("#confirm[open]")
    assert "assisted" in page.inner_text("#confirm-text")
    page.click("#confirm-no")
    hints = "async () => (await (await fetch('/api/games/')).json())[0].hints"
    assert page.evaluate(hints) == 0
    page.click("#hint")
    page.wait_for_selector("#confirm[open]")
    page.click("#confirm-yes")
    page.wait_for_selector("#table .slot.hinted")
    assert page.evaluate(hints) == 1
    page.click("#hint")  # assisted already: no second question
    assert not page.evaluate("document.querySelector('#confirm').open")


def test_a_ranked_daily_whose_day_is_over_replays_unranked_from_the_archive(
    page: Any, site: Any
) -> None:
    sign_up(page)
    game = start_daily(page)
    ready(page)
    assert page.is_disabled("#replay")  # not before the day is over
    past = make_past_daily(site, 1)
    site.manage("shell", "-c", (  # the attempt's day is yesterday's, now closed
        "from datetime import datetime, time, timedelta, timezone; from game.models import Game;"
        "from leaderboards.days import today;"
        f"Game.objects.filter(pk='{game}').update(daily_date=today() - timedelta(days=1),"
        "closes_at=datetime.combine(today(), time(), tzinfo=timezone.utc))"))

    page.reload()
    ready(page)
    assert page.inner_text("#title").endswith(f"{past} — ranked attempt")
    page.click("#replay")
    page.wait_for_function("document.querySelector('#title').textContent.includes('unranked')")

    replay = page.evaluate("async () => (await (await fetch('/api/games/' + "
                           "new URLSearchParams(location.search).get('game') + '/')).json())")
    assert replay["id"] != game and replay["ranked"] is False and replay["seeded"] is True
    assert replay["daily_date"] == str(past)
    assert page.inner_text("#title").endswith(f"{past} — replay, unranked")
    assert not page.is_disabled("#replay")  # a replay of a closed day replays again
