"""Finish: the rest of a game played in one versioned write once it plays itself,
over REST and the socket, in free play and in a ranked daily; the play page knows
which games can be resumed."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User

from leaderboards.models import Attempt, Daily
from patience.tomb import THREE_CARD, Position, can_finish, deal_from_seed, new_game, parse_move

from .conftest import EASY_DEAL, Browser
from .lines import seeded_line, winning_line
from .test_consumers import layer, open_board  # noqa: F401  (a fixture, and a helper)
from .test_ranked_attempts import PLAY, play_line


def until_finish(line: tuple[str, ...], position: Position | None = None) -> int:
    """How many moves of a winning line come before the rest plays itself."""
    position = position or new_game(EASY_DEAL, "three-card")
    for count, move in enumerate(line):
        if can_finish(position):
            return count
        position.apply(parse_move(move))
    raise AssertionError("a won line always ends in a finish")


def test_finish_plays_the_rest_of_a_free_game_in_one_write(alice: Browser) -> None:
    line = winning_line(EASY_DEAL)
    cut = until_finish(line)
    game = alice.new_game(EASY_DEAL)
    early = play_line(alice, game["id"], line[: cut - 1])
    assert early["can_finish"] is False
    refused = alice.post(f"/api/games/{game['id']}/finish/")
    assert refused.status_code == 409 and "does not play itself" in refused.json()["error"]

    ready = play_line(alice, game["id"], line[cut - 1: cut])
    assert ready["can_finish"] is True and ready["status"] == "playing"
    stale = alice.post(f"/api/games/{game['id']}/finish/", {"version": ready["version"] - 1})
    assert stale.status_code == 409 and stale.json()["code"] == "stale"

    done = alice.post(f"/api/games/{game['id']}/finish/", {"version": ready["version"]})
    assert done.status_code == 200, done.content
    won = done.json()
    assert (won["status"], won["home"], won["version"]) == ("won", 52, ready["version"] + 1)
    assert won["moves"] == ready["moves"] + len(ready["state"]["waste"])  # one F per waste card
    assert won["can_finish"] is False
    assert all(move.startswith("F@") for move in won["state"]["log"][cut:])
    again = alice.post(f"/api/games/{game['id']}/finish/")
    assert again.status_code == 409


def test_another_player_cannot_finish_my_game(alice: Browser, bob: Browser) -> None:
    game = alice.new_game(EASY_DEAL)
    assert bob.post(f"/api/games/{game['id']}/finish/").status_code == 403


def test_a_ranked_daily_finishes_and_the_win_is_final(
    carol_browser: Browser, carol: User, todays_daily: Daily
) -> None:
    line = seeded_line(todays_daily.seed)
    cut = until_finish(line, Position(deal_from_seed(todays_daily.seed), THREE_CARD))
    game = carol_browser.post(PLAY).json()
    play_line(carol_browser, game["id"], line[:cut])
    won = carol_browser.post(f"/api/games/{game['id']}/finish/").json()
    assert won["status"] == "won"
    attempt = Attempt.objects.get(game_id=game["id"])
    assert (attempt.status, attempt.home, attempt.moves) == ("won", 52, won["moves"])
    refused = carol_browser.post(f"/api/games/{game['id']}/undo/")
    assert refused.status_code == 409 and "final" in refused.json()["error"]


def test_the_play_page_names_only_games_that_exist(alice: Browser) -> None:
    first = alice.client.get("/")
    assert first.context["resumable"] == {"three-card": None, "classic": None, "cross": None}
    game = alice.new_game(EASY_DEAL)
    again = alice.client.get("/")
    assert again.context["resumable"] == {"three-card": game["id"], "classic": None, "cross": None}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_finish_over_the_socket(alice: Browser, layer: Any) -> None:  # noqa: F811
    line = winning_line(EASY_DEAL)
    cut = until_finish(line)
    game = await sync_to_async(alice.new_game)(EASY_DEAL)
    ready = await sync_to_async(play_line)(alice, game["id"], line[:cut])
    socket = await open_board(game, alice)
    await socket.send_json_to({"type": "finish", "seq": 3, "version": ready["version"]})
    reply = await socket.receive_json_from()
    assert (reply["type"], reply["seq"], reply["game"]["status"]) == ("state", 3, "won")
    await socket.send_json_to({"type": "finish", "seq": 4})
    error = await socket.receive_json_from()
    assert error["type"] == "error" and error["seq"] == 4
    await socket.disconnect()
