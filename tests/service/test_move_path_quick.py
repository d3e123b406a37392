"""The quick move on the real stack: a socket's move on PostgreSQL written from the event
loop in one statement (game.actions.amove), and every case it must hand to the locked
path (another writer moved the game, it was closed or changed hands, an illegal move, a
game that ends) answered as before.

Each test drives a real uvicorn over WebSocket and reads the row straight from
PostgreSQL: an acknowledged move is in the row when its answer arrives.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from websockets.asyncio.client import ClientConnection

from .lines import winning_line
from .secrecy import StockWatch
from .stack import Stack, Visitor, started_stack

pytestmark = [pytest.mark.integration, pytest.mark.asyncio]
DEAL = 2
TIMEOUT = 20
# The quick move's statement, as PostgreSQL shows a backend's last one (game.arows).
QUICK_UPDATE = "IS NOT DISTINCT FROM"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with started_stack(tmp_path_factory.mktemp("stack")) as running:
        yield running


@pytest.fixture
def alice(stack: Stack) -> Iterator[Visitor]:
    visitor = Visitor(stack)
    yield visitor
    visitor.close()


async def board(stack: Stack, visitor: Visitor, game_id: str,
                opened: list[ClientConnection]) -> ClientConnection:
    socket = await visitor.socket(f"/ws/games/{game_id}/", TIMEOUT)
    opened.append(socket)
    assert (await receive(socket))["type"] == "state"
    return socket


async def receive(socket: ClientConnection, watch: StockWatch | None = None) -> dict[str, Any]:
    text = await asyncio.wait_for(socket.recv(), TIMEOUT)
    if watch is not None:
        watch.check(text)
    return dict(json.loads(text))


async def play(socket: ClientConnection, move: str, seq: int, **extra: Any) -> dict[str, Any]:
    await socket.send(json.dumps({"type": "move", "move": move, "seq": seq, **extra}))
    return await receive(socket)


def sql(stack: Stack, statement: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(stack.env["DATABASE_URL"], autocommit=True) as connection:
        cursor = connection.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def last_statements(stack: Stack) -> list[str]:
    """Each of the server's database connections' last statement."""
    return [row[0] for row in sql(
        stack, "SELECT query FROM pg_stat_activity WHERE datname = current_database() "
               "AND pid <> pg_backend_pid()")]


async def test_each_acknowledged_move_is_stored_by_one_quick_statement(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"], sockets)
    watch = StockWatch(DEAL)
    line = winning_line(DEAL)[:30]

    for number, move in enumerate(line, 1):
        answer = await play(socket, move, number)
        watch.played(move)
        watch.check(answer)
        assert answer["seq"] == number and answer["version"] == number, answer
        # Acknowledged: in the row already, whatever happens to the server next.
        row = stack.row(game["id"])
        assert row["version"] == number and row["log"] == " ".join(line[:number])

    # The server's last write was the quick UPDATE, not a transaction's SELECT ... FOR
    # UPDATE, UPDATE and COMMIT (whose last statement a connection would show as COMMIT).
    assert any(QUICK_UPDATE in statement and "UPDATE" in statement
               for statement in last_statements(stack))
    after = alice.get(f"/api/games/{game['id']}/").json()
    assert after["version"] == len(line) and after["state"]["log"] == list(line)


async def test_a_move_another_writer_overtook_is_played_on_the_stored_row(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"], sockets)
    assert (await play(socket, "D", 1))["version"] == 1
    # Another server process plays a second D: this one still keeps version 1.
    sql(stack, "UPDATE game_game SET log = 'D D', moves = 2, version = 2 WHERE id = %s",
        game["id"])

    answer = await play(socket, "D", 2)

    assert answer["version"] == 3 and answer["game"]["state"]["log"] == ["D", "D", "D"]
    assert stack.row(game["id"])["log"] == "D D D"


async def test_a_move_on_a_version_left_behind_is_refused_with_the_current_state(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"], sockets)
    await play(socket, "D", 1, version=0)
    sql(stack, "UPDATE game_game SET log = 'D D', moves = 2, version = 2 WHERE id = %s",
        game["id"])

    state = await play(socket, "D", 2, version=1)
    error = await receive(socket)

    assert state["type"] == "state" and state["version"] == 2
    assert error["type"] == "error" and error["code"] == "stale" and error["seq"] == 2
    assert stack.row(game["id"])["version"] == 2


async def test_a_game_closed_meanwhile_takes_no_move(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"], sockets)
    await play(socket, "D", 1)
    # As do_close_games does (a race given up): no new version, only closes_at.
    sql(stack, "UPDATE game_game SET closes_at = now() - interval '1 second' WHERE id = %s",
        game["id"])

    answer = await play(socket, "D", 2)

    assert answer["type"] == "error" and answer["seq"] == 2
    assert stack.row(game["id"])["version"] == 1


async def test_a_game_that_changed_hands_refuses_the_old_socket(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"], sockets)
    await play(socket, "D", 1)
    # As do_adopt_games does for another visitor's session: no new version either.
    sql(stack, "UPDATE game_game SET anon_token = 'someone-else' WHERE id = %s", game["id"])

    answer = await play(socket, "D", 2)

    assert answer["type"] == "error" and "another player" in answer["error"]
    assert stack.row(game["id"])["version"] == 1


async def test_an_illegal_move_changes_nothing_and_play_goes_on(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"], sockets)
    await play(socket, "D", 1)

    refused = await play(socket, "R", 2)  # the stock is not empty: no redeal
    answer = await play(socket, "D", 3)

    assert refused["type"] == "error" and refused["seq"] == 2
    assert answer["version"] == 2 and answer["game"]["state"]["log"] == ["D", "D"]
    assert stack.row(game["id"])["log"] == "D D"


async def test_a_won_game_is_stored_won_with_its_figures(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    socket = await board(stack, alice, game["id"], sockets)
    line = winning_line(DEAL)
    for number, move in enumerate(line, 1):
        answer = await play(socket, move, number)
        assert answer["version"] == number, answer

    assert answer["game"]["status"] == "won"
    row = stack.row(game["id"])
    assert row["status"] == "won" and row["moves"] == len(line) and row["home"] == 52
    stats = sql(stack, "SELECT games, wins FROM game_freeplaystats WHERE anon_token <> ''"
                       " AND variant = 'three-card'")
    assert (1, 1) in stats  # counted once, on the locked path that ended it


async def test_two_boards_of_a_game_stay_in_step_on_quick_moves(
    stack: Stack, alice: Visitor, sockets: list[ClientConnection]
) -> None:
    game = alice.new_game(DEAL)
    first = await board(stack, alice, game["id"], sockets)
    second = await board(stack, alice, game["id"], sockets)
    line = winning_line(DEAL)[:12]

    for number, move in enumerate(line, 1):
        sender = first if number % 3 else second
        await sender.send(json.dumps({"type": "move", "move": move, "seq": number}))
        one, two = await receive(first), await receive(second)
        assert one["version"] == two["version"] == number
        assert one["game"] == two["game"]
        assert ("seq" in one, "seq" in two) == (sender is first, sender is second)
    assert stack.row(game["id"])["log"] == " ".join(line)
