"""A ranked attempt's moves are its game's (game 0008 recounted those on the line, an
undone move not): the attempts stored before copy them again, so one day's board ranks
every result by the same count."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def copy_the_games_moves(apps, schema_editor):
    Attempt = apps.get_model("leaderboards", "Attempt")
    Game = apps.get_model("game", "Game")
    moves = Game.objects.filter(pk=OuterRef("game_id")).values("moves")[:1]
    Attempt.objects.filter(game__undos__gt=0).update(moves=Subquery(moves))


class Migration(migrations.Migration):

    dependencies = [
        ("leaderboards", "0007_attempt_judged"),
        ("game", "0008_game_moves_on_the_line"),
    ]

    operations = [
        migrations.RunPython(copy_the_games_moves, migrations.RunPython.noop),
    ]
