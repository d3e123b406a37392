"""The REST API: shapes, status codes, CSRF, ownership and hostile input."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from game import actions
from game.models import Game
from patience import GAMES, EngineError, Rules

from .conftest import EASY_DEAL, Browser
from .lines import winning_line

GAME_FIELDS = {
    "id", "game", "variant", "table", "achievements", "deal", "seeded", "ranked", "version",
    "status", "home", "score", "moves", "undos",
    "hints", "created", "updated", "finished", "started", "closes", "state", "deal_kind",
    "free_play", "can_finish", "daily_date",
}


def test_a_visitor_starts_a_game(alice: Browser) -> None:
    response = alice.post("/api/games/", {"variant": "classic", "deal": 12})

    assert response.status_code == 201
    game = response.json()
    assert set(game) == GAME_FIELDS
    assert (game["variant"], game["deal"], game["version"], game["status"]) == (
        {"slug": "classic", "name": "classic 1-card deal"}, 12, 0, "playing",
    )
    assert game["game"] == {"slug": "napoleons-tomb", "name": "Napoleon's Tomb"}
    assert [pile["name"] for pile in game["table"]["piles"]] == [
        "nw", "n", "ne", "w", "tomb", "e", "sw", "s", "se", "stock", "waste"]
    assert set(game["state"]["piles"]) >= {"stock", "waste", "tomb"}
    assert game["state"]["piles"]["stock"] == {"down": 52, "up": []}
    assert game["state"]["paths"] == {"D": {"from": "stock", "to": "waste", "count": 1}}
    assert game["state"]["pickable"] == {"stock": [1]} and game["state"]["can_undo"] is False
    assert game["state"]["stock_count"] == 52 and game["state"]["legal"] == ["D"]


def test_no_variant_and_no_deal_give_a_random_three_card_deal(alice: Browser) -> None:
    game = alice.post("/api/games/", {}).json()
    assert game["variant"]["slug"] == "three-card" and 1 <= game["deal"] <= 999_999


def test_a_visitor_plays_undoes_and_reads_the_game(alice: Browser) -> None:
    game = alice.new_game()

    moved = alice.move(game["id"], "D")
    undone = alice.post(f"/api/games/{game['id']}/undo/")
    read = alice.get(f"/api/games/{game['id']}/")

    assert moved.status_code == 200 and moved.json()["state"]["stock_count"] == 49
    assert undone.status_code == 200 and undone.json()["undos"] == 1
    assert read.status_code == 200 and read.json() == undone.json()


def test_a_deal_is_played_to_a_win_over_rest(alice: Browser) -> None:
    game = alice.new_game(EASY_DEAL)
    for move in winning_line(EASY_DEAL):
        response = alice.move(game["id"], move)
        assert response.status_code == 200, response.content

    assert response.json()["status"] == "won"
    stats = alice.get("/api/stats/?game=napoleons-tomb").json()
    assert stats["wins"] == {"three-card": 1, "classic": 0, "cross": 0}
    assert [(row["games"], row["wins"]) for row in stats["free_play"]] == [(1, 1), (0, 0), (0, 0)]


def test_my_games_lists_only_mine(alice: Browser, bob: Browser) -> None:
    first = alice.new_game(5)
    second = alice.new_game(6, "classic")
    bob.new_game(7)

    games = alice.get("/api/games/").json()

    assert [game["id"] for game in games] == [second["id"], first["id"]]
    assert "state" not in games[0]


def test_resume_finds_my_latest_unfinished_game_of_a_variant(alice: Browser) -> None:
    alice.new_game(5)
    latest = alice.new_game(6)
    alice.new_game(7, "classic")

    response = alice.get("/api/games/resume/?variant=three-card")

    assert response.status_code == 200 and response.json()["id"] == latest["id"]


def test_resume_without_a_game_is_not_found(alice: Browser) -> None:
    response = alice.get("/api/games/resume/?variant=classic")
    assert response.status_code == 404
    assert response.json() == {"error": "you have no unfinished classic 1-card deal game"}


@pytest.mark.parametrize("body, fragment", [
    ({"move": "?"}, 'one word of letters, digits, "@" and "-"'),
    ({"move": "D D"}, "one word"),
    ({"move": "D\n"}, "one word"),
    ({"move": "F@tömb"}, "one word"),
    ({"move": 7}, "a move must be text"),
    ({}, 'send the move as {"move": "F@tomb"}'),
    ([], "send a JSON object"),
    ({"move": "D" * 5000}, "is not a move"),
])
def test_malformed_moves_are_400_and_change_nothing(
    alice: Browser, body: Any, fragment: str
) -> None:
    game = alice.new_game()

    response = alice.post(f"/api/games/{game['id']}/moves/", body)

    assert response.status_code == 400
    assert fragment in response.json()["error"]
    assert len(response.content) < 300  # a huge move is not echoed back
    assert Game.objects.get(pk=game["id"]).version == 0


def moves_seen(rules: Rules, playouts: int = 3, length: int = 80) -> set[str]:
    """The notation of every move legal somewhere along a few random games of each of
    ``rules``' variants: the kinds of move the game has, if not each one."""
    seen: set[str] = set()
    for variant in rules.variants.values():
        for deal in range(1, playouts + 1):
            position = rules.new_game(rules.deal_from_number(deal), variant)
            pick = random.Random(deal)
            for _ in range(length):
                legal = position.legal_moves()
                if not legal:
                    break
                seen.update(move.notation for move in legal)
                position.apply(pick.choice(legal))
    return seen


@pytest.mark.parametrize("rules", GAMES.values(), ids=list(GAMES))
def test_every_registered_games_moves_are_words_of_the_move_form(rules: Rules) -> None:
    """The schema's one move pattern (MOVE_FORM) has room for every game's notation."""
    seen = moves_seen(rules)
    assert len(seen) > 3
    for notation in seen:
        assert re.fullmatch(actions.MOVE_FORM, notation), notation
        assert actions.check_move({"move": notation}) == notation


def not_moves_of(rules: Rules, each: int = 5) -> list[str]:
    """Words of the move form that ``rules``' notation does not read: a few moves of each
    other game, and words that are nobody's."""
    words = ["Q", "x@9-"]
    for other in GAMES.values():
        if other is not rules:
            words += sorted(word for word in moves_seen(other, playouts=1)
                            if not _reads(rules, word))[:each]
    return words


def _reads(rules: Rules, word: str) -> bool:
    try:
        rules.parse_move(word)
    except EngineError:
        return False
    return True


@pytest.mark.parametrize("rules", GAMES.values(), ids=list(GAMES))
def test_a_word_that_is_no_move_of_the_game_is_409_and_changes_nothing(
    alice: Browser, rules: Rules
) -> None:
    """Well formed for the API, which cannot tell one game's body from another's: the
    game refuses it as it refuses an illegal move."""
    game = alice.post("/api/games/", {"game": rules.slug, "deal": 2}).json()
    words = not_moves_of(rules)
    assert len(words) > 2 + len(GAMES)

    for word in words:
        response = alice.post(f"/api/games/{game['id']}/moves/", {"move": word})
        assert response.status_code == 409, (word, response.content)
        assert "is not a move" in response.json()["error"]
    assert Game.objects.get(pk=game["id"]).version == 0


def test_malformed_json_is_400(alice: Browser) -> None:
    game = alice.new_game()
    response = alice.post(f"/api/games/{game['id']}/moves/", raw="{not json")
    assert response.status_code == 400 and "JSON parse error" in response.json()["error"]


def test_an_illegal_move_is_409_and_changes_nothing(alice: Browser) -> None:
    game = alice.new_game()

    response = alice.move(game["id"], "F")

    assert response.status_code == 409
    assert response.json() == {"error": "the waste is empty: there is no card to play"}
    assert alice.get(f"/api/games/{game['id']}/").json() == game


def test_nothing_to_undo_is_409(alice: Browser) -> None:
    game = alice.new_game()
    response = alice.post(f"/api/games/{game['id']}/undo/")
    assert response.status_code == 409 and response.json()["error"] == "there is no move to undo"


def test_a_move_or_undo_on_a_version_left_behind_is_409_stale(alice: Browser) -> None:
    game = alice.new_game()
    played = alice.post(f"/api/games/{game['id']}/moves/", {"move": "D", "version": 0})

    again = alice.post(f"/api/games/{game['id']}/moves/", {"move": "D", "version": 0})
    undo = alice.post(f"/api/games/{game['id']}/undo/", {"version": 0})

    assert played.status_code == 200 and played.json()["version"] == 1
    for response in (again, undo):
        assert response.status_code == 409 and response.json()["code"] == "stale"
        assert response.json()["game"] == played.json()
    assert alice.get(f"/api/games/{game['id']}/").json() == played.json()
    undone = alice.post(f"/api/games/{game['id']}/undo/", {"version": 1})
    assert undone.status_code == 200 and undone.json()["version"] == 2


@pytest.mark.parametrize("version", ["1", -1, 2**53 + 1, None, 1.5, True])
def test_a_bad_version_is_400(alice: Browser, version: Any) -> None:
    game = alice.new_game()
    response = alice.post(f"/api/games/{game['id']}/moves/", {"move": "D", "version": version})
    if version is None:  # null is the same as leaving it out
        assert response.status_code == 200
    else:
        assert response.status_code == 400 and "version" in response.json()["error"]
        assert Game.objects.get(pk=game["id"]).version == 0


def test_another_players_game_is_403(alice: Browser, bob: Browser) -> None:
    game = alice.new_game()

    for response in (
        bob.get(f"/api/games/{game['id']}/"),
        bob.move(game["id"], "D"),
        bob.post(f"/api/games/{game['id']}/undo/"),
        bob.post(f"/api/games/{game['id']}/hint/"),
    ):
        assert response.status_code == 403
        assert response.json() == {"error": "this game belongs to another player"}
    assert Game.objects.get(pk=game["id"]).version == 0


@pytest.mark.parametrize("path", [
    "/api/games/00000000-0000-0000-0000-000000000000/",
    "/api/games/00000000-0000-0000-0000-000000000000/moves/",
    "/api/games/1/",
    "/api/games/../../etc/passwd/",
    "/api/nothing-here/",
])
def test_unknown_ids_and_paths_are_json_404(alice: Browser, path: str) -> None:
    response = alice.post(path, {"move": "D"}) if "moves" in path else alice.get(path)
    assert response.status_code == 404
    assert "error" in response.json()


def test_a_post_without_the_csrf_token_is_refused(alice: Browser) -> None:
    game = alice.new_game()

    response = alice.client.post(
        f"/api/games/{game['id']}/moves/", {"move": "D"}, content_type="application/json"
    )

    assert response.status_code == 403 and "CSRF" in response.json()["error"]
    assert Game.objects.get(pk=game["id"]).version == 0


def test_wrong_methods_and_media_types_get_json_errors(alice: Browser) -> None:
    game = alice.new_game()
    url = f"/api/games/{game['id']}/moves/"
    assert alice.get(url).status_code == 405
    form = alice.client.post(url, {"move": "D"}, HTTP_X_CSRFTOKEN=alice.csrf())
    assert form.status_code == 415 and "error" in form.json()


def test_a_hint_over_rest_is_counted_and_returned(alice: Browser) -> None:
    game = alice.new_game()

    response = alice.post(f"/api/games/{game['id']}/hint/")

    assert response.status_code == 200
    answer = response.json()
    assert answer["hints"] == 1 and answer["version"] == 1
    assert answer["hint"] == {"move": "D", "verdict": "winnable", "line_length": 97}


def test_rest_hints_are_rate_limited_per_player(alice: Browser, settings: Any) -> None:
    # Each runs the solver in the web process: past the rate, refused before it is counted.
    settings.HINT_RATE = "2/minute"
    game = alice.new_game()
    url = f"/api/games/{game['id']}/hint/"

    answers = [alice.post(url) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert "too many hints" in answers[2].json()["error"]
    assert int(answers[2].headers["Retry-After"]) > 0
    assert alice.get(f"/api/games/{game['id']}/").json()["hints"] == 2
    other = Browser()
    assert other.post(f"/api/games/{other.new_game()['id']}/hint/").status_code == 200


def test_a_logged_in_player_plays_from_any_device(carol: User) -> None:
    laptop, phone = Browser(), Browser()
    laptop.log_in(carol)
    phone.log_in(carol)
    game = laptop.new_game()
    laptop.move(game["id"], "D")

    resumed = phone.get("/api/games/resume/?variant=three-card").json()

    assert resumed["id"] == game["id"] and resumed["state"]["moves"] == 1
    assert phone.move(game["id"], "D").status_code == 200


def test_the_move_hot_path_costs_four_queries(carol: User, statements: Any) -> None:
    browser = Browser()
    browser.log_in(carol)
    game = browser.new_game()
    browser.csrf()

    with statements() as sql:
        response = browser.move(game["id"], "D")

    assert response.status_code == 200
    # session, user, then the action's lock and write.
    assert sql == ["SELECT", "SELECT", "SELECT", "UPDATE"]


def test_the_openapi_schema_lists_the_endpoints(alice: Browser) -> None:
    response = alice.get("/api/schema/?format=json")

    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/games/", "/api/games/{game_id}/", "/api/games/{game_id}/moves/",
        "/api/games/{game_id}/undo/", "/api/games/{game_id}/hint/", "/api/games/resume/",
    ):
        assert path in paths


def test_resume_names_a_variant_of_another_game_not_found(alice: Browser) -> None:
    """The schema lists each parameter's slugs; which go together only the server knows."""
    alice.new_game(variant="classic")

    assert alice.get("/api/games/resume/?game=klondike&variant=classic").status_code == 404
    assert alice.get("/api/games/resume/?variant=dreidel").status_code == 400
    found = alice.get("/api/games/resume/?game=&variant=classic")
    assert found.status_code == 200 and found.json()["variant"]["slug"] == "classic"


def test_the_schema_says_what_the_server_refuses(alice: Browser) -> None:
    schema = alice.get("/api/schema/?format=json").json()
    bodies, paths = schema["components"]["schemas"], schema["paths"]

    move = bodies["Move"]["properties"]["move"]
    assert (move["minLength"], move["maxLength"], move["pattern"]) == (
        1, actions.MAX_MOVE_CHARS, f"^(?:{actions.MOVE_FORM})$")
    assert "409" in move["description"]
    refused = bodies["NewGame"]["not"]["anyOf"]
    assert refused[0]["properties"]["winnable"] == {"enum": [True]}
    assert {"game": {"enum": ["klondike"]}, "variant": {
        "type": "string", "not": {"enum": ["", "turn-1", "turn-3"]}}} in [
        clause["properties"] for clause in refused[1:]]
    assert len(refused) == 1 + len(GAMES)  # one clause a registered game
    for path in ("/api/games/", "/api/games/{game_id}/moves/", "/api/games/{game_id}/undo/",
                 "/api/games/{game_id}/finish/"):
        assert "429" in paths[path]["post"]["responses"], path
    resume = {item["name"]: item["schema"] for item in paths["/api/games/resume/"]["get"][
        "parameters"]}
    assert resume["game"]["enum"] == ["", *GAMES]  # every registered game, in the registry's order
