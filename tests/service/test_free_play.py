"""Free-play statistics and records, and the "winnable deals only" option.

Games are played through the real API (and the real solver's winning lines); the
counting rules are game.freeplay's docstring: a game counts once, at its first end;
a new deal abandoning a started game counts it lost; records are filed per kind of
deal; dailies and ranked attempts are not free play.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from game import actions, freeplay
from game.models import FreePlayStats, Game
from patience.tomb import CLASSIC, THREE_CARD, Status, new_game, parse_moves

from .conftest import EASY_DEAL, Browser, Clock
from .lines import winning_line
from .test_accounts import form

pytestmark = pytest.mark.django_db
LOST_CLASSIC = 1  # proved lost by two searches (SOLVER-NOTES.md): any play of it loses


def win(browser: Browser, deal: int = EASY_DEAL, *, clock: Clock | None = None,
        seconds: float = 0) -> dict[str, Any]:
    """Play a deal to a win through the API; with a clock, the win takes ``seconds``."""
    game = browser.new_game(deal)
    return finish(browser, game, winning_line(deal), clock=clock, seconds=seconds)


def finish(browser: Browser, game: dict[str, Any], line: tuple[str, ...], *,
           clock: Clock | None = None, seconds: float = 0) -> dict[str, Any]:
    for number, move in enumerate(line):
        if clock is not None and number == len(line) - 1:
            clock.tick(seconds)
        response = browser.move(game["id"], move)
        assert response.status_code == 200, response.content
    result: dict[str, Any] = response.json()
    assert result["status"] == "won"
    return result


def lose(browser: Browser) -> dict[str, Any]:
    """The proved-lost classic deal played out (a card home if it fits, else park, else
    turn) until no move is left."""
    game = browser.new_game(LOST_CLASSIC, variant="classic")
    while game["status"] == "playing":
        legal = game["state"]["legal"]
        move = next((m for m in legal if m.startswith("F")),
                    next((m for m in legal if m.startswith("C")), "D"))
        game = browser.move(game["id"], move).json()
    assert game["status"] == "lost"
    return game


def stats_of(browser: Browser, variant: str = "three-card") -> dict[str, Any]:
    rows = browser.get("/api/stats/").json()["free_play"]
    return dict(next(row for row in rows if row["variant"] == variant))


# -- counting ----------------------------------------------------------------------

def test_a_win_counts_and_sets_both_records(alice: Browser, clock: Clock) -> None:
    won = win(alice, clock=clock, seconds=95)

    figures = won["free_play"]
    assert figures == {
        "games": 1, "wins": 1, "win_rate": 1.0, "streak": 1, "best_streak": 1,
        "fastest_ms": 95_000, "fewest_moves": won["moves"], "new_best": ["time", "moves"],
        "best_score": None, "score": None,
        "winnable_only": False,
    }
    assert won["deal_kind"] == "number"
    assert alice.get(f"/api/games/{won['id']}/").json()["free_play"] == figures


def test_a_loss_counts_and_breaks_the_streak(alice: Browser) -> None:
    win(alice)
    lost = lose(alice)

    assert lost["free_play"]["games"] == 1 and lost["free_play"]["wins"] == 0
    assert lost["free_play"]["streak"] == 0 and lost["free_play"]["new_best"] == []
    assert stats_of(alice)["streak"] == 1  # each variant keeps its own
    assert stats_of(alice, "classic")["win_rate"] == 0


def test_streaks_count_wins_in_a_row(alice: Browser) -> None:
    win(alice)
    win(alice)
    game = alice.new_game(3)
    alice.move(game["id"], "D")
    alice.new_game(4)  # abandons deal 3: counted as played and not won
    last = win(alice)

    assert last["free_play"]["streak"] == 1 and last["free_play"]["best_streak"] == 2
    assert (last["free_play"]["games"], last["free_play"]["wins"]) == (4, 3)
    assert last["free_play"]["win_rate"] == 0.75


def test_a_deal_without_moves_left_behind_is_not_counted(alice: Browser) -> None:
    alice.new_game(3)
    alice.new_game(4)

    assert stats_of(alice)["games"] == 0


def test_records_only_improve_and_say_which_they_beat(alice: Browser, clock: Clock) -> None:
    first = win(alice, clock=clock, seconds=120)
    slower = win(alice, clock=clock, seconds=200)
    faster = win(alice, clock=clock, seconds=60)

    assert slower["free_play"]["new_best"] == [] and slower["free_play"]["fastest_ms"] == 120_000
    assert faster["free_play"]["new_best"] == ["time"]
    assert faster["free_play"]["fastest_ms"] == 60_000
    assert faster["free_play"]["fewest_moves"] == first["moves"]


def test_winnable_records_are_kept_apart(alice: Browser, clock: Clock) -> None:
    win(alice, clock=clock, seconds=30)
    game = alice.post("/api/games/", {"variant": "three-card", "winnable": True}).json()
    line = tuple(freeplay.winnable_lines("three-card")[game["deal"]].split())
    won = finish(alice, game, line, clock=clock, seconds=300)

    assert won["deal_kind"] == "winnable"
    figures = won["free_play"]
    assert figures["winnable_only"] is True and figures["fastest_ms"] == 300_000
    assert figures["new_best"] == ["time", "moves"]  # the first winnable win
    assert (figures["games"], figures["wins"], figures["streak"]) == (2, 2, 2)
    records = stats_of(alice)["records"]
    assert records["any"]["fastest_ms"] == 30_000
    assert records["winnable"] == {"fastest_ms": 300_000, "fewest_moves": won["moves"],
                                   "best_score": None}


def test_a_game_counts_once_whatever_comes_after_its_end(alice: Browser) -> None:
    won = win(alice)
    again = alice.move(won["id"], winning_line(EASY_DEAL)[-1])  # the request sent twice
    undone = alice.post(f"/api/games/{won['id']}/undo/").json()
    rewon = alice.move(won["id"], winning_line(EASY_DEAL)[-1]).json()

    assert again.status_code == 409
    assert undone["status"] == "playing" and undone["free_play"] is None
    assert rewon["free_play"]["games"] == 1 and rewon["free_play"]["wins"] == 1
    assert stats_of(alice)["games"] == 1
    alice.new_game(5)  # a counted game left after an undo is not counted again
    assert stats_of(alice)["games"] == 1


def test_dailies_and_ranked_attempts_are_not_free_play(
    carol_browser: Browser, carol: User, todays_daily: Any
) -> None:
    from .lines import seeded_line

    started = carol_browser.post("/api/daily/three-card/play/").json()
    for move in seeded_line(todays_daily.seed):
        last = carol_browser.move(started["id"], move)
    ranked = last.json()

    assert ranked["status"] == "won" and ranked["ranked"] is True
    assert ranked["deal_kind"] == "daily" and ranked["free_play"] is None
    assert stats_of(carol_browser)["games"] == 0
    carol_browser.new_game(3)  # a daily left unfinished is never "abandoned" either
    assert not FreePlayStats.objects.filter(owner=carol).exists()


def test_a_visitors_figures_follow_them_into_their_new_account(alice: Browser) -> None:
    win(alice)
    lose(alice)
    response = form(alice, "/accounts/signup/", {
        "username": "newcomer", "password1": "tomb-of-the-emperor-1821",
        "password2": "tomb-of-the-emperor-1821"})
    assert response.status_code == 302

    assert stats_of(alice)["wins"] == 1 and stats_of(alice, "classic")["games"] == 1
    user = User.objects.get(username="newcomer")
    assert FreePlayStats.objects.filter(owner=user).count() == 2
    assert not FreePlayStats.objects.filter(owner=None).exists()


def test_logging_in_merges_a_visitors_figures_with_the_accounts(
    alice: Browser, carol: User, clock: Clock
) -> None:
    carol_player = actions.Player(user_id=carol.pk)
    game = actions.do_create_game(carol_player, THREE_CARD, new_game(EASY_DEAL).deal)
    moves = parse_moves(" ".join(winning_line(EASY_DEAL)))
    for move in moves[:-1]:
        actions.do_move(game["id"], carol_player, move)
    clock.tick(50)
    actions.do_move(game["id"], carol_player, moves[-1])  # carol's: 50 s
    clock.tick(60)
    win(alice, clock=clock, seconds=40)  # the visitor's, later: 40 s, then 70 s
    win(alice, clock=clock, seconds=70)

    assert form(alice, "/accounts/login/", {"username": "carol",
                                            "password": "tomb-of-the-emperor"}).status_code == 302

    mine = stats_of(alice)
    assert (mine["games"], mine["wins"], mine["streak"], mine["best_streak"]) == (3, 3, 2, 2)
    assert mine["records"]["any"]["fastest_ms"] == 40_000
    assert FreePlayStats.objects.filter(owner=carol).count() == 1


def test_my_figures_are_mine_only(alice: Browser, bob: Browser) -> None:
    win(alice)

    assert stats_of(bob)["games"] == 0


# -- winnable deals only -------------------------------------------------------------

@pytest.mark.parametrize("variant", ["three-card", "classic"])
def test_a_winnable_deal_comes_from_the_proved_list(alice: Browser, variant: str) -> None:
    for _ in range(5):
        response = alice.post("/api/games/", {"variant": variant, "winnable": True})
        assert response.status_code == 201
        game = response.json()
        assert game["deal"] in freeplay.winnable_lines(variant)
        assert game["deal_kind"] == "winnable" and game["variant"]["slug"] == variant
        assert Game.objects.get(pk=game["id"]).winnable is True


@pytest.mark.parametrize("body", [
    {"winnable": True, "deal": 7},
    {"winnable": "yes"},
    {"winnable": 1},
    {"winnable": None},
])
def test_a_bad_winnable_request_is_a_clear_400(alice: Browser, body: dict[str, Any]) -> None:
    response = alice.post("/api/games/", body)

    assert response.status_code == 400 and "winnable" in response.json()["error"]
    assert not Game.objects.exists()


def test_winnable_false_is_an_ordinary_deal(alice: Browser) -> None:
    game = alice.post("/api/games/", {"deal": 7, "winnable": False}).json()

    assert (game["deal"], game["deal_kind"]) == (7, "number")


@pytest.mark.parametrize("variant", [THREE_CARD, CLASSIC], ids=lambda v: v.slug)
def test_the_proved_list_is_large_and_its_lines_really_win(variant: Any) -> None:
    lines = freeplay.winnable_lines(variant.slug)
    assert len(lines) >= 300
    # Every line was replayed when the file was made; a sample is replayed again here
    # with the engine, so the file cannot drift from the rules.
    for deal in random.Random(7).sample(sorted(lines), 40):
        position = new_game(deal, variant)
        for move in parse_moves(lines[deal]):
            position.apply(move)
        assert position.status is Status.WON, deal
