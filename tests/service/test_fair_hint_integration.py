"""The fair hint on the real stack: asked over the socket, answered by the real Celery
worker through Redis, and over REST by the ASGI server; never a card of the stock."""

from __future__ import annotations

import json

import pytest
from websockets.asyncio.client import ClientConnection

from .secrecy import StockWatch
from .stack import Stack, Visitor
from .test_integration import alice, board, receive, stack  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.integration, pytest.mark.asyncio]
DEAL = 2


async def test_the_worker_answers_a_fair_hint(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection],  # noqa: F811
) -> None:
    game = alice.new_game(DEAL)
    watch = StockWatch(DEAL)
    for move in ("D", "D"):
        assert alice.post(f"/api/games/{game['id']}/moves/", {"move": move}).status_code == 200
        watch.played(move)
    socket = await board(stack, alice, game["id"])
    sockets.append(socket)

    await socket.send(json.dumps({"type": "hint", "fair": True, "seq": 1}))
    counted = await receive(socket, watch)
    answer = await receive(socket, watch)

    assert counted["seq"] == 1 and counted["game"]["hints"] == 1
    assert answer["type"] == "hint" and answer["version"] == counted["version"]
    hint = answer["hint"]
    assert hint["fair"] is True and 0 <= hint["chance"] <= 1
    assert hint["move"] in counted["game"]["state"]["legal"]
    assert stack.row(game["id"])["hints"] == 1


async def test_a_fair_hint_over_rest_on_the_real_stack(
    stack: Stack, alice: Visitor,  # noqa: F811
) -> None:
    game = alice.new_game(DEAL)
    watch = StockWatch(DEAL)

    response = alice.post(f"/api/games/{game['id']}/hint/", {"fair": True})

    watch.check(response.text)
    assert response.status_code == 200
    assert response.json()["hint"]["fair"] is True
    refused = alice.post(f"/api/games/{game['id']}/hint/", {"fair": "maybe"})
    assert refused.status_code == 400 and stack.row(game["id"])["hints"] == 1
