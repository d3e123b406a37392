from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported for their side effects: the log-in receiver, the schema extension.
        from . import schema, signals  # noqa: F401
