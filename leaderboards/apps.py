from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects actions.attempts.record_attempt to game.hooks.game_stored (Django's
        # way: the models must be loaded before the module that uses them).
        from . import actions  # noqa: F401
