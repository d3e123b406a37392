"""Live play over /ws/games/<id>/ with the in-memory channel layer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from game import consumers
from game.models import Game
from tombsite.asgi import application

from .conftest import EASY_DEAL, Browser
from .lines import winning_line
from .test_any_game import register_fake_game

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture
async def layer() -> AsyncIterator[Any]:
    channel_layer = get_channel_layer()
    yield channel_layer
    await channel_layer.flush()


def headers(browser: Browser | None, origin: str = "http://localhost") -> list[tuple[bytes, bytes]]:
    found = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if browser is not None:
        cookie = "; ".join(f"{key}={value.value}" for key, value in browser.client.cookies.items())
        found.append((b"cookie", cookie.encode()))
    return found


async def open_board(game: dict[str, Any], browser: Browser | None, **kwargs: Any) -> Any:
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game['id']}/", headers=headers(browser, **kwargs)
    )
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_json_from()
    assert first["type"] == "state" and first["game"]["id"] == game["id"]
    return socket


async def new_game(browser: Browser, **kwargs: Any) -> dict[str, Any]:
    return await sync_to_async(browser.new_game)(**kwargs)


async def stored(game_id: str) -> Game:
    return await Game.objects.aget(pk=game_id)


async def test_a_move_is_acknowledged_with_its_seq(alice: Browser, layer: Any) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await socket.send_json_to({"type": "move", "move": "D", "seq": 17})
    reply = await socket.receive_json_from()

    assert (reply["type"], reply["version"], reply["seq"]) == ("state", 1, 17)
    assert reply["game"]["state"]["stock_count"] == 49
    assert (await stored(game["id"])).log == "D"
    await socket.disconnect()


async def test_a_resent_move_is_refused_as_stale_with_the_state(
    alice: Browser, layer: Any
) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await socket.send_json_to({"type": "move", "move": "D", "seq": 1, "version": 0})
    applied = await socket.receive_json_from()
    await socket.send_json_to({"type": "move", "move": "D", "seq": 2, "version": 0})
    state = await socket.receive_json_from()
    refused = await socket.receive_json_from()
    await socket.send_json_to({"type": "undo", "seq": 3, "version": 1})
    undone = await socket.receive_json_from()

    assert (applied["version"], applied["seq"]) == (1, 1)
    assert state["type"] == "state" and state["game"] == applied["game"] and "seq" not in state
    assert (refused["type"], refused["code"], refused["seq"]) == ("error", "stale", 2)
    assert (undone["type"], undone["version"], undone["seq"]) == ("state", 2, 3)
    assert (await stored(game["id"])).log == ""
    await socket.disconnect()


async def test_two_tabs_stay_in_step(alice: Browser, layer: Any) -> None:
    game = await new_game(alice)
    first, second = await open_board(game, alice), await open_board(game, alice)

    seen_first, seen_second = [], []
    for sender in (first, second):
        await sender.send_json_to({"type": "move", "move": "D", "seq": 1})
        seen_first.append(await first.receive_json_from())
        seen_second.append(await second.receive_json_from())
    assert [m["version"] for m in seen_first] == [m["version"] for m in seen_second] == [1, 2]
    assert [m.get("seq") for m in seen_first] == [1, None]
    assert [m.get("seq") for m in seen_second] == [None, 1]
    assert seen_first[1]["game"] == seen_second[1]["game"]
    await first.disconnect()
    await second.disconnect()


async def test_the_sender_gets_its_state_once_and_first(alice: Browser, layer: Any) -> None:
    # The acting socket answers its sender itself; the group's copy is for the others.
    game = await new_game(alice)
    sender, watcher = await open_board(game, alice), await open_board(game, alice)

    await sender.send_json_to({"type": "move", "move": "D", "seq": 1})
    ack = await sender.receive_json_from()
    pushed = await watcher.receive_json_from()

    assert (ack["seq"], ack["version"], pushed["version"]) == (1, 1, 1)
    assert "seq" not in pushed and ack["game"] == pushed["game"]
    assert await sender.receive_nothing()
    assert await watcher.receive_nothing()
    await sender.disconnect()
    await watcher.disconnect()


async def test_a_rest_move_reaches_the_open_board(alice: Browser, layer: Any) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await sync_to_async(alice.move)(game["id"], "D")

    pushed = await socket.receive_json_from()
    assert pushed["version"] == 1 and "seq" not in pushed
    await socket.disconnect()


async def test_an_illegal_move_is_an_error_to_the_sender_only(
    alice: Browser, layer: Any
) -> None:
    game = await new_game(alice)
    sender, watcher = await open_board(game, alice), await open_board(game, alice)

    await sender.send_json_to({"type": "move", "move": "R", "seq": 3})

    assert await sender.receive_json_from() == {
        "type": "error", "error": "the stock is not empty yet: turn it with D", "seq": 3,
    }
    assert await watcher.receive_nothing()
    assert (await stored(game["id"])).version == 0
    await sender.disconnect()
    await watcher.disconnect()


async def test_undo_sync_and_hint(alice: Browser, layer: Any) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await socket.send_json_to({"type": "move", "move": "D", "seq": 1})
    await socket.receive_json_from()
    await socket.send_json_to({"type": "undo", "seq": 2})
    undone = await socket.receive_json_from()
    await socket.send_json_to({"type": "sync", "seq": 3})
    synced = await socket.receive_json_from()
    await socket.send_json_to({"type": "hint", "seq": 4})
    counted = await socket.receive_json_from()
    hinted = await socket.receive_json_from()

    assert (undone["version"], undone["game"]["undos"], undone["seq"]) == (2, 1, 2)
    assert synced["game"] == undone["game"] and synced["seq"] == 3
    assert counted["game"]["hints"] == 1 and counted["seq"] == 4
    assert hinted == {
        "type": "hint", "version": 3,
        "hint": {"move": "D", "verdict": "winnable", "line_length": 97},
    }
    await socket.disconnect()


@pytest.mark.parametrize("message, error", [
    ("{not json", "malformed JSON"),
    ("[1, 2]", 'send a JSON object such as {"type": "sync"}'),
    ('{"type": "resign"}', "unknown type (use move, undo, finish, hint or sync)"),
    ('{"type": "move"}', 'send the move as {"move": "F@tomb"}'),
    ('{"type": "move", "move": "Z"}', "'Z' is not a move"),
    ('{"type": "move", "move": "D", "seq": "x"}', "seq must be a whole number"),
    ('{"type": "move", "move": "D", "seq": 1e300}', "seq must be a whole number"),
    ('{"type": "move", "move": "D", "version": "2"}',
     '"version" must be a whole number from 0 to 2**53'),
    ('{"type": "undo", "version": -1}', '"version" must be a whole number from 0 to 2**53'),
])
async def test_hostile_messages_get_an_error_and_the_socket_stays(
    alice: Browser, layer: Any, message: str, error: str
) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await socket.send_to(text_data=message)
    reply = await socket.receive_json_from()
    assert reply["type"] == "error" and error in reply["error"]

    await socket.send_json_to({"type": "sync"})
    assert (await socket.receive_json_from())["type"] == "state"
    await socket.disconnect()


async def test_an_oversized_message_closes_the_socket(alice: Browser, layer: Any) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await socket.send_to(text_data=json.dumps({"type": "move", "move": "D" * 5000}))

    assert (await socket.receive_json_from())["type"] == "error"
    assert (await socket.receive_output())["type"] == "websocket.close"
    assert (await stored(game["id"])).version == 0


async def test_binary_frames_are_refused(alice: Browser, layer: Any) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)
    await socket.send_to(bytes_data=b"\x00\x01")
    assert (await socket.receive_json_from())["error"] == "send JSON text, not binary frames"
    await socket.disconnect()


async def test_a_flood_is_slowed_then_closed(
    alice: Browser, layer: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.WS_BURST, settings.WS_RATE_PER_SECOND = 3, 0.001
    monkeypatch.setattr(consumers, "STRIKES_BEFORE_CLOSE", 2)
    game = await new_game(alice)
    socket = await open_board(game, alice)

    for _ in range(5):
        await socket.send_to(text_data="{}")
    replies = [await socket.receive_output() for _ in range(5)]

    errors = [json.loads(reply["text"])["error"] for reply in replies[:4]]
    assert errors[3] == "too many messages: slow down"
    assert replies[4] == {"type": "websocket.close", "code": consumers.CLOSE_POLICY}


async def test_another_player_cannot_connect(alice: Browser, bob: Browser, layer: Any) -> None:
    game = await new_game(alice)
    await sync_to_async(bob.csrf)()  # bob has a session, just not this game

    for browser in (bob, None):
        socket = WebsocketCommunicator(
            application, f"/ws/games/{game['id']}/", headers=headers(browser)
        )
        connected, code = await socket.connect()
        assert not connected and code == consumers.CLOSE_NOT_ALLOWED


async def test_an_unknown_game_cannot_be_opened(alice: Browser, layer: Any) -> None:
    await sync_to_async(alice.csrf)()
    socket = WebsocketCommunicator(
        application, "/ws/games/00000000-0000-0000-0000-000000000000/", headers=headers(alice)
    )
    connected, _ = await socket.connect()
    assert not connected


@pytest.mark.parametrize("origin", [
    "https://evil.example",
    "http://localhost:8001",  # another port of the same host
    "https://localhost",  # another scheme
    "http://localhost.evil.example",
    "null",
])
async def test_a_foreign_origin_is_refused(alice: Browser, layer: Any, origin: str) -> None:
    game = await new_game(alice)
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game['id']}/", headers=headers(alice, origin)
    )
    connected, _ = await socket.connect()
    assert not connected


async def test_an_origin_in_csrf_trusted_origins_is_let_in(
    alice: Browser, layer: Any, settings: Any
) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    game = await new_game(alice)
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game['id']}/", headers=headers(alice, "https://play.example.org")
    )
    connected, _ = await socket.connect()
    assert connected
    await socket.disconnect()


async def test_a_frame_nested_too_deep_gets_an_error_and_the_socket_stays(
    alice: Browser, layer: Any
) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await socket.send_to(text_data="[" * 400 + "]" * 400)  # deep enough to overflow a recursion
    assert (await socket.receive_json_from())["error"] == "JSON nested more than 16 levels deep"
    await socket.send_to(text_data="[" * 2000 + "]" * 2000)
    refused = await socket.receive_json_from()
    await socket.send_json_to({"type": "sync", "seq": 1})
    synced = await socket.receive_json_from()

    assert refused == {"type": "error", "error": "JSON nested more than 16 levels deep"}
    assert synced["type"] == "state" and synced["seq"] == 1
    await socket.disconnect()


async def test_socket_hints_share_the_rest_allowance(
    alice: Browser, layer: Any, settings: Any
) -> None:
    settings.HINT_RATE = "1/minute"
    game = await new_game(alice)
    assert (await sync_to_async(alice.post)(f"/api/games/{game['id']}/hint/")).status_code == 200
    socket = await open_board(game, alice)

    await socket.send_json_to({"type": "hint", "seq": 1})
    refused = await socket.receive_json_from()

    assert refused["type"] == "error" and refused["seq"] == 1
    assert refused["error"].startswith("too many hints: try again in")
    assert (await sync_to_async(Game.objects.get)()).hints == 1
    await socket.disconnect()


async def test_a_game_registered_later_is_played_live_with_its_table_and_names(
    alice: Browser, layer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_fake_game(monkeypatch)
    game = await new_game(alice, variant="fake-three")
    socket = await open_board(game, alice)

    for seq, move in enumerate(winning_line(EASY_DEAL)[:30], start=1):
        await socket.send_json_to({"type": "move", "move": move, "seq": seq})
        reply = await socket.receive_json_from()
        assert (reply["type"], reply["seq"]) == ("state", seq), reply

    state = reply["game"]
    assert (state["game"]["slug"], state["variant"]["slug"]) == ("fake-tomb", "fake-three")
    assert [pile["name"] for pile in state["table"]["piles"]] == ["stock", "waste"]
    assert (await stored(game["id"])).log == " ".join(winning_line(EASY_DEAL)[:30])
    await socket.disconnect()
