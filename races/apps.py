from django.apps import AppConfig


class RacesConfig(AppConfig):
    name = "races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects actions.running's receiver to game.hooks.game_stored, and signals'
        # to the log-in.
        from . import actions, signals  # noqa: F401
