"""game.resp's client reconnects after its connection is lost, even when the connect
before took longer than a call waits (review of issue 28's move path).

A call that gives up while the client connects leaves the connect running, and the
connection it makes is used by the next calls. Once that connection is lost, the next
call must connect again: it used to be handed the lost connection (the finished connect
was never forgotten) and wait out its timeout for a reply that could not come, a quick
move's allowance failing after that wait.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from game import resp

from .redis_server import OwnRedis

pytestmark = pytest.mark.integration
TIMEOUT = 0.5  # seconds a call waits


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.kill()


def test_a_call_after_a_lost_connection_connects_again(own_redis: OwnRedis) -> None:
    admin = redis.Redis(port=own_redis.port)

    async def run() -> tuple[str, bytes, float]:
        client = resp.Client(f"redis://127.0.0.1:{own_redis.port}/1", TIMEOUT)
        admin.execute_command("CLIENT", "PAUSE", int(TIMEOUT * 3000), "ALL")  # SELECT waits
        try:
            await client.call(resp.command("PING"))
            first = "answered"
        except resp.RedisError as error:
            first = str(error)
        await asyncio.sleep(TIMEOUT * 3 + 0.2)  # the pause ends: the connect completes
        assert await client.call(resp.command("CLIENT", "SETNAME", "review")) == b"OK"
        admin.execute_command("CLIENT", "KILL", "USER", "default", "SKIPME", "yes")
        await asyncio.sleep(0.1)
        started = time.monotonic()
        answer = await client.call(resp.command("PING"))
        return first, answer, time.monotonic() - started

    first, answer, took = asyncio.run(run())

    assert first == "Redis did not answer in time"
    assert answer == b"PONG" and took < TIMEOUT / 2
