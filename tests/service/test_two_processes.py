"""One game's boards on two server processes: two uvicorn processes sharing PostgreSQL
and the Redis channel layer, as replicas behind a proxy run (docs/scaling.md).

Each process keeps the positions and rows of the games it served (game.positions) and
writes a socket's move from its event loop with ``UPDATE ... WHERE version = v``
(game.actions.amove); a move the other process made meanwhile leaves that statement
without a row, and the move takes the locked path. So the two boards of one game, one
on each process, must stay in step whoever moves, and two moves sent at once on one
version must give one write, never two.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from game.deltas import patch

from .lines import winning_line
from .stack import Stack, Visitor, free_port, started_stack

pytestmark = [pytest.mark.integration, pytest.mark.asyncio]
DEAL = 2
TIMEOUT = 20


class TwoProcesses:
    def __init__(self, stack: Stack, port: int) -> None:
        self.stack = stack
        self.urls = [stack.base_url, f"http://127.0.0.1:{port}"]


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoProcesses]:
    with started_stack(tmp_path_factory.mktemp("two")) as stack:
        port = free_port()
        stack.spawn("second server", [
            sys.executable, "-m", "uvicorn", "tombsite.asgi:application", "--host",
            "127.0.0.1", "--port", str(port), "--ws-max-size", "65536", "--no-access-log",
            "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"])
        wait_for(f"http://127.0.0.1:{port}/api/csrf/")
        yield TwoProcesses(stack, port)


def wait_for(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the second server did not start ({url})")


@pytest.fixture
def alice(servers: TwoProcesses) -> Iterator[Visitor]:
    visitor = Visitor(servers.stack)
    yield visitor
    visitor.close()


async def board(servers: TwoProcesses, process: int, visitor: Visitor, game_id: str,
                opened: list[ClientConnection], deltas: bool = False) -> ClientConnection:
    """A board of the game on server process ``process`` (0 or 1), from that server's page."""
    url = servers.urls[process]
    socket = await connect(
        url.replace("http", "ws", 1) + f"/ws/games/{game_id}/" + ("?deltas=1" if deltas else ""),
        origin=url,  # type: ignore[arg-type]
        additional_headers={"Cookie": visitor.cookie_header, "X-Forwarded-For": visitor.address},
        open_timeout=TIMEOUT)
    opened.append(socket)
    return socket


async def receive(socket: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT)))


async def test_two_boards_on_two_processes_stay_in_step(
    servers: TwoProcesses, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    first = await board(servers, 0, alice, game["id"], sockets)
    second = await board(servers, 1, alice, game["id"], sockets)
    patched = await board(servers, 1, alice, game["id"], sockets, deltas=True)
    held = [(await receive(socket))["game"] for socket in (first, second, patched)][2]
    line = winning_line(DEAL)[:24]
    # Runs of moves on each process, and turns: quick moves, and moves whose process
    # kept a version the other one had left behind.
    senders = [first, first, first, second, second, first, second, first] * 3

    for number, (sender, move) in enumerate(zip(senders, line, strict=True), 1):
        await sender.send(json.dumps({"type": "move", "move": move, "seq": number}))
        one, two, three = [await receive(socket) for socket in (first, second, patched)]
        assert one["version"] == two["version"] == three["version"] == number, (one, two)
        assert one["game"] == two["game"]
        assert ("seq" in one, "seq" in two) == (sender is first, sender is second)
        if three["type"] == "delta":
            assert three["base"] == held["version"]
            held = patch(held, three["game"])
        else:
            held = three["game"]
        assert held == {key: value for key, value in one["game"].items() if key != "table"} \
            or held == one["game"]

    row = servers.stack.row(game["id"])
    assert row["version"] == len(line) and row["log"] == " ".join(line)


async def test_one_version_moved_on_both_processes_at_once_is_written_once(
    servers: TwoProcesses, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    for _ in range(5):
        game = alice.new_game(DEAL)
        first = await board(servers, 0, alice, game["id"], sockets)
        second = await board(servers, 1, alice, game["id"], sockets)
        await receive(first), await receive(second)  # both processes keep version 0

        for number, socket in enumerate((first, second), 1):
            await socket.send(json.dumps(
                {"type": "move", "move": "D", "seq": number, "version": 0}))
        heard = await asyncio.gather(*(answers_to(socket, seq) for seq, socket in
                                       enumerate((first, second), 1)))

        # One is acknowledged (its state); the other refused as stale (the current state
        # comes before the error, without the seq), whichever process wrote first.
        kinds = sorted([message["type"] for message in answers] for answers in heard)
        assert kinds == [["error"], ["state"]], heard
        acked, refused = sorted(heard, key=lambda answers: answers[0]["type"] == "error")
        assert acked[0]["version"] == 1 and refused[0]["code"] == "stale"
        row = servers.stack.row(game["id"])
        assert row["version"] == 1 and row["log"] == "D"
        for socket in (first, second):
            await socket.close()


async def answers_to(socket: ClientConnection, seq: int) -> list[dict[str, Any]]:
    """The messages with the ``seq`` of the message they answer, heard until a second
    passes without one."""
    answers = [await receive(socket)]
    while True:
        try:
            message = json.loads(await asyncio.wait_for(socket.recv(), 1.0))
        except TimeoutError:
            return [message for message in answers if message.get("seq") == seq]
        answers.append(message)
