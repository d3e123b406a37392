"""Game.moves counts the moves on the line, as the board and the win show: the games
stored before count again from their log (one move a word), an undone move not."""

from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Length, Replace


def count_the_line(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    # Only a game with an undo counted differently: with none, every move played is on
    # the line (Finish's too), so the rows left alone are already right.
    undone = Game.objects.filter(undos__gt=0)
    words = Length("log") - Length(Replace("log", Value(" "), Value(""))) + 1
    undone.exclude(log="").update(moves=words)
    undone.filter(log="").update(moves=0)


class Migration(migrations.Migration):

    dependencies = [
        ('game', '0007_game_score'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='moves',
            field=models.PositiveIntegerField(default=0, help_text='moves on the line, undone ones not counted (undos counts those)'),
        ),
        migrations.RunPython(count_the_line, migrations.RunPython.noop),
    ]
