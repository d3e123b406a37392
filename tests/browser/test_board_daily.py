"""The board on a ranked daily attempt (opened as /?game=<id> by the daily page): it says
which daily it is, and shows the server's refusal to undo a stock turn."""

from __future__ import annotations

from typing import Any

from .board_driver import ready, slot, wait_announced, wait_moves
from .test_pages import sign_up, start_daily


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
