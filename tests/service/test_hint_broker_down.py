"""A hint asked over the socket while the hint queue (Celery's broker) is down gets a clear
error at once, and the board goes on playing.

The layer's Redis is up and the broker points at a port nothing listens on: the split
docs/scaling.md recommends (one Redis for the layer, another for Celery) with the second
one down. The site's own processes run for real; only the broker is missing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from .stack import Stack, Visitor, free_port, require_services

pytestmark = [pytest.mark.integration, pytest.mark.asyncio]
DEAL = 2


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require_services()
    running = Stack(tmp_path_factory.mktemp("stack"))
    running.env["CELERY_BROKER_URL"] = f"redis://127.0.0.1:{free_port()}/0"  # nobody there
    try:
        running.create_database()  # and no worker: it could not reach its broker
        running.start_server()
        yield running
    finally:
        running.stop()


async def next_reply(socket: Any, seq: int) -> dict[str, Any]:
    while True:
        message = dict(json.loads(await asyncio.wait_for(socket.recv(), 20)))
        if message.get("seq") == seq:
            return message


async def test_a_hint_with_its_queue_down_is_a_clear_error_and_play_goes_on(
    stack: Stack,
) -> None:
    visitor = Visitor(stack)
    game = visitor.new_game(DEAL)
    async with visitor.socket(f"/ws/games/{game['id']}/") as board:
        assert json.loads(await board.recv())["type"] == "state"

        await board.send(json.dumps({"type": "hint", "seq": 1}))
        answer = await next_reply(board, 1)
        await board.send(json.dumps({"type": "move", "move": "D", "seq": 2}))
        moved = await next_reply(board, 2)

    assert answer == {"type": "error", "seq": 1,
                      "error": "the hint service cannot be reached; try again in a moment"}
    assert moved["type"] == "state" and moved["game"]["state"]["moves"] >= 1
    assert "Traceback" not in (stack.log_dir / "server.log").read_text()
