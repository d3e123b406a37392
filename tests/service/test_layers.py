"""The channel layer that delivers to its own process's sockets directly (tombsite.layers),
on the real Redis: every receiver gets every message, waiting on its buffer or holding
the receive lock (then waiting on Redis), and nothing goes through Redis for a waiter."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tombsite.layers import LocalFirstRedisChannelLayer

from .stack import REDIS_BASE, REDIS_DB, require_services

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def layer() -> AsyncIterator[Any]:
    require_services()
    made = LocalFirstRedisChannelLayer(hosts=[f"{REDIS_BASE}/{REDIS_DB}"],
                                       prefix=f"tomb-layer-test-{secrets.token_hex(3)}")
    yield made
    await made.flush()
    await made.close_pools()


async def receivers(layer: Any, count: int) -> tuple[list[str], list[asyncio.Task[Any]]]:
    names = [await layer.new_channel() for _ in range(count)]
    tasks = [asyncio.ensure_future(layer.receive(name)) for name in names]
    await asyncio.sleep(0.1)  # one holds the receive lock (on Redis), the others wait
    return names, tasks


async def test_every_receiver_gets_a_group_send_the_lock_holder_too(layer: Any) -> None:
    names, tasks = await receivers(layer, 3)
    for name in names:
        await layer.group_add("game", name)
    await layer.group_send("game", {"type": "game.state", "version": 1})
    got = await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert got == [{"type": "game.state", "version": 1}] * 3


async def test_a_send_to_a_waiting_receiver_skips_redis(layer: Any, monkeypatch: Any) -> None:
    names, tasks = await receivers(layer, 3)
    waiting = [name for name in names if layer._takes_locally(name)]
    assert len(waiting) == 2  # all but the lock's holder
    redis_sends: list[str] = []
    original = LocalFirstRedisChannelLayer.__mro__[1].send

    async def counted(self: Any, channel: str, message: dict[str, Any]) -> None:
        redis_sends.append(channel)
        await original(self, channel, message)

    monkeypatch.setattr(LocalFirstRedisChannelLayer.__mro__[1], "send", counted)
    for name in names:
        await layer.send(name, {"type": "game.hint", "to": name})
    got = await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert [message["to"] for message in got] == names
    assert redis_sends == [name for name in names if name not in waiting]
