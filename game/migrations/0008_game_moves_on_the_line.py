"""Game.moves counts the moves on the line, as the board and the win show: the games
stored before count again from their log (one move a word), an undone move not."""

from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Length, Replace


def count_the_line(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    words = Length("log") - Length(Replace("log", Value(" "), Value(""))) + 1
    Game.objects.exclude(log="").update(moves=words)
    Game.objects.filter(log="").update(moves=0)


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
