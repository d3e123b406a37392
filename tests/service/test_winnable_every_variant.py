""""Winnable deals only" for every variant: each ships proved deals whose lines win, the
play page says which variants have them, and a variant without any is refused with a
clear 409 in the player's language that names the game once."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from game import freeplay
from game.models import Game
from patience import GAMES, Status, all_variants, rules_of
from solver_worker.book import book_of

from .conftest import Browser

pytestmark = pytest.mark.django_db
VARIANTS = [variant.slug for _, variant in all_variants()]


def test_every_variant_the_book_has_won_ships_its_proved_deals() -> None:
    """A variant whose book of solved deals has won ones offers "Winnable only" (the
    script lists them, --from-book); one with neither is simply not offered."""
    for variant in VARIANTS:
        won = sum(entry.result == "won" for entry in book_of(variant).values())
        assert len(freeplay.winnable_lines(variant)) >= min(won, 200), variant
    assert {"cross", "st-helena"} <= {v for v in VARIANTS if freeplay.offers_winnable(v)}


@pytest.mark.parametrize("variant", [v for v in VARIANTS if freeplay.offers_winnable(v)])
def test_every_proved_line_that_ships_wins(variant: str) -> None:
    lines = freeplay.winnable_lines(variant)
    rules = rules_of(variant)
    # The file's lines were replayed when it was made; a sample is replayed again here.
    for deal in random.Random(variant).sample(sorted(lines), 15):
        position = rules.new_game(deal, variant)
        for move in rules.parse_moves(lines[deal]):
            position.apply(move)
        assert position.status is Status.WON, (variant, deal)


@pytest.mark.parametrize("variant", VARIANTS)
def test_winnable_only_deals_a_proved_deal_or_says_there_is_none(
        alice: Browser, variant: str) -> None:
    response = alice.post("/api/games/", {"variant": variant, "winnable": True})

    if not freeplay.offers_winnable(variant):
        assert response.status_code == 409 and "proved winnable" in response.json()["error"]
        return
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["deal_kind"] == "winnable" and game["deal"] in freeplay.winnable_lines(variant)


def play_page(client: Client, game: str) -> str:
    return client.get(f"/{game}/{GAMES[game].default_variant.slug}/").content.decode()


def offered_on(html: str) -> tuple[list[str], dict[str, int]]:
    """The page's word on "Winnable only": the early script's list, each option's count."""
    early = re.search(r"const proved = (\[[^\]]*\]);", html)
    assert early, "the page's early script names no proved variants"
    counts = {slug: int(count) for slug, count in
              re.findall(r'<option value="([^"]+)" data-proved="(\d+)"', html)}
    return json.loads(early.group(1)), counts


@pytest.mark.parametrize("game", list(GAMES))
def test_the_play_page_says_which_variants_have_proved_deals(alice: Browser, game: str) -> None:
    slugs, counts = offered_on(play_page(alice.client, game))

    assert counts == {slug: len(freeplay.winnable_lines(slug)) for slug in GAMES[game].variants}
    assert slugs == [slug for slug, count in counts.items() if count]


@pytest.fixture
def only_classic(settings: Any, tmp_path: Path) -> Path:
    """A server whose proved deals are the classic ones only."""
    shipped = Path(settings.WINNABLE_DEALS_DIR) / "classic.txt"
    (tmp_path / "classic.txt").write_text(shipped.read_text())
    settings.WINNABLE_DEALS_DIR = tmp_path
    return tmp_path


def test_a_variant_without_proved_deals_is_not_offered(alice: Browser, only_classic: Path) -> None:
    slugs, counts = offered_on(play_page(alice.client, "napoleons-tomb"))

    assert slugs == ["classic"]
    classic = len(freeplay.winnable_lines("classic"))
    assert counts == {"three-card": 0, "classic": classic, "cross": 0}


@pytest.mark.parametrize(("variant", "language", "name"), [
    ("st-helena", "en", "St. Helena"),
    ("st-helena", "ru", "Остров Святой Елены"),
    ("st-helena", "fi", "Pyhä Helena"),
    ("cross", "en", "Napoleon's Tomb, traditional cross"),
    ("cross", "ru", "Гробница Наполеона, традиционный крест"),
    ("cross", "fi", "Napoleonin hauta, perinteinen risti"),
])
def test_a_refused_winnable_deal_is_a_clear_409_naming_the_game_once(
        only_classic: Path, variant: str, language: str, name: str) -> None:
    browser = Browser()
    browser.client.cookies["django_language"] = language

    response = browser.post("/api/games/", {"variant": variant, "winnable": True})

    assert response.status_code == 409
    message = response.json()["error"]
    assert message.count(name) == 1, message
    words = {"en": "proved winnable", "ru": "доказанно выигрышного", "fi": "todistetusti ratkeavaa"}
    assert words[language] in message, message
    assert message[0].isupper() and message.endswith(".")
    assert not Game.objects.exists()
