"""What players found on the pages: names, not slugs; one count of moves; a first visit's
statistics; the keys and no command lines on the rules pages."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

import patience
from game.models import FreePlayStats, Game
from leaderboards.boards import share_text
from leaderboards.models import Daily, PlayerStats

from .conftest import EASY_DEAL, Browser
from .lines import winning_line

pytestmark = pytest.mark.django_db
# The slugs no name reads like ("classic" and "cross" are words of their names too).
SLUGS = [slug for game in patience.GAMES.values() for slug in game.variants if "-" in slug]


def text_of(html: str) -> str:
    """The words a reader sees: no tags, no attributes (where slugs may stand)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# -- names, not slugs -----------------------------------------------------------

def test_st_helena_is_named_once_on_my_statistics(carol: User, carol_browser: Browser) -> None:
    FreePlayStats.objects.create(owner=carol, variant="st-helena", games=2, wins=1)
    PlayerStats.objects.create(user=carol, variant="st-helena", games=1, wins=1, win_rate=1)

    page = carol_browser.get("/me/stats/").content.decode()

    # Its game's heading names it, in free play and in the ranked dailies: never twice.
    assert '<h3 id="free-game-st-helena" class="game-name">St. Helena</h3>' in page
    assert '<h2 id="game-st-helena" class="game-name">St. Helena</h2>' in page
    assert 'id="free-st-helena"' not in page and 'id="stats-st-helena"' not in page
    assert "St. Helena St. Helena" not in text_of(page)
    assert 'aria-labelledby="free-game-st-helena"' in page  # the section is still named


@pytest.mark.parametrize("language", ["en", "ru", "fi"])
def test_every_share_line_names_its_variant_not_its_slug(language: str) -> None:
    start = datetime(2026, 11, 29, 8, tzinfo=UTC)
    game = Game(status="won", home=52, moves=3, hints=0, started_at=start,
                finished_at=start + timedelta(seconds=4))
    for slug in SLUGS:
        with translation.override(language):
            line = share_text(Daily(date=date(2026, 11, 29), variant=slug), game)
        assert line and slug not in line, (language, line)


# -- one count of moves ---------------------------------------------------------

def test_a_win_counts_the_moves_on_its_line_as_the_board_shows_them(alice: Browser) -> None:
    """82 on the win, 84 as the record: undone moves counted in one and not the other.
    Now the game, the board's figure and the record count the line, undos apart."""
    line = winning_line(EASY_DEAL)
    game = alice.new_game(EASY_DEAL)
    for move in line[:3]:
        alice.move(game["id"], move)
    undone = alice.post(f"/api/games/{game['id']}/undo/").json()
    assert undone["moves"] == undone["state"]["moves"] == 2 and undone["undos"] == 1
    for move in line[2:]:
        won = alice.move(game["id"], move).json()

    assert won["status"] == "won"
    assert won["moves"] == won["state"]["moves"] == len(line)  # the dialog reads state.moves
    assert won["undos"] == 1
    assert won["free_play"]["fewest_moves"] == len(line) and "moves" in won["free_play"]["new_best"]
    stats = alice.get("/api/stats/?game=napoleons-tomb").json()["free_play"]
    record = next(row for row in stats if row["variant"] == "three-card")
    assert record["records"]["any"]["fewest_moves"] == len(line)


# -- a first visit to My statistics ---------------------------------------------

def test_a_new_accounts_statistics_welcome_it_to_a_first_game(carol_browser: Browser) -> None:
    page = carol_browser.get("/me/stats/").content.decode()

    assert "Your statistics start with your first game" in page
    assert 'class="button primary" href="/">Play a first game</a>' in page
    assert re.search(r'href="/daily/">Try today(&#x27;|\')s daily</a>', page)
    # No figures of games never played: no zeros, no calendar, no empty races.
    for absent in ('id="calendars"', "Dailies played (ranked)", "Win rate", 'class="races',
                   "Free play and ranked dailies are counted apart"):
        assert absent not in page, absent


def test_a_new_visitors_statistics_welcome_them_and_offer_an_account(alice: Browser) -> None:
    page = alice.get("/me/stats/").content.decode()

    assert "Play a first game" in page and "/accounts/signup/?next=/me/stats/" in page
    assert "Win rate" not in page and 'class="free-variant"' not in page


def test_statistics_show_only_the_variants_played(carol: User, carol_browser: Browser) -> None:
    FreePlayStats.objects.create(owner=carol, variant="classic", games=3, wins=1)

    page = carol_browser.get("/me/stats/").content.decode()

    assert 'id="free-classic"' in page and "Your statistics start" not in page
    assert 'id="free-three-card"' not in page and 'id="free-game-klondike"' not in page
    # No ranked daily yet: a line that leads to one, not a calendar of empty months.
    assert 'id="calendars"' not in page and "No ranked daily played yet" in page


# -- the rules pages: the keys, and no command lines ------------------------------

def test_the_keys_name_finish(alice: Browser) -> None:
    page = alice.get("/rules/").content.decode()
    keys = page[page.index('id="keys"'):page.index('id="faq"')]

    assert "<kbd>F</kbd>" in keys and "finish" in keys


@pytest.mark.parametrize("url", ["/", "/rules/", *(f"/{slug}/rules/" for slug in patience.GAMES)])
def test_players_see_no_command_lines(alice: Browser, url: str) -> None:
    page = alice.get(url).content.decode()

    assert "python -m" not in page and "scripts/" not in page and "--variant" not in page


# -- the player's own row, in the page's language ---------------------------------

@pytest.mark.parametrize(("language", "you"), [("en", "(you)"), ("ru", "(вы)"), ("fi", "(sinä)")])
def test_the_boards_say_you_in_the_page_s_language(
        carol_browser: Browser, screened: Any, language: str, you: str) -> None:
    carol_browser.post("/api/daily/three-card/play/")  # on today's board
    carol_browser.client.cookies["django_language"] = language

    boards = carol_browser.get("/napoleons-tomb/three-card/boards/").content.decode()
    daily = carol_browser.get("/napoleons-tomb/three-card/daily/").content.decode()

    for page in (boards, daily):
        assert f'<th scope="row">carol<span class="you"> {you}</span></th>' in page, language
    styles = (Path(__file__).resolve().parents[2] / "frontend/static/tomb/pages.css").read_text()
    assert "(you)" not in styles  # no word written by the stylesheet, in English only
