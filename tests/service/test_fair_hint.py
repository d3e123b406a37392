"""The fair hint: the sampling player's move from what the player has seen, over REST
and the socket, counted like the solver's hint and carrying no card."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from patience.tomb import parse_move

from .conftest import Browser
from .test_consumers import layer, new_game, open_board  # noqa: F401  (fixture and helpers)

CARD_LIKE = tuple(f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "CDHS")


@pytest.fixture(autouse=True)
def quick_fair_hint(settings: Any) -> None:
    settings.FAIR_HINT_BUDGET_SECONDS = 0.4  # the hint's quality is the solver tests' business


def assert_fair(hint: dict[str, Any]) -> None:
    assert hint["fair"] is True and 0 <= hint["chance"] <= 1
    assert set(hint) == {"move", "verdict", "line_length", "fair", "chance"}
    assert hint["move"] is None or parse_move(hint["move"]).notation == hint["move"]
    assert hint["verdict"] in ("winnable", "lost", "unknown")


def test_a_fair_hint_over_rest_is_counted_and_names_no_card(alice: Browser) -> None:
    game = alice.new_game()
    for move in ("D", "D"):
        alice.move(game["id"], move)

    response = alice.post(f"/api/games/{game['id']}/hint/", {"fair": True})

    assert response.status_code == 200
    answer = response.json()
    assert answer["hints"] == 1
    assert_fair(answer["hint"])
    assert answer["hint"]["move"] in answer["state"]["legal"]
    hint_text = str(answer["hint"])
    assert not any(card in hint_text for card in CARD_LIKE)


def test_the_solver_hint_is_still_the_default(alice: Browser) -> None:
    game = alice.new_game()
    for body in (None, {}, {"fair": False}):
        hint = alice.post(f"/api/games/{game['id']}/hint/", body).json()["hint"]
        assert hint == {"move": "D", "verdict": "winnable", "line_length": 97}


@pytest.mark.parametrize("body", [{"fair": "yes"}, {"fair": 1}, {"fair": None}, [True]])
def test_a_bad_fair_flag_is_refused_and_counts_nothing(alice: Browser, body: Any) -> None:
    game = alice.new_game()

    response = alice.post(f"/api/games/{game['id']}/hint/", body)

    assert response.status_code == 400 and "error" in response.json()
    assert alice.get(f"/api/games/{game['id']}/").json()["hints"] == 0


def test_the_schema_describes_the_fair_flag(alice: Browser) -> None:
    schema = alice.get("/api/schema/?format=json").json()
    hint_post = schema["paths"]["/api/games/{game_id}/hint/"]["post"]
    assert "requestBody" in hint_post
    components = schema["components"]["schemas"]
    assert "fair" in components["HintRequest"]["properties"]
    assert {"fair", "chance"} <= set(components["Hint"]["properties"])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_fair_hint_over_the_socket(alice: Browser, layer: Any) -> None:  # noqa: F811
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await socket.send_json_to({"type": "hint", "fair": True, "seq": 1})
    counted = await socket.receive_json_from(timeout=10)
    hinted = await socket.receive_json_from(timeout=10)

    assert counted["seq"] == 1 and counted["game"]["hints"] == 1
    assert hinted["type"] == "hint" and hinted["version"] == counted["version"]
    assert_fair(hinted["hint"])
    assert hinted["hint"]["move"] == "D"  # nothing else is legal at the start
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_bad_fair_flag_on_the_socket_is_an_error(
    alice: Browser, layer: Any,  # noqa: F811
) -> None:
    game = await new_game(alice)
    socket = await open_board(game, alice)

    await socket.send_json_to({"type": "hint", "fair": "please", "seq": 2})

    assert await socket.receive_json_from() == {
        "type": "error", "error": '"fair" must be true or false', "seq": 2,
    }
    stored = await sync_to_async(alice.get)(f"/api/games/{game['id']}/")
    assert stored.json()["hints"] == 0
    await socket.disconnect()
