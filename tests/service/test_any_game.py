"""Every registered game and variant, with no game named in the game app.

A made-up game is registered for these tests only (the Tomb's rules under another
slug, a table of its own, deals 1-1000, an achievement on a win, and every move
counted as showing a card): the pages, the API, ranked undo and achievements must
take it with no change to the app. Addresses that name no game, or a variant of
another game, are 404s; bad input anywhere is a 4xx, never a 500.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

import patience
from game import actions
from game.models import Game
from patience import Pile, Status, Table
from patience.tomb import THREE_CARD, Position
from patience.tomb.rules import RULES as TOMB

from .conftest import EASY_DEAL, Browser
from .lines import winning_line

FAKE_THREE = dataclasses.replace(THREE_CARD, slug="fake-three", name="Fake three")


class FakeGame:
    """The Tomb's rules as another game: what a newly registered game looks like here."""

    slug = "fake-tomb"
    name = "Fake Tomb"
    card_count = 52
    min_deal = 1
    max_deal = 1000
    variants = {"fake-three": FAKE_THREE}
    default_variant = FAKE_THREE

    def __getattr__(self, name: str) -> Any:
        return getattr(TOMB, name)

    def new_game(self, deal: Any, variant: Any) -> Position:
        return Position(deal, variant)

    def table(self, variant: Any) -> Table:
        piles = (Pile("stock", "stock", "the stock", 0, 0, "nothing"),
                 Pile("waste", "waste", "the waste", 0, 1, "cards from the stock"))
        return Table(rows=1, cols=2, piles=piles, card_count=52)

    def reveals(self, position: Any, move: Any) -> bool:
        return True

    def achievements(self, position: Any) -> list[str]:
        return ["grand-tomb"] if position.status is Status.WON else []


def register_fake_game(monkeypatch: pytest.MonkeyPatch) -> FakeGame:
    """The made-up game in the registry until the test ends."""
    game = FakeGame()
    monkeypatch.setitem(patience.GAMES, game.slug, game)  # type: ignore[arg-type]
    monkeypatch.setitem(patience._GAME_OF_VARIANT, "fake-three", game)  # type: ignore[arg-type]
    return game


@pytest.fixture(autouse=True)
def fake_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGame]:
    yield register_fake_game(monkeypatch)


def test_a_registered_game_is_played_and_its_win_earns_its_achievement(alice: Browser) -> None:
    response = alice.post("/api/games/", {"game": "fake-tomb", "variant": "fake-three",
                                          "deal": EASY_DEAL})
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["game"] == {"slug": "fake-tomb", "name": "Fake Tomb"}
    assert game["variant"] == {"slug": "fake-three", "name": "Fake three"}
    assert [pile["name"] for pile in game["table"]["piles"]] == ["stock", "waste"]

    for move in winning_line(EASY_DEAL):
        played = alice.move(game["id"], move)
        assert played.status_code == 200, played.content

    won = played.json()
    assert won["status"] == "won" and won["achievements"] == ["grand-tomb"]
    assert Game.objects.get(pk=game["id"]).achievements == "grand-tomb"


def test_a_variant_alone_names_its_game(alice: Browser) -> None:
    game = alice.post("/api/games/", {"variant": "fake-three", "deal": 3}).json()
    assert game["game"]["slug"] == "fake-tomb"


def test_its_pages_and_catalog_need_no_change(alice: Browser) -> None:
    assert alice.get("/fake-tomb/fake-three/").status_code == 200
    assert alice.get("/fake-tomb/fake-three/?deal=1000").status_code == 200
    rules = alice.get("/fake-tomb/rules/")
    assert rules.status_code == 200 and "How to play Fake Tomb" in rules.content.decode()
    moved = alice.get("/fake-tomb/?deal=4")
    assert (moved.status_code, moved["Location"]) == (301, "/fake-tomb/fake-three/?deal=4")

    catalog = {game["slug"]: game for game in alice.get("/api/catalog/").json()}
    assert catalog["fake-tomb"]["max_deal"] == 1000
    assert [variant["slug"] for variant in catalog["fake-tomb"]["variants"]] == ["fake-three"]
    assert catalog["napoleons-tomb"]["variants"][0]["table"]["card_count"] == 52


def test_stats_name_the_game_and_filter_by_it(alice: Browser) -> None:
    alice.post("/api/games/", {"variant": "fake-three", "deal": 3})
    stats = alice.get("/api/stats/?game=fake-tomb").json()
    assert stats["wins"] == {"fake-three": 0}
    assert [(row["game"], row["variant"]) for row in stats["free_play"]] == [
        ("fake-tomb", "fake-three")]
    everything = alice.get("/api/stats/").json()
    assert {"three-card", "classic", "fake-three"} <= set(everything["wins"])


def test_a_ranked_game_never_undoes_a_move_its_game_says_showed_a_card(carol: User) -> None:
    player = actions.Player(user_id=carol.pk)
    game = actions.do_create_game(player, FAKE_THREE, TOMB.deal_from_number(EASY_DEAL),
                                  ranked=True)
    move = winning_line(EASY_DEAL)[0]
    actions.do_move(game["id"], player, move)

    with pytest.raises(actions.NotAllowedNow, match="showed a new card"):
        actions.do_undo(game["id"], player)
    assert Game.objects.get(pk=game["id"]).log == move


# -- hostile addresses and bodies ----------------------------------------------

@pytest.mark.parametrize("url", [
    "/no-such-game/three-card/",       # no such game
    "/napoleons-tomb/no-such-variant/",
    "/fake-tomb/classic/",             # a variant of another game
    "/napoleons-tomb/fake-three/",
    "/no-such-game/rules/",
    "/no-such-game/",
    "/NAPOLEONS-TOMB/classic/",
    "/" + "a" * 5000 + "/classic/",
])
def test_a_page_naming_no_game_or_anothers_variant_is_a_404(alice: Browser, url: str) -> None:
    assert alice.get(url).status_code == 404


@pytest.mark.parametrize("query", [
    "deal=0", "deal=1001", "deal=" + "9" * 400, "deal=-4", "deal=1.5", "deal=%C2%B2",
])
def test_a_bad_deal_in_a_page_address_is_a_400(alice: Browser, query: str) -> None:
    response = alice.get(f"/fake-tomb/fake-three/?{query}")
    assert response.status_code == 400 and len(response.content) < 300


def test_a_deal_is_checked_against_its_own_games_range(alice: Browser) -> None:
    assert alice.get("/napoleons-tomb/classic/?deal=5000").status_code == 200
    assert alice.post("/api/games/", {"variant": "classic", "deal": 5000}).status_code == 201
    refused = alice.post("/api/games/", {"variant": "fake-three", "deal": 5000})
    assert refused.status_code == 400 and "1 to 1,000" in refused.json()["error"]


@pytest.mark.parametrize("body", [
    {"game": "no-such-game"},
    {"game": "fake-tomb", "variant": "classic"},
    {"game": "napoleons-tomb", "variant": "fake-three"},
    {"game": ["napoleons-tomb"]},
    {"game": {"slug": "napoleons-tomb"}},
    {"game": 7},
    {"game": ""},
    {"game": "x" * 100_000},
    {"variant": "classic", "deal": 10**30},
    {"variant": "classic", "deal": "9" * 5000},
    {"variant": "classic", "deal": -1},
])
def test_a_new_game_naming_no_game_or_a_mismatch_is_a_400(alice: Browser, body: Any) -> None:
    response = alice.post("/api/games/", body)
    assert response.status_code == 400, response.content
    assert "error" in response.json() and len(response.content) < 400


@pytest.mark.parametrize("url, status", [
    ("/api/stats/?game=no-such-game", 404),
    ("/api/stats/?game=" + "x" * 3000, 404),
    ("/api/games/resume/?game=no-such-game", 400),
    # Both registered (the fake game is, in this module), not each other's: not found.
    ("/api/games/resume/?game=napoleons-tomb&variant=fake-three", 404),
    ("/api/games/resume/?variant=no-such-variant", 400),
])
def test_api_queries_naming_no_game_are_json_4xx(alice: Browser, url: str, status: int) -> None:
    response = alice.get(url)
    assert response.status_code == status and "error" in response.json()


def test_the_old_addresses_still_work(alice: Browser) -> None:
    assert alice.get("/").status_code == 200
    assert alice.get("/rules/").status_code == 200
    assert alice.get("/napoleons-tomb/rules/").status_code == 200
    moved = alice.get("/napoleons-tomb/")
    assert (moved.status_code, moved["Location"]) == (301, "/napoleons-tomb/three-card/")
    page = alice.get("/napoleons-tomb/classic/?deal=7")
    assert page.status_code == 200 and page.context["deal"] == 7
    assert page.context["game"]["slug"] == "napoleons-tomb"
    assert page.context["default_variant"] == "classic"


def test_addresses_are_made_from_a_game_and_a_variant_or_their_slugs(
    fake_game: FakeGame,
) -> None:
    from django.urls import NoReverseMatch, reverse

    assert reverse("play-variant", args=[fake_game, FAKE_THREE]) == "/fake-tomb/fake-three/"
    assert reverse("game-rules", args=["napoleons-tomb"]) == "/napoleons-tomb/rules/"
    with pytest.raises(NoReverseMatch):
        reverse("play-variant", args=["no-such-game", "classic"])
