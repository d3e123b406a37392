"""The board on a ranked daily attempt (opened as /?game=<id> by the daily page): it says
which daily it is, and shows the server's refusal to undo a stock turn."""

from __future__ import annotations

from typing import Any

from .board_driver import ready, slot, wait_announced, wait_moves
from .test_pages import make_past_daily, sign_up, start_daily


def test_a_ranked_daily_is_named_and_refuses_to_undo_a_stock_turn(page: Any) -> None:
    sign_up(page)
    start_daily(page)
    ready(page)
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    assert page.inner_text("#title") == f"Daily 3-card deal {today} — ranked attempt"
    assert page.is_disabled("#replay")  # a daily has no public number to replay

    page.focus(slot("stock"))
    page.keyboard.press("d")
    wait_moves(page, 1)
    page.keyboard.press("u")
    page.wait_for_function("document.querySelector('#message').textContent !== ''")
    assert "a stock turn (D or R) cannot be undone" in page.inner_text("#message")
    wait_announced(page, "cannot be undone")
    assert page.inner_text("#moves") == "1"


def test_a_ranked_daily_whose_day_is_over_replays_unranked_from_the_archive(
    page: Any, site: Any
) -> None:
    sign_up(page)
    game = start_daily(page)
    ready(page)
    assert page.is_disabled("#replay")  # not before the day is over
    past = make_past_daily(site, 1)
    site.manage("shell", "-c", (  # the attempt's day is yesterday's, now closed
        "from datetime import datetime, time, timezone; from game.models import Game;"
        "from leaderboards.days import today;"
        f"Game.objects.filter(pk='{game}').update("
        "closes_at=datetime.combine(today(), time(), tzinfo=timezone.utc))"))

    page.reload()
    ready(page)
    assert page.inner_text("#title").endswith(f"{past} — ranked attempt")
    page.click("#replay")
    page.wait_for_function("document.querySelector('#title').textContent.includes('unranked')")

    replay = page.evaluate("async () => (await (await fetch('/api/games/' + "
                           "new URLSearchParams(location.search).get('game') + '/')).json())")
    assert replay["id"] != game and replay["ranked"] is False and replay["seeded"] is True
    assert page.is_disabled("#replay")  # its day is not known here: no replay offered
