"""A race room over /ws/races/<code>/ with the in-memory channel layer, one socket at a
time (the in-memory SQLite database takes one writer: the room's whole life with
several sockets is played over the real stack, test_races_integration)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from races import consumers
from tombsite.asgi import application

from .conftest import Browser
from .test_consumers import headers
from .test_races import act, open_room, room_of

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture
async def layer() -> AsyncIterator[Any]:
    channel_layer = get_channel_layer()
    yield channel_layer
    await channel_layer.flush()


@pytest.fixture(autouse=True)
def quick(settings: Any) -> None:
    settings.RACE_SCREEN_BUDGET_SECONDS = 2.0


async def watch(code: str, browser: Browser | None) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, f"/ws/races/{code}/", headers=headers(browser))
    connected, _ = await socket.connect()
    assert connected
    return socket


async def next_of(socket: WebsocketCommunicator, kind: str, **wanted: Any) -> dict[str, Any]:
    """The next message of a kind (and with the wanted fields); earlier ones are skipped."""
    while True:
        message = json.loads(await socket.receive_from(timeout=5))
        if message["type"] == kind and all(message.get(key) == value
                                           for key, value in wanted.items()):
            return dict(message)


def present(room: dict[str, Any]) -> dict[str, bool]:
    return {player["name"]: player["present"] for player in room["players"]}


async def test_an_unknown_room_closes_the_socket(db: Any) -> None:
    socket = WebsocketCommunicator(application, "/ws/races/nothing-here/", headers=headers(None))
    connected, code = await socket.connect()
    assert not connected and code == consumers.CLOSE_NOT_FOUND


async def test_the_socket_ends_the_race_at_its_time_limit(
    carol_browser: Browser, dave_browser: Browser, layer: Any, settings: Any
) -> None:
    code = (await sync_to_async(open_room)(carol_browser))["code"]
    await sync_to_async(act)(dave_browser, code, "join")
    await sync_to_async(act)(dave_browser, code, "ready", {"ready": True})
    settings.RACE_COUNTDOWN_SECONDS = 0.0
    await sync_to_async(act)(carol_browser, code, "start")
    from races.models import Race

    # A race a second long: the room's own timer ends it, with no read and no worker.
    await sync_to_async(
        lambda: Race.objects.filter(code=code).update(ends_at=Race.objects.get(
            code=code).starts_at + __import__("datetime").timedelta(seconds=1)))()
    carols = await watch(code, carol_browser)
    over = await next_of(carols, "room", state="finished")
    assert {player["status"] for player in over["players"]} == {"out-of-time"}
    await carols.disconnect()


async def test_the_socket_ignores_garbage_and_rate_limits_syncs(
    carol_browser: Browser, layer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = (await sync_to_async(open_room)(carol_browser))["code"]
    socket = await watch(code, carol_browser)
    await next_of(socket, "room")
    await next_of(socket, "room")  # its own arrival, heard through the group
    for garbage in ("not json", "[" * 3000 + "]" * 3000, json.dumps({"type": "move"})):
        await socket.send_to(text_data=garbage)
    monkeypatch.setattr(consumers.RaceConsumer, "SYNC_INTERVAL", 0.0)
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await next_of(socket, "room"))["code"] == code
    monkeypatch.setattr(consumers.RaceConsumer, "SYNC_INTERVAL", 60.0)
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()


async def test_a_lobby_left_empty_closes(
    carol_browser: Browser, layer: Any, settings: Any
) -> None:
    settings.RACE_LOBBY_EMPTY_SECONDS = 0.2
    code = (await sync_to_async(open_room)(carol_browser))["code"]
    socket = await watch(code, carol_browser)
    await next_of(socket, "room")
    await socket.disconnect()
    assert (await sync_to_async(room_of)(carol_browser, code))["state"] == "lobby"
    await asyncio.sleep(0.3)
    assert (await sync_to_async(room_of)(carol_browser, code))["state"] == "closed"


async def test_a_layer_that_fails_closes_the_socket_to_try_again(
    carol_browser: Browser, layer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = (await sync_to_async(open_room)(carol_browser))["code"]

    async def down(*args: Any) -> None:
        raise ConnectionError("Redis is restarting")

    monkeypatch.setattr(type(layer), "group_add", down)
    socket = WebsocketCommunicator(application, f"/ws/races/{code}/",
                                   headers=headers(carol_browser))
    connected, _ = await socket.connect()
    assert connected
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_TRY_AGAIN}


async def test_moves_over_a_board_reach_the_room_coalesced_and_before_its_end(
    carol_browser: Browser, dave_browser: Browser, layer: Any, settings: Any
) -> None:
    from .test_races import line_of

    settings.RACE_COUNTDOWN_SECONDS = 0.0
    settings.RACE_PROGRESS_INTERVAL = 2.0  # far longer than the moves: batches, surely
    settings.WS_RATE_PER_SECOND, settings.WS_BURST = 1000, 1000
    code = (await sync_to_async(open_room)(carol_browser))["code"]
    await sync_to_async(act)(dave_browser, code, "join")
    await sync_to_async(act)(dave_browser, code, "ready", {"ready": True})
    await sync_to_async(act)(carol_browser, code, "start")
    await sync_to_async(act)(carol_browser, code, "give-up")  # dave's win ends the race
    daves = await sync_to_async(room_of)(dave_browser, code)
    line = await sync_to_async(line_of)(code)
    carols = await watch(code, carol_browser)
    await next_of(carols, "room", state="running")
    board = WebsocketCommunicator(application, f"/ws/games/{daves['me']['game']}/",
                                  headers=headers(dave_browser))
    assert (await board.connect())[0]
    await board.receive_json_from(timeout=5)  # the whole game first
    for seq, move in enumerate(line, start=1):  # as fast as the answers come
        await board.send_json_to({"type": "move", "move": move, "seq": seq})
        answer = await board.receive_json_from(timeout=5)
        assert answer.get("seq") == seq, answer
    frames: list[dict[str, Any]] = []
    while (message := json.loads(await carols.receive_from(timeout=5)))["type"] != "room" \
            or message["state"] != "finished":
        frames.append(message)
    progress = [frame for frame in frames if frame["type"] == "progress"]
    assert 1 <= len(progress) < len(line)  # latest figures per batch, not one a move
    assert [frame["moves"] for frame in progress] == sorted(frame["moves"] for frame in progress)
    assert progress[-1] == {"type": "progress", "player": daves["me"]["id"], "home": 52,
                            "moves": len(line), "status": "won",
                            "time_ms": progress[-1]["time_ms"]}
    await board.disconnect()
    await carols.disconnect()
