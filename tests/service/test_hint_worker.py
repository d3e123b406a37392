"""A hint whose worker is killed mid-flight is never lost silently.

The real stack on a Redis of its own (a short visibility timeout affects every
worker sharing the broker's "unacked" set, so it must not touch the shared
Redis): the board asks for a hint, the worker is SIGKILLed (with its pool
children) while the solver runs, and the board gets the clear error after
HINT_TIMEOUT_SECONDS; a new worker then takes the redelivered task (late ack,
visibility timeout) and the board gets the hint after all, counted once.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection

from .hint_worker_solver import started_marker
from .redis_server import OwnRedis
from .stack import Stack, Visitor, require_services

pytestmark = [pytest.mark.integration, pytest.mark.asyncio]
DEAL = 2
HINT_TIMEOUT_SECONDS = 4
VISIBILITY_SECONDS = 2


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_services()
    server = OwnRedis(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server.url
    finally:
        server.kill()


@pytest.fixture(scope="module")
def stack(own_redis: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = Stack(tmp_path_factory.mktemp("stack"))
    running.env.update(
        REDIS_URL=own_redis,
        HINT_SOLVER="service.hint_worker_solver:hint",
        HINT_WORKER_DIR=str(running.log_dir),
        HINT_TIMEOUT_SECONDS=str(HINT_TIMEOUT_SECONDS),
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_SECONDS),
        CELERY_RESTORE_INTERVAL="1",
    )
    try:
        running.start()
        yield running
    finally:
        running.stop()


async def receive(socket: ClientConnection, timeout: float) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(socket.recv(), timeout)))


async def wait_for(path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, "the hint task never started"
        await asyncio.sleep(0.1)


@asynccontextmanager
async def a_board_asking_for_a_hint(
    stack: Stack,
) -> AsyncIterator[tuple[dict[str, Any], ClientConnection, dict[str, Any]]]:
    """A new game's board that has asked for a hint: (game, socket, the counted state)."""
    visitor = Visitor(stack)
    game = visitor.new_game(DEAL)
    socket = await visitor.socket(f"/ws/games/{game['id']}/")
    try:
        assert (await receive(socket, 20))["type"] == "state"
        await socket.send(json.dumps({"type": "hint", "seq": 1}))
        yield game, socket, await receive(socket, 20)
    finally:
        await socket.close()
        visitor.close()


async def test_a_hint_lost_with_its_worker_is_an_error_then_redelivered(stack: Stack) -> None:
    async with a_board_asking_for_a_hint(stack) as (game, socket, counted):
        await wait_for(started_marker(stack.log_dir), 20)  # the worker is inside the solver now

        stack.kill("worker", signal.SIGKILL)  # the worker and its pool, no warm shutdown
        asked = time.monotonic()
        error = await receive(socket, HINT_TIMEOUT_SECONDS + 5)
        waited = time.monotonic() - asked

        assert error == {"type": "hint", "error": "the hint service did not answer; try again",
                         "seq": 1}
        assert waited < HINT_TIMEOUT_SECONDS + 2
        # The board still plays while no worker runs.
        await socket.send(json.dumps({"type": "sync", "seq": 2}))
        assert (await receive(socket, 10))["seq"] == 2

        stack.restart_worker()
        answer = await receive(socket, VISIBILITY_SECONDS + 30)

        assert answer["type"] == "hint" and answer["version"] == counted["version"]
        assert answer["hint"]["move"] == "D"  # the only legal move at the start
        assert stack.row(game["id"])["hints"] == 1  # redelivery asked the solver, not a hint


def start_prefork_worker(stack: Stack, marker_dir: Path) -> None:
    """The production pool (docker-compose's worker): a main process and a solver child."""
    stack.env["HINT_WORKER_DIR"] = str(marker_dir)
    # An hour-long visibility timeout: an answer within seconds can only come from
    # the immediate requeue of reject_on_worker_lost, not from the broker's restore.
    stack.env["CELERY_VISIBILITY_TIMEOUT"] = "3600"
    stack.restart_worker(pool="prefork")


async def test_a_hint_whose_pool_child_dies_is_requeued_at_once(
    stack: Stack, tmp_path: Path
) -> None:
    start_prefork_worker(stack, tmp_path)
    async with a_board_asking_for_a_hint(stack) as (game, socket, counted):
        marker = started_marker(tmp_path)
        await wait_for(marker, 20)

        os.kill(int(marker.read_text()), signal.SIGKILL)  # the child only: the main survives
        killed = time.monotonic()
        answer = await receive(socket, 30)
        if "error" in answer:  # the board's timer, counted from the ask, may ring first
            answer = await receive(socket, 30)

        # reject_on_worker_lost: requeued at once and answered by the worker's new child.
        assert answer["type"] == "hint" and answer["version"] == counted["version"]
        assert answer["hint"]["move"] == "D"
        assert time.monotonic() - killed < 20
        assert b"WorkerLostError" in (stack.log_dir / "worker.log").read_bytes()
        assert stack.row(game["id"])["hints"] == 1
