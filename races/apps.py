from django.apps import AppConfig


class RacesConfig(AppConfig):
    name = "races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects actions.progress's receiver to game.hooks.game_stored.
        from . import actions  # noqa: F401
