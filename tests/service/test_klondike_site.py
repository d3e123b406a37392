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
    assert "column 7" in page and "picture-grid" in page
