"""The game's socket speaks the player's language (issue 16, round 2): the language found
as it connects names the game in the state and words the errors it sends."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Browser
from .test_consumers import layer, new_game, open_board  # noqa: F401  (layer: a fixture)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("code", "name", "error"), [
    ("en", "Napoleon's Tomb", "malformed JSON"),
    ("ru", "Гробница Наполеона", "некорректный JSON"),
    ("fi", "Napoleonin hauta", "virheellinen JSON"),
])
async def test_a_socket_names_the_game_and_words_its_errors_in_the_cookie_s_language(
        alice: Browser, layer: Any, code: str, name: str, error: str) -> None:  # noqa: F811
    game = await new_game(alice)
    alice.client.cookies["django_language"] = code
    socket = await open_board(game, alice)

    await socket.send_json_to({"type": "sync"})
    state = await socket.receive_json_from()
    await socket.send_to(text_data="{not json")
    reply = await socket.receive_json_from()

    assert state["game"]["game"]["name"] == name
    assert reply == {"type": "error", "error": error}
    await socket.disconnect()
