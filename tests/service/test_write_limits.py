"""Writes to a game (a new game, moves, undos, a finish) are limited per game and per
player, over REST and the socket alike, with one allowance shared by both (game.limits).

Each test sets the allowance low and the refill so slow (WS_RATE_PER_SECOND) that the
window outlasts the test: what is refused is refused for the allowance, never the clock.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.core.cache import cache

from accounts.rates import Rate
from game import limits
from game.models import Game

from .conftest import Browser
from .test_consumers import layer, new_game, open_board  # noqa: F401  # layer: a fixture

SLOW_REFILL = 0.001  # writes a second: a window of thousands of seconds


def allow(settings: Any, writes: int) -> None:
    settings.WS_BURST, settings.WS_RATE_PER_SECOND = writes, SLOW_REFILL


def stored(game_id: str) -> tuple[int, str, int, int]:
    game = Game.objects.get(pk=game_id)
    return game.version, game.log, game.moves, game.undos


def test_a_rest_burst_past_the_allowance_is_refused_and_changes_nothing(
    alice: Browser, settings: Any, sent: list[dict[str, Any]]
) -> None:
    allow(settings, 4)  # the new game and three moves
    game = alice.new_game()
    played = [alice.move(game["id"], "D") for _ in range(3)]
    before, heard = stored(game["id"]), len(sent)

    refused = [alice.move(game["id"], "D"), alice.post(f"/api/games/{game['id']}/undo/"),
               alice.post(f"/api/games/{game['id']}/finish/"), alice.post("/api/games/", {})]

    assert [answer.status_code for answer in played] == [200, 200, 200]
    assert [answer.status_code for answer in refused] == [429, 429, 429, 429]
    wait = int(refused[0].headers["Retry-After"])
    assert wait > 1000  # the window's end, from the slow refill
    assert refused[0].json() == {"error": f"too many moves: try again in {wait} seconds"}
    assert stored(game["id"]) == before and len(sent) == heard  # no write, no event
    assert Game.objects.count() == 1


def test_a_malformed_move_is_refused_before_it_spends_the_allowance(
    alice: Browser, settings: Any
) -> None:
    allow(settings, 2)
    game = alice.new_game()

    assert alice.post(f"/api/games/{game['id']}/moves/", {"move": ""}).status_code == 400
    assert alice.move(game["id"], "D").status_code == 200


def test_the_allowance_is_the_player_s_over_all_their_games(
    alice: Browser, bob: Browser, settings: Any
) -> None:
    allow(settings, 3)
    first, second = alice.new_game(), alice.new_game()
    assert alice.move(first["id"], "D").status_code == 200

    assert alice.move(second["id"], "D").status_code == 429  # alice's fourth write
    theirs = bob.new_game()
    assert bob.move(theirs["id"], "D").status_code == 200  # bob's allowance is his own


def test_the_game_keeps_its_allowance_when_its_player_comes_back_logged_in(
    carol: User, settings: Any
) -> None:
    """A visitor's game adopted at log-in is the same game: its count goes on (the
    player's allowance is new, so only the game's can refuse here)."""
    allow(settings, 3)
    browser = Browser()
    game = browser.new_game()
    assert [browser.move(game["id"], "D").status_code for _ in range(2)] == [200, 200]
    logged_in = browser.client.post("/accounts/login/", {
        "username": "carol", "password": "tomb-of-the-emperor"}, HTTP_X_CSRFTOKEN=browser.csrf())
    assert logged_in.status_code == 302 and Game.objects.get().owner == carol

    assert browser.move(game["id"], "D").status_code == 200  # the game's third
    assert browser.move(game["id"], "D").status_code == 429


def test_a_failing_cache_lets_writes_through(
    alice: Browser, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    allow(settings, 1)

    def down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(cache, "add", down)
    game = alice.new_game()

    assert [alice.move(game["id"], "D").status_code for _ in range(3)] == [200, 200, 200]


def test_the_wait_counts_down_to_the_window_s_end(alice: Browser, settings: Any) -> None:
    settings.WS_BURST, settings.WS_RATE_PER_SECOND = 2, 1.0  # two writes per 2 seconds
    game = alice.new_game()
    alice.move(game["id"], "D")

    refused = alice.move(game["id"], "D")

    assert refused.status_code == 429 and refused.headers["Retry-After"] in ("1", "2")
    assert limits.write_rate() == Rate(2, 2)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_socket_and_rest_moves_share_one_allowance(
    alice: Browser, layer: Any, settings: Any  # noqa: F811
) -> None:
    allow(settings, 5)  # the new game, two moves on the board, two over REST
    game = await new_game(alice)
    board = await open_board(game, alice)
    for seq in (1, 2):
        await board.send_json_to({"type": "move", "move": "D", "seq": seq})
        assert (await board.receive_json_from())["seq"] == seq
    move = sync_to_async(alice.move)

    over_rest = [(await move(game["id"], "D")).status_code for _ in range(3)]
    await board.receive_json_from()  # the REST moves' states reach the board: drain them
    await board.receive_json_from()
    await board.send_json_to({"type": "undo", "seq": 3})
    refused = await board.receive_json_from()

    assert over_rest == [200, 200, 429]
    assert refused["type"] == "error" and refused["seq"] == 3
    assert refused["error"].startswith("too many moves: try again in")
    assert (await Game.objects.aget(pk=game["id"])).version == 4
    await board.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_second_board_gets_no_allowance_of_its_own(
    alice: Browser, layer: Any, settings: Any  # noqa: F811
) -> None:
    allow(settings, 3)  # the new game and two moves, whichever board sends them
    game = await new_game(alice)
    first, second = await open_board(game, alice), await open_board(game, alice)

    answers = []
    for seq, board in enumerate((first, second, second), start=1):
        await board.send_json_to({"type": "move", "move": "D", "seq": seq})
        answers.append(await until_answer(board, seq))

    assert [answer["type"] for answer in answers] == ["state", "state", "error"]
    await first.disconnect()
    await second.disconnect()


async def until_answer(board: Any, seq: int) -> dict[str, Any]:
    """The answer to ``seq``, past the states the other board's moves sent this one."""
    while True:
        message = await board.receive_json_from()
        if message.get("seq") == seq:
            return dict(message)

