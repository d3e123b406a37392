"""The integration layer: real PostgreSQL, Redis, a Celery worker and an ASGI server.

Driven from outside over HTTP and WebSocket, as a browser would. On CI
(CI=true) these tests fail rather than skip when a service is missing.
"""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from .lines import winning_line
from .secrecy import StockWatch
from .stack import Stack, Visitor, started_stack

pytestmark = [pytest.mark.integration, pytest.mark.asyncio]
DEAL = 2
TIMEOUT = 20


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with started_stack(tmp_path_factory.mktemp("stack")) as running:
        yield running


@pytest.fixture
def alice(stack: Stack) -> Iterator[Visitor]:
    visitor = Visitor(stack)
    yield visitor
    visitor.close()


async def board(stack: Stack, visitor: Visitor, game_id: str) -> ClientConnection:
    socket = await visitor.socket(f"/ws/games/{game_id}/", TIMEOUT)
    first = await receive(socket)
    assert first["type"] == "state"
    return socket


async def receive(socket: ClientConnection, watch: StockWatch | None = None) -> dict[str, Any]:
    text = await asyncio.wait_for(socket.recv(), TIMEOUT)
    if watch is not None:
        watch.check(text)
    return dict(json.loads(text))


async def test_a_deal_is_won_over_websocket_and_stored(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    watch = StockWatch(DEAL)
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"])
    sockets.append(socket)

    line = winning_line(DEAL)
    for seq, move in enumerate(line, start=1):
        await socket.send(json.dumps({"type": "move", "move": move, "seq": seq}))
        watch.played(move)
        reply = await receive(socket, watch)
        assert (reply["type"], reply.get("seq"), reply.get("version")) == ("state", seq, seq), reply

    assert reply["game"]["status"] == "won"
    row = stack.row(game["id"])
    assert (row["status"], row["moves"], row["home"]) == ("won", len(line), 52)
    assert row["log"].split() == list(line)
    assert alice.get("/api/stats/").json()["wins"]["three-card"] == 1


async def test_two_connections_on_one_game_stay_in_step(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    first = await board(stack, alice, game["id"])
    second = await board(stack, alice, game["id"])
    sockets.extend([first, second])

    for number, (sender, move) in enumerate([(first, "D"), (second, "D"), (first, "D")], 1):
        await sender.send(json.dumps({"type": "move", "move": move, "seq": number}))
        one, two = await receive(first), await receive(second)
        assert one["version"] == two["version"] == number
        assert one["game"] == two["game"]
        assert ("seq" in one, "seq" in two) == (sender is first, sender is second)

    # Each socket got each state once: the sender's own is not echoed back by Redis.
    for socket in (first, second):
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(socket.recv(), 0.5)
    assert stack.row(game["id"])["version"] == 3


async def test_a_hint_arrives_from_the_real_worker(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"])
    sockets.append(socket)
    watch = StockWatch(DEAL)

    await socket.send(json.dumps({"type": "hint", "seq": 1}))
    counted = await receive(socket, watch)
    answer = await receive(socket, watch)

    assert counted["game"]["hints"] == 1 and counted["seq"] == 1
    assert answer["type"] == "hint" and answer["version"] == counted["version"]
    assert answer["hint"]["move"] == "D"  # the only legal move at the start
    assert answer["hint"]["verdict"] in ("winnable", "lost", "unknown")
    assert stack.row(game["id"])["hints"] == 1
    # The worker stays healthy: a second hint gets an answer too.
    await socket.send(json.dumps({"type": "hint", "seq": 2}))
    await receive(socket)
    assert (await receive(socket))["type"] == "hint"


async def test_an_acknowledged_move_survives_a_sigkill(stack: Stack, alice: Visitor) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"])

    await socket.send(json.dumps({"type": "move", "move": "D", "seq": 1}))
    ack = await receive(socket)
    stack.kill("server", signal.SIGKILL)
    stack.start_server()

    assert ack["seq"] == 1
    after = alice.get(f"/api/games/{game['id']}/").json()
    assert after["version"] == 1 and after["state"]["log"] == ["D"]
    assert stack.row(game["id"])["log"] == "D"


async def test_rest_on_postgresql_refuses_bad_moves_and_strangers(
    stack: Stack, alice: Visitor
) -> None:
    bob = Visitor(stack)
    game = alice.new_game(DEAL)
    try:
        assert alice.post(f"/api/games/{game['id']}/moves/", {"move": "F"}).status_code == 409
        assert alice.post(f"/api/games/{game['id']}/moves/", {"move": "?"}).status_code == 400
        assert bob.post(f"/api/games/{game['id']}/moves/", {"move": "D"}).status_code == 403
        assert bob.get("/api/games/resume/?variant=three-card").status_code == 404
        assert stack.row(game["id"])["version"] == 0
    finally:
        bob.close()


async def test_hostile_sockets_are_closed_and_others_keep_playing(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    hostile = await board(stack, alice, game["id"])
    player = await board(stack, alice, game["id"])
    sockets.extend([hostile, player])

    await hostile.send("{not json")
    assert (await receive(hostile))["error"] == "malformed JSON"
    await hostile.send("x" * 200_000)  # past the server's frame limit: closed
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(hostile.recv(), TIMEOUT)

    await player.send(json.dumps({"type": "move", "move": "D", "seq": 1}))
    assert (await receive(player))["seq"] == 1
    assert stack.row(game["id"])["version"] == 1


async def test_a_board_idle_past_the_layers_blocking_pop_keeps_playing(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    # channels_redis waits on Redis in 5 s blocking pops; with redis-py's default
    # socket timeout (also 5 s) every idle pop failed and dropped the open sockets.
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"])
    sockets.append(socket)

    await asyncio.sleep(6)
    await socket.send(json.dumps({"type": "move", "move": "D", "seq": 1}))
    assert (await receive(socket))["seq"] == 1
