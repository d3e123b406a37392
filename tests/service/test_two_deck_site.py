"""The two-deck Tomb on the site, through the same API as every game: free play on any
deal, walls as a top card over a count, working stacks as paths, a ranked daily that never
undoes a deal, a move from a wall or a refill, and no covered wall card and no stock card
in any payload.

As with Klondike, nothing here is the game's own code path: the service finds it in the
registry. Twin cards share a face's text, so the secrecy tests count faces: a payload may
name a face no more often than the table shows it."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User

from game.models import Game
from patience.twodeck.deals import text_of
from patience.twodeck.rules import RULES

from .conftest import Browser

pytestmark = pytest.mark.django_db

CARD = re.compile(r'"((?:10|[2-9AJQK])[CDHS])"')
VARIANT = "two-deck-tomb"


def new_two_deck(browser: Browser, deal: int) -> dict[str, Any]:
    response = browser.post("/api/games/", {"game": VARIANT, "variant": VARIANT, "deal": deal})
    assert response.status_code == 201, response.content
    return dict(response.json())


def shown_faces(position: Any) -> Counter[str]:
    """Each face as often as the table shows it: walls' tops, working places, bases,
    the centre and the waste piles; never a covered wall card or the stock."""
    cards = [wall[-1] for wall in position.walls if wall]
    for heaps in (position.places, position.bases, position.waste):
        cards += [card for heap in heaps for card in heap]
    cards += position.centre
    return Counter(text_of(card) for card in cards)


def assert_names_only_shown_cards(payload: dict[str, Any], position: Any, context: Any) -> None:
    named = Counter(CARD.findall(json.dumps(payload)))
    shown = shown_faces(position)
    over = {face: count for face, count in named.items() if count > shown[face]}
    assert not over, (context, over)


def test_a_free_game_shows_walls_as_a_top_card_over_a_count(alice: Browser) -> None:
    game = new_two_deck(alice, 1)
    state, position = game["state"], RULES.new_game(1, VARIANT)

    assert (game["game"]["slug"], game["variant"]["slug"], game["deal"]) == (VARIANT, VARIANT, 1)
    for name, wall in zip(("n", "w", "e", "s"), position.walls, strict=True):
        assert state["piles"][name] == {"down": len(wall) - 1, "up": [text_of(wall[-1])]}
    assert state["piles"]["stock"] == {"down": 60, "up": []} and state["stock_count"] == 60
    assert state["paths"]["D"] == {"from": "stock", "to": "x1", "count": 5}
    assert (state["round"], state["rounds"], state["waste_piles"]) == (1, 5, 5)
    assert game["table"]["card_count"] == 104
    roles = Counter(pile["role"] for pile in game["table"]["piles"])
    assert roles == {"pile": 9, "foundation": 4, "waste": 5, "stock": 1}
    assert_names_only_shown_cards(game, position, "fresh")


def test_an_illegal_or_malformed_move_is_refused_and_changes_nothing(alice: Browser) -> None:
    game = new_two_deck(alice, 1)
    for bad in ("R", "x1-pn", "nw-ne", "c-n", "pn-nwx9", "n-n", "x6-c", "", "D" * 40, "pn-x1"):
        response = alice.move(game["id"], bad)
        assert response.status_code in (400, 409), (bad, response.status_code)
        assert "error" in response.json()
        assert not CARD.findall(json.dumps(response.json())), bad
    stored = Game.objects.get(pk=game["id"])
    assert (stored.log, stored.version) == ("", 0)


def test_no_payload_names_a_covered_wall_card_or_a_stock_card_over_random_play(
    alice: Browser,
) -> None:
    rng = random.Random(27)
    for deal in (1, 2, 999999):
        game = new_two_deck(alice, deal)
        position = RULES.new_game(deal, VARIANT)
        played = 0
        for _ in range(80):
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            position.apply(move)
            response = alice.move(game["id"], move.notation)
            assert response.status_code == 200, response.content
            assert_names_only_shown_cards(response.json(), position, (deal, move.notation))
            played += 1
        undone = alice.post(f"/api/games/{game['id']}/undo/")
        assert undone.status_code == 200
        position.undo()
        assert_names_only_shown_cards(undone.json(), position, (deal, "undo"))
        assert played > 30


def test_a_solver_line_wins_through_the_api_showing_only_what_was_shown(alice: Browser) -> None:
    """The solver knows every card; its line played through the API still gets answers
    that carry only what the table shows, and the won game counts."""
    from solver_worker.driver import Budget
    from solver_worker.games import solve_position

    deal = 1
    position = RULES.new_game(deal, VARIANT)
    result = solve_position(position.copy(), Budget(seconds=60))
    assert result.verdict == "won", result.verdict
    game = new_two_deck(alice, deal)
    for text in result.line:
        position.apply(RULES.parse_move(text))
        answer = alice.move(game["id"], text)
        assert answer.status_code == 200, (text, answer.content)
        assert_names_only_shown_cards(answer.json(), position, text)
    won = answer.json()
    assert won["status"] == "won" and won["home"] == 104
    stats = alice.get("/api/stats/").json()
    entry = next(row for row in stats["free_play"] if row["variant"] == VARIANT)
    assert (entry["games"], entry["wins"]) == (1, 1)


def test_a_ranked_daily_never_undoes_a_deal_a_wall_card_or_a_refill(
    screened: Any, settings: Any, carol: User, carol_browser: Browser,
) -> None:
    settings.DAILY_VARIANTS = [VARIANT]
    game = carol_browser.post(f"/api/{VARIANT}/{VARIANT}/daily/play/").json()
    assert game["ranked"] is True and game["seeded"] is True and game["deal"] is None

    position = Game.objects.get(pk=game["id"]).position()
    kinds = {"wall": [m for m in position.legal_moves() if m.from_wall],
             "plain": [m for m in position.legal_moves() if not RULES.reveals(position, m)]}
    if kinds["wall"]:
        after = carol_browser.move(game["id"], kinds["wall"][0].notation).json()
        assert after["state"]["can_undo"] is False
        refused = carol_browser.post(f"/api/games/{game['id']}/undo/")
        assert refused.status_code == 409 and "error" in refused.json()
    dealt = carol_browser.move(game["id"], "D").json()
    assert dealt["state"]["can_undo"] is False
    assert carol_browser.post(f"/api/games/{game['id']}/undo/").status_code == 409
    # A move that empties a working place refills it from its wall: never undone either.
    position = Game.objects.get(pk=game["id"]).position()
    refills = [m for m in position.legal_moves()
               if m.from_place and RULES.reveals(position, m)]
    plain = [m for m in position.legal_moves() if not RULES.reveals(position, m)]
    if refills:
        after = carol_browser.move(game["id"], refills[0].notation).json()
        assert after["state"]["can_undo"] is False
        assert carol_browser.post(f"/api/games/{game['id']}/undo/").status_code == 409
    elif plain:
        after = carol_browser.move(game["id"], plain[0].notation).json()
        assert after["state"]["can_undo"] is True
        assert carol_browser.post(f"/api/games/{game['id']}/undo/").status_code == 200


def test_a_refill_is_never_undone_in_a_ranked_game_whatever_the_deal(
    screened: Any, settings: Any, carol: User, carol_browser: Browser,
) -> None:
    """Played until a refill comes up: the first move that empties a working place whose
    wall still holds cards cannot be undone, and the server says so before it is tried."""
    settings.DAILY_VARIANTS = [VARIANT]
    game = carol_browser.post(f"/api/{VARIANT}/{VARIANT}/daily/play/").json()
    rng = random.Random(5)
    for _ in range(200):
        position = Game.objects.get(pk=game["id"]).position()
        legal = position.legal_moves()
        if not legal:
            break
        refills = [m for m in legal if m.from_place and RULES.reveals(position, m)]
        if refills:
            after = carol_browser.move(game["id"], refills[0].notation).json()
            assert after["state"]["can_undo"] is False
            assert carol_browser.post(f"/api/games/{game['id']}/undo/").status_code == 409
            return
        carol_browser.move(game["id"], rng.choice(legal).notation)
    pytest.fail("no refill came up in 200 random moves")


def test_the_pages_and_rules_render_in_three_languages(alice: Browser) -> None:
    for url in (f"/{VARIANT}/", f"/{VARIANT}/{VARIANT}/", f"/{VARIANT}/{VARIANT}/?deal=31999",
                f"/{VARIANT}/{VARIANT}/daily/", f"/{VARIANT}/{VARIANT}/daily/archive/"):
        assert alice.get(url).status_code in (200, 301, 302), url
    words = {"en": ("How to play Napoleon&#x27;s Tomb, two decks", "north working place"),
             "ru": ("Гробница Наполеона (две колоды)", "северное рабочее место"),
             "fi": ("Napoleonin hauta, kaksi pakkaa", "pohjoinen työpaikka")}
    for language, expected in words.items():
        alice.client.cookies["django_language"] = language
        page = alice.get(f"/{VARIANT}/rules/").content.decode()
        for text in expected:
            assert text in page, (language, text)
        assert "drawn-table" in page


def test_a_hint_names_a_legal_move(alice: Browser) -> None:
    game = new_two_deck(alice, 1)
    legal = set(game["state"]["legal"])
    hinted = alice.post(f"/api/games/{game['id']}/hint/").json()
    assert hinted["hint"]["move"] in legal
    fair = alice.post(f"/api/games/{game['id']}/hint/", {"fair": True}).json()
    assert fair["hint"]["fair"] is True and fair["hint"]["move"] in legal


def test_a_race_deals_one_proved_deal_to_everyone_and_is_won(
    carol_browser: Browser, dave_browser: Browser, clock: Any, settings: Any,
) -> None:
    from races.models import Race
    from solver_worker.driver import Budget
    from solver_worker.games import solve_position

    settings.RACE_SCREEN_BUDGET_SECONDS = 2.0
    settings.RACE_COUNTDOWN_SECONDS = 5.0
    room = carol_browser.post("/api/races/", {"variant": VARIANT, "minutes": 10}).json()
    code = room["code"]
    assert room["card_count"] == 104 and room["variant"]["slug"] == VARIANT
    assert dave_browser.post(f"/api/races/{code}/join/").status_code == 200
    assert dave_browser.post(f"/api/races/{code}/ready/", {"ready": True}).status_code == 200
    assert carol_browser.post(f"/api/races/{code}/start/").json()["state"] == "running"
    clock.tick(6)

    games = {"carol": carol_browser, "dave": dave_browser}
    ids = {who: browser.get(f"/api/races/{code}/").json()["me"]["game"]
           for who, browser in games.items()}
    stored = [Game.objects.get(pk=game_id) for game_id in ids.values()]
    assert stored[0].cards == stored[1].cards and stored[0].variant == VARIANT
    race = Race.objects.get(code=code)
    position = RULES.new_game(RULES.deal_from_seed(race.seed), VARIANT)
    line = solve_position(position, Budget(seconds=60)).line
    assert games["dave"].move(ids["dave"], "D").status_code == 200
    assert games["dave"].post(f"/api/games/{ids['dave']}/undo/").status_code == 409
    for move in line:
        clock.tick(1)
        answer = games["carol"].move(ids["carol"], move)
        assert answer.status_code == 200, (move, answer.content)
    assert answer.json()["status"] == "won" and answer.json()["home"] == 104
    board = carol_browser.get(f"/api/races/{code}/").json()
    assert board["players"][0]["name"] == "carol" and board["players"][0]["home"] == 104
