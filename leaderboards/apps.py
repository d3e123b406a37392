from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects actions.attempts.record_attempt to game.hooks.game_stored, and
        # reviewing.ask_for_judgement to hooks.ranked_result_ended (Django's way: the
        # models must be loaded before the modules that use them).
        from . import actions, reviewing  # noqa: F401
