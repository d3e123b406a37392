"""The migrations that recount a game's moves as those on its line (game 0008) and copy
them onto its ranked attempt (leaderboards 0008), run forwards on rows stored before."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("game", "0007_game_score"), ("leaderboards", "0007_attempt_judged")]
AFTER = [("game", "0008_game_moves_on_the_line"),
         ("leaderboards", "0008_attempt_moves_on_the_line")]


def migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_stored_games_and_attempts_count_the_moves_on_their_line() -> None:
    apps = migrate(BEFORE)
    Game, Daily = apps.get_model("game", "Game"), apps.get_model("leaderboards", "Daily")
    Attempt, User = apps.get_model("leaderboards", "Attempt"), apps.get_model("auth", "User")
    player = User.objects.create(username="mover")
    daily = Daily.objects.create(date=date(2026, 1, 1), variant="three-card", seed=7,
                                 candidate=0)
    # Played 5, undid 2: three on the line. Played 4, undid none. Undid back to the start.
    undone = Game.objects.create(variant="three-card", cards="x", log="D 3-C D", moves=5,
                                 undos=2, ranked=True, owner=player)
    straight = Game.objects.create(variant="three-card", cards="x", log="D D 1-C D",
                                   moves=4, undos=0)
    emptied = Game.objects.create(variant="three-card", cards="x", log="", moves=2, undos=2)
    attempt = Attempt.objects.create(daily=daily, game=undone, user=player, ranked=True,
                                     moves=5, undos=2)

    apps = migrate(AFTER)
    Game, Attempt = apps.get_model("game", "Game"), apps.get_model("leaderboards", "Attempt")
    moves = dict(Game.objects.values_list("pk", "moves"))
    assert (moves[undone.pk], moves[straight.pk], moves[emptied.pk]) == (3, 4, 0)
    assert Attempt.objects.get(pk=attempt.pk).moves == 3
