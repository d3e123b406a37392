"""Free-play counting under simultaneous requests, on the real PostgreSQL and uvicorn.

Six copies of a game's winning move and six new deals that each abandon the same
started game arrive at one instant: the game's row lock makes each game count once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import psycopg
import pytest

from .lines import winning_line
from .stack import Stack, Visitor, started_stack

pytestmark = pytest.mark.integration
DEAL = 2


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with started_stack(tmp_path_factory.mktemp("stack")) as running:
        yield running


def at_once(visitor: Visitor, send: Callable[[httpx.Client], httpx.Response],
            times: int = 6) -> list[int]:
    """``times`` requests as the visitor, released together; their status codes."""
    barrier = threading.Barrier(times)
    codes: list[int] = []

    def one() -> None:
        with httpx.Client(base_url=visitor.stack.base_url, cookies=visitor.http.cookies,
                          headers={"X-CSRFToken": visitor.token}, timeout=60) as client:
            barrier.wait()
            codes.append(send(client).status_code)

    threads = [threading.Thread(target=one) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    return sorted(codes)


def figures(stack: Stack) -> list[tuple[Any, ...]]:
    with psycopg.connect(stack.env["DATABASE_URL"]) as connection:
        return connection.execute(
            "SELECT variant, games, wins, streak FROM game_freeplaystats").fetchall()


def test_simultaneous_requests_count_each_game_once(stack: Stack) -> None:
    visitor = Visitor(stack)
    line = winning_line(DEAL)
    game = visitor.new_game(DEAL)
    for move in line[:-1]:
        assert visitor.post(f"/api/games/{game['id']}/moves/", {"move": move}).status_code == 200

    won = at_once(visitor, lambda client: client.post(
        f"/api/games/{game['id']}/moves/", json={"move": line[-1]}))

    assert won == [200] + [409] * 5
    assert figures(stack) == [("three-card", 1, 1, 1)]

    started = visitor.new_game(3)
    assert visitor.post(f"/api/games/{started['id']}/moves/", {"move": "D"}).status_code == 200
    dealt = at_once(visitor, lambda client: client.post(
        "/api/games/", json={"variant": "three-card", "deal": 4}))

    assert dealt == [201] * 6
    assert figures(stack) == [("three-card", 2, 1, 0)]  # the started game, abandoned once
    visitor.close()
