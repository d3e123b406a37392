"""The quick move's write allowance (game.limits.awrite_wait) on the Redis the cache
names, whatever way its URL names the database (review of issue 28's move path).

REST counts writes through Django's cache (redis-py); a socket's quick move counts them
with game.resp's own client. Both must count on the same keys of the same database, or
a player gets the allowance twice over. redis-py reads the database from the URL's path
or from its query (``?db=3``); game.resp reads only the path, so a URL with a query goes
through redis-py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game import limits
from game.actions import Player

from .redis_server import OwnRedis

pytestmark = pytest.mark.integration
GAME_ID = "8a1f0c52-4f7e-4c1b-9a53-0d6f3b0e2a11"


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnRedis]:
    server = OwnRedis(Path(tmp_path_factory.mktemp("redis")))
    server.start()
    yield server
    server.kill()


@pytest.mark.parametrize("database", ["/3", "?db=3"])
def test_rest_and_the_socket_share_one_allowance(
    own_redis: OwnRedis, settings: Any, database: str
) -> None:
    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{own_redis.port}{database}",
        "KEY_PREFIX": f"review{database}"}}
    settings.WS_BURST, settings.WS_RATE_PER_SECOND = 2, 0.001  # a window of ~2000 s
    player = Player(anon_token=f"visitor{database}")

    over_rest = [limits.write_wait(player, GAME_ID) for _ in range(2)]
    on_the_socket = asyncio.run(limits.awrite_wait(player, GAME_ID))

    assert over_rest == [0, 0]
    assert on_the_socket > 1000  # the window REST opened, past its two writes
