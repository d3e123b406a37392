"""No HTTP or WebSocket payload, page or error names a card still unseen in the stock."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from tombsite.asgi import application

from .conftest import EASY_DEAL, Browser
from .lines import winning_line
from .secrecy import StockWatch
from .test_consumers import headers

# Illegal tries along the way: their error messages are payloads too.
PROBES = ("F", "F@nw", "F@tomb", "R", "C@n", "X", "")


def illegal(watch: StockWatch, probe: str) -> bool:
    legal = {move.notation for move in watch.position.legal_moves()}
    if probe in ("F", "C"):
        return not any(move.startswith(probe + "@") for move in legal)
    return probe not in legal


def rest_turn(alice: Browser, watch: StockWatch, game_id: str, move: str) -> None:
    for probe in PROBES:
        if illegal(watch, probe):
            response = alice.move(game_id, probe)
            assert response.status_code in (400, 409)
            watch.check(response.content)
    response = alice.move(game_id, move)
    assert response.status_code == 200
    watch.played(move)
    watch.check(response.content)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_game_over_rest_and_websocket_never_shows_the_stock(
    alice: Browser, settings: Any
) -> None:
    settings.WS_BURST = 10_000  # a test plays faster than a person
    line = winning_line(EASY_DEAL)
    watch = StockWatch(EASY_DEAL)
    game = await sync_to_async(alice.new_game)(EASY_DEAL)
    watch.check(game)
    half = len(line) // 2

    await sync_to_async(_first_half_over_rest)(alice, watch, game["id"], line[:half])

    socket = WebsocketCommunicator(
        application, f"/ws/games/{game['id']}/", headers=headers(alice)
    )
    assert (await socket.connect())[0]
    watch.check(await socket.receive_from())
    for seq, move in enumerate(line[half:]):
        if illegal(watch, "F@se"):
            await socket.send_json_to({"type": "move", "move": "F@se", "seq": seq})
            watch.check(await socket.receive_from())  # an error naming the top card
        await socket.send_json_to({"type": "move", "move": move, "seq": seq})
        watch.played(move)
        watch.check(await socket.receive_from())
    await socket.send_json_to({"type": "undo"})
    watch.undone()
    watch.check(await socket.receive_from())
    await socket.disconnect()

    final = await sync_to_async(alice.get)(f"/api/games/{game['id']}/")
    watch.check(final.content)
    assert final.json()["status"] == "playing"  # the undo took back the winning move
    assert watch.checked > 2 * len(line)
    await get_channel_layer().flush()


def _first_half_over_rest(alice: Browser, watch: StockWatch, game_id: str, moves: Any) -> None:
    for number, move in enumerate(moves):
        rest_turn(alice, watch, game_id, move)
        if number % 10 == 0:
            hinted = alice.post(f"/api/games/{game_id}/hint/")
            watch.check(hinted.content)
            undone = alice.post(f"/api/games/{game_id}/undo/")
            watch.undone()
            watch.check(undone.content)
            rest_turn(alice, watch, game_id, move)
        for url in ("/", "/api/games/", f"/api/games/{game_id}/",
                    "/api/games/resume/?variant=three-card"):
            watch.check(alice.get(url).content)
