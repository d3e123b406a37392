from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the receiver of game.hooks.game_stored.
        from . import results  # noqa: F401
