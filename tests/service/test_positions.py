"""Positions kept between moves (game.positions): a move is not a replay of the game.

A game of N moves used to cost N^2/2 rule applications (each move replayed the
log); with the kept position it costs about N. The kept position is used only
for the version it was stored at: another writer's move (another server
process) makes this process replay, and a refused action leaves nothing kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from game import actions
from game.models import Game
from game.positions import POSITIONS, PositionCache
from patience.tomb import CLASSIC, THREE_CARD, Position, deal_from_number

from .conftest import EASY_DEAL
from .lines import winning_line

MOVES = 60


def carol_of(user: User) -> actions.Player:
    return actions.Player(user_id=user.pk)


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    POSITIONS.clear()
    yield
    POSITIONS.clear()


class Counts:
    applies = 0
    replays = 0


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counts:
    """Counts every rule application (Position.apply) and every replay of a game's log."""
    counts = Counts()
    apply, position = Position.apply, Game.position

    def counting_apply(self: Position, move: Any) -> None:
        counts.applies += 1
        apply(self, move)

    def counting_position(self: Game) -> Any:
        counts.replays += 1
        return position(self)

    monkeypatch.setattr(Position, "apply", counting_apply)
    monkeypatch.setattr(Game, "position", counting_position)
    return counts


def play(game_id: str, player: actions.Player, moves: tuple[str, ...], commit: Any) -> None:
    """Each move in a transaction of its own whose on-commit work runs, as in production."""
    for move in moves:
        with commit(execute=True):
            actions.do_move(game_id, player, move)


def test_n_moves_cost_n_applications_not_a_replay_each(
    carol: User, counted: Counts, django_capture_on_commit_callbacks: Any
) -> None:
    game = actions.do_create_game(carol_of(carol), THREE_CARD, deal_from_number(EASY_DEAL))
    line = winning_line(EASY_DEAL)[:MOVES]
    counted.applies = 0  # not the solver's, which found the line

    play(game["id"], carol_of(carol), line, django_capture_on_commit_callbacks)

    # The first move replays the empty log; then about one application per move (the
    # view's finishing-line check may try one on a copy). The old way replayed the log
    # every move: 1 + 2 + ... + 60 = 1830 applications.
    assert counted.replays == 1 and MOVES <= counted.applies <= 2 * MOVES
    assert Game.objects.get(pk=game["id"]).log == " ".join(line)
    assert POSITIONS.hits == MOVES - 1


def test_without_the_kept_position_every_move_replays(
    carol: User, carol_game: dict[str, Any], counted: Counts
) -> None:
    # No on-commit work runs here (the test's transaction never commits): nothing is
    # kept, so this is the old cost, and what a cold cache falls back to.
    line = winning_line(EASY_DEAL)[:10]
    counted.applies = 0  # not the solver's, which found the line
    for move in line:
        actions.do_move(carol_game["id"], carol_of(carol), move)
    assert counted.replays == 10 and counted.applies == sum(range(1, 11))


def test_another_writers_move_is_never_overwritten_by_a_stale_position(
    carol: User, carol_game: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    player = carol_of(carol)
    play(carol_game["id"], player, ("D",), django_capture_on_commit_callbacks)
    assert len(POSITIONS) == 1  # this process keeps version 1: "D"
    # Another server process plays a second D: the row is at version 2, this cache
    # still holds version 1.
    Game.objects.filter(pk=carol_game["id"]).update(log="D D", version=2, moves=2)

    with django_capture_on_commit_callbacks(execute=True):
        game = actions.do_move(carol_game["id"], player, "D")

    assert game["state"]["log"] == ["D", "D", "D"] and game["state"]["stock_count"] == 43
    assert POSITIONS.hits == 0  # version 1's position was not used
    assert Game.objects.get(pk=carol_game["id"]).log == "D D D"


def test_a_refused_action_leaves_no_position_behind(
    carol: User, carol_game: dict[str, Any], django_capture_on_commit_callbacks: Any,
    counted: Counts,
) -> None:
    player = carol_of(carol)
    play(carol_game["id"], player, ("D",), django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(actions.NotAllowedNow):
        actions.do_move(carol_game["id"], player, "R")  # the stock is not empty

    assert len(POSITIONS) == 0
    replays = counted.replays
    game = actions.do_move(carol_game["id"], player, "D")
    assert counted.replays == replays + 1 and game["state"]["log"] == ["D", "D"]


def test_a_refused_ranked_undo_does_not_spoil_the_kept_position(
    carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    player = carol_of(carol)
    game = actions.do_create_game(player, CLASSIC, deal_from_number(7), ranked=True)
    play(game["id"], player, ("D",), django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(actions.NotAllowedNow):
        actions.do_undo(game["id"], player)  # D showed a card: not in a ranked game

    with django_capture_on_commit_callbacks(execute=True):
        after = actions.do_move(game["id"], player, "D")
    assert after["state"]["log"] == ["D", "D"] and after["state"]["stock_count"] == 50


def test_undo_and_finish_use_and_keep_the_position(
    carol: User, carol_game: dict[str, Any], django_capture_on_commit_callbacks: Any,
    counted: Counts,
) -> None:
    player = carol_of(carol)
    play(carol_game["id"], player, ("D", "D"), django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        game = actions.do_undo(carol_game["id"], player)
    with django_capture_on_commit_callbacks(execute=True):
        game = actions.do_move(carol_game["id"], player, "D")

    assert counted.replays == 1  # the first move's, from the game made outside the cache
    assert game["state"]["log"] == ["D", "D"] and game["undos"] == 1


def test_the_hint_gets_a_copy_and_the_kept_position_stays_the_games(
    carol: User, carol_game: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _, position = actions.do_count_hint(carol_game["id"], carol_of(carol))
    kept = POSITIONS.take(carol_game["id"], 1)
    assert kept is not None and kept is not position
    position.apply(position.legal_moves()[0])  # what a solver does to its position
    assert kept.moves == []


def test_the_cache_is_bounded_oldest_out() -> None:
    cache = PositionCache(size=2)
    ids = ["00000000-0000-4000-8000-00000000000" + str(n) for n in range(3)]
    for number, game_id in enumerate(ids):
        cache.keep(game_id, 1, number)
    assert len(cache) == 2 and cache.take(ids[0], 1) is None
    assert cache.take(ids[2], 1) == 2 and cache.take(ids[2], 1) is None  # taken: gone

