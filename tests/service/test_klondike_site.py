"""Klondike on the site, through the same API as every game: free play on any deal,
the view with face-down cards as counts and runs as paths, the score kept, a ranked
daily that never undoes a stock turn or a flip, and no unseen card in any payload.

Nothing here is Klondike's own code path: the service finds the game in the registry;
these tests are the proof that a new game needs no edit outside its packages."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from game.models import Game
from patience.cards import card_text
from patience.klondike.rules import RULES

from .conftest import Browser

pytestmark = pytest.mark.django_db


def new_klondike(browser: Browser, deal: int, variant: str = "turn-1") -> dict[str, Any]:
    response = browser.post("/api/games/", {"game": "klondike", "variant": variant, "deal": deal})
    assert response.status_code == 201, response.content
    return dict(response.json())


def unseen_texts(position: Any) -> set[str]:
    """The cards the player has not been shown now: face down in a column, or in the stock."""
    hidden = {card for i, column in enumerate(position.columns)
              for card in column[:position.down[i]]}
    return {card_text(card) for card in hidden | set(position.stock)}


def test_a_free_klondike_game_shows_backs_as_counts_and_paths_as_runs(alice: Browser) -> None:
    game = new_klondike(alice, 1, "turn-3")
    state = game["state"]

    assert (game["game"]["slug"], game["variant"]["slug"], game["deal"]) == (
        "klondike", "turn-3", 1)
    assert [state["piles"][f"t{i}"]["down"] for i in range(1, 8)] == [0, 1, 2, 3, 4, 5, 6]
    assert all(len(state["piles"][f"t{i}"]["up"]) == 1 for i in range(1, 8))
    assert state["piles"]["stock"] == {"down": 24, "up": []} and state["stock_count"] == 24
    assert state["paths"]["D"] == {"from": "stock", "to": "waste", "count": 3}
    assert state["pickable"]["stock"] == [3] and game["score"] == 0 and state["score"] == 0
    names = [pile["name"] for pile in game["table"]["piles"]]
    assert names[:2] == ["stock", "waste"] and {f"t{i}" for i in range(1, 8)} <= set(names)


def test_moves_score_and_flip_through_the_api(alice: Browser) -> None:
    game = new_klondike(alice, 1)
    home = alice.move(game["id"], "t6-f3").json()  # the ace of hearts home, a card turned up

    assert home["state"]["piles"]["t6"]["down"] == 4 and home["score"] == 15  # 10 + 5
    assert home["state"]["can_undo"] is True
    undone = alice.post(f"/api/games/{game['id']}/undo/").json()
    assert undone["score"] == 0 and undone["state"]["piles"]["t6"]["down"] == 5
    stored = Game.objects.get(pk=game["id"])
    assert (stored.score, stored.log) == (0, "")


def test_an_illegal_or_malformed_klondike_move_is_refused_and_changes_nothing(
    alice: Browser,
) -> None:
    game = new_klondike(alice, 1)
    for bad in ("t1-t1", "t1-t2x9", "w-f1", "x", "t8-t1", "f1-f2", "R"):
        response = alice.move(game["id"], bad)
        assert response.status_code in (400, 409), (bad, response.status_code)
        assert "error" in response.json()
    stored = Game.objects.get(pk=game["id"])
    assert (stored.log, stored.version) == ("", 0)


def test_no_payload_names_a_face_down_or_stock_card_over_random_play(alice: Browser) -> None:
    rng = random.Random(23)
    for deal in (1, 2, 31999, 32000, 999999):
        game = new_klondike(alice, deal, rng.choice(["turn-1", "turn-3"]))
        position = RULES.new_game(deal, game["variant"]["slug"])
        payloads = [game]
        for _ in range(60):
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            position.apply(move)
            response = alice.move(game["id"], move.notation)
            assert response.status_code == 200, response.content
            payloads.append(response.json())
            text = json.dumps(payloads[-1])
            leaked = {card for card in unseen_texts(position) if f'"{card}"' in text}
            assert not leaked, (deal, move.notation, leaked)
        assert len(payloads) > 10


@pytest.mark.parametrize("variant", ["turn-1", "turn-3"])
def test_no_payload_names_an_unseen_card_along_a_solver_win(alice: Browser, variant: str) -> None:
    """The solver's line (it knows every card) played through the API: each answer
    still carries only what the player has been shown."""
    from solver_worker.driver import Budget
    from solver_worker.games import solve_position

    deal = 2
    position = RULES.new_game(deal, variant)
    result = solve_position(position.copy(), Budget(seconds=30))
    assert result.verdict == "won"
    game = new_klondike(alice, deal, variant)
    for text in result.line:
        position.apply(RULES.parse_move(text))
        answer = alice.move(game["id"], text)
        assert answer.status_code == 200, (text, answer.content)
        payload = json.dumps(answer.json())
        assert not {card for card in unseen_texts(position) if f'"{card}"' in payload}, text
    assert answer.json()["status"] == "won"


def test_a_ranked_klondike_daily_never_undoes_a_stock_turn_or_a_flip(
    screened: Any, settings: Any, carol: User, carol_browser: Browser,
) -> None:
    settings.DAILY_VARIANTS = ["turn-1"]
    game = carol_browser.post("/api/klondike/turn-1/daily/play/").json()
    assert game["ranked"] is True and game["seeded"] is True and game["deal"] is None

    turned = carol_browser.move(game["id"], "D").json()
    assert turned["state"]["can_undo"] is False  # the server says so: the board asks it
    refused = carol_browser.post(f"/api/games/{game['id']}/undo/")
    assert refused.status_code == 409 and "(D)" in refused.json()["error"]

    position = Game.objects.get(pk=game["id"]).position()  # the server's, after D
    flips = [move for move in position.legal_moves() if RULES.reveals(position, move)
             and move.notation not in ("D", "R")]
    plain = [move for move in position.legal_moves() if not RULES.reveals(position, move)]
    assert flips or plain
    if flips:
        after = carol_browser.move(game["id"], flips[0].notation).json()
        assert after["state"]["can_undo"] is False
        assert carol_browser.post(f"/api/games/{game['id']}/undo/").status_code == 409
    elif plain:
        after = carol_browser.move(game["id"], plain[0].notation).json()
        assert after["state"]["can_undo"] is True
        assert carol_browser.post(f"/api/games/{game['id']}/undo/").status_code == 200


def test_the_klondike_pages_and_rules_render(alice: Browser) -> None:
    for url in ("/klondike/", "/klondike/turn-3/", "/klondike/turn-1/?deal=31999"):
        assert alice.get(url).status_code in (200, 301, 302)
    page = alice.get("/klondike/rules/").content.decode()
    assert "How to play Klondike" in page and "Where this site chooses" in page
    assert "column 7" in page and "drawn-table" in page


def test_a_klondike_race_deals_one_proved_deal_to_everyone_and_is_won(
    carol_browser: Browser, dave_browser: Browser, clock: Any, settings: Any,
) -> None:
    from races.models import Race
    from solver_worker.driver import Budget
    from solver_worker.games import solve_position

    settings.RACE_SCREEN_BUDGET_SECONDS = 2.0
    settings.RACE_COUNTDOWN_SECONDS = 5.0
    room = carol_browser.post("/api/races/", {"variant": "turn-3", "minutes": 5}).json()
    code = room["code"]
    assert room["card_count"] == 52 and room["variant"]["slug"] == "turn-3"
    assert dave_browser.post(f"/api/races/{code}/join/").status_code == 200
    assert dave_browser.post(f"/api/races/{code}/ready/", {"ready": True}).status_code == 200
    assert carol_browser.post(f"/api/races/{code}/start/").json()["state"] == "running"
    clock.tick(6)

    games = {who: carol_browser if who == "carol" else dave_browser for who in ("carol", "dave")}
    ids = {who: browser.get(f"/api/races/{code}/").json()["me"]["game"]
           for who, browser in games.items()}
    stored = [Game.objects.get(pk=game_id) for game_id in ids.values()]
    assert stored[0].cards == stored[1].cards and stored[0].variant == "turn-3"
    race = Race.objects.get(code=code)
    position = RULES.new_game(RULES.deal_from_seed(race.seed), "turn-3")
    line = solve_position(position, Budget(seconds=30)).line
    turned = games["dave"].move(ids["dave"], "D")
    assert turned.status_code == 200
    assert games["dave"].post(f"/api/games/{ids['dave']}/undo/").status_code == 409
    for move in line:
        clock.tick(1)
        answer = games["carol"].move(ids["carol"], move)
        assert answer.status_code == 200, (move, answer.content)
    assert answer.json()["status"] == "won" and answer.json()["home"] == 52
    board = carol_browser.get(f"/api/races/{code}/").json()
    assert board["players"][0]["name"] == "carol" and board["players"][0]["home"] == 52


def test_a_won_free_klondike_game_files_its_best_score(alice: Browser) -> None:
    from solver_worker.driver import Budget
    from solver_worker.games import solve_position

    line = solve_position(RULES.new_game(1, "turn-1"), Budget(seconds=30)).line
    game = new_klondike(alice, 1)
    for move in line:
        answer = alice.move(game["id"], move)
        assert answer.status_code == 200, (move, answer.content)
    won = answer.json()
    assert won["status"] == "won" and won["score"] > 0
    figures = won["free_play"]
    assert figures["best_score"] == won["score"] and "score" in figures["new_best"]
    stats = alice.get("/api/stats/").json()
    entry = next(row for row in stats["free_play"] if row["variant"] == "turn-1")
    assert entry["scored"] is True and entry["records"]["any"]["best_score"] == won["score"]


def test_a_klondike_hint_and_a_fair_hint_name_a_legal_move(alice: Browser) -> None:
    game = new_klondike(alice, 4, "turn-3")
    legal = set(game["state"]["legal"])
    hinted = alice.post(f"/api/games/{game['id']}/hint/").json()
    assert hinted["hint"]["move"] in legal and hinted["hint"]["verdict"] in (
        "winnable", "lost", "unknown")
    fair = alice.post(f"/api/games/{game['id']}/hint/", {"fair": True}).json()
    assert fair["hint"]["fair"] is True and fair["hint"]["move"] in legal
    assert Game.objects.get(pk=game["id"]).hints == 2
