"""The quick move when its statement fails (review of issue 28's move path).

A connection of the quick move's pool can break under it: PostgreSQL restarted, or a
backend was ended, while the connection sat idle. Its statement then fails without
having run, and every move of that batch, for every game in it, used to fail with "the
server failed". The locked path (a fresh connection) can still store the move: it is
played there, on the version it was played on, so a statement that did commit before
its answer was lost is refused as stale (with the stored state), never played twice.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from websockets.asyncio.client import ClientConnection

from .stack import Stack, Visitor, started_stack
from .test_move_path_quick import DEAL, QUICK_UPDATE, board, play, sql

pytestmark = [pytest.mark.integration, pytest.mark.asyncio]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with started_stack(tmp_path_factory.mktemp("stack")) as running:
        yield running


@pytest.fixture
def alice(stack: Stack) -> Iterator[Visitor]:
    visitor = Visitor(stack)
    yield visitor
    visitor.close()


def end_quick_connections(stack: Stack) -> int:
    """End the server's idle connections whose last statement was the quick UPDATE."""
    ended = sql(stack, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                       "AND query LIKE %s", f"%{QUICK_UPDATE}%")
    return len(ended)


@pytest.mark.parametrize("version", [None, 1])
async def test_a_move_whose_connection_broke_is_still_stored(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection], version: int | None
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"], sockets)
    assert (await play(socket, "D", 1))["version"] == 1  # quick: the pool has a connection
    assert end_quick_connections(stack) >= 1

    extra = {} if version is None else {"version": version}
    answer = await play(socket, "D", 2, **extra)

    assert answer["type"] == "state", answer
    assert answer["version"] == 2 and answer["game"]["state"]["log"] == ["D", "D"]
    assert stack.row(game["id"])["log"] == "D D"
    # And play goes on quickly, on a new connection.
    assert (await play(socket, "D", 3))["version"] == 3
    assert stack.row(game["id"])["version"] == 3
