"""Playing a ranked daily over HTTP and WebSocket never shows a card still unseen in its stock.

Every payload, page and error carol receives, and every message of the live
field, is checked against the daily's secret order.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from leaderboards.preparing import todays_daily
from patience.tomb import THREE_CARD
from tombsite.asgi import application

from .conftest import Browser
from .lines import seeded_line
from .secrecy import StockWatch
from .test_consumers import headers
from .test_secrecy import rest_turn

PAGES = ("/napoleons-tomb/three-card/daily/", "/api/daily/three-card/",
         "/api/daily/three-card/field/", "/napoleons-tomb/three-card/boards/",
         "/api/boards/three-card/wins/", "/api/me/daily-stats/",
         "/me/stats/", "/api/daily/three-card/archive/")


def check_pages(browser: Browser, watch: StockWatch, day: str, game_id: str) -> None:
    for url in (*PAGES, f"/napoleons-tomb/three-card/daily/{day}/", f"/api/daily/three-card/{day}/",
                f"/api/daily/three-card/{day}/board/", f"/api/games/{game_id}/", "/"):
        response = browser.get(url)
        assert response.status_code == 200, url
        watch.check(response.content)


def first_half(carol: Browser, watch: StockWatch, game_id: str, moves: Any, day: str) -> None:
    for number, move in enumerate(moves):
        rest_turn(carol, watch, game_id, move)  # with illegal probes: errors are payloads
        refused = carol.post(f"/api/games/{game_id}/undo/")
        if move in ("D", "R"):
            assert refused.status_code == 409  # a stock turn stays turned
        else:
            watch.undone()
            rest_turn(carol, watch, game_id, move)
        watch.check(refused.content)
        if number % 15 == 0:
            check_pages(carol, watch, day, game_id)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_ranked_daily_over_rest_and_websocket_never_shows_the_stock(
    carol_browser: Browser, solver_screened: None, settings: Any
) -> None:
    settings.WS_BURST = 10_000  # a test plays faster than a person
    daily = await sync_to_async(todays_daily)(THREE_CARD)
    watch, line, day = StockWatch(daily.deal()), seeded_line(daily.seed), str(daily.date)
    started = await sync_to_async(carol_browser.post)("/api/daily/three-card/play/")
    watch.check(started.content)
    game_id = started.json()["id"]
    field = WebsocketCommunicator(application, "/ws/daily/three-card/",
                                  headers=headers(carol_browser))
    assert (await field.connect())[0]
    # The field sends its first picture after the accept: wait for it, or its read races
    # the next write on the in-memory SQLite database ("table is locked").
    watch.check(await field.receive_from())
    half = len(line) // 2

    await sync_to_async(first_half)(carol_browser, watch, game_id, line[:half], day)
    hinted = await sync_to_async(carol_browser.post)(f"/api/games/{game_id}/hint/")
    watch.check(hinted.content)

    board = WebsocketCommunicator(application, f"/ws/games/{game_id}/",
                                  headers=headers(carol_browser))
    assert (await board.connect())[0]
    watch.check(await board.receive_from())
    for seq, move in enumerate(line[half:]):
        await board.send_json_to({"type": "move", "move": move, "seq": seq})
        watch.played(move)
        watch.check(await board.receive_from())
    await board.send_json_to({"type": "undo"})
    watch.check(await board.receive_from())  # refused: a won ranked daily is final
    await board.send_json_to({"type": "hint"})
    watch.check(await board.receive_from())
    await board.disconnect()

    while not await field.receive_nothing(timeout=0.05):
        watch.check(await field.receive_from())
    await field.disconnect()
    await sync_to_async(check_pages)(carol_browser, watch, day, game_id)
    me = (await sync_to_async(carol_browser.get)("/api/daily/three-card/")).json()["me"]
    assert me["status"] == "won" and ", 1 hint." in me["share"]
    assert watch.checked > 3 * len(line)
    await get_channel_layer().flush()
