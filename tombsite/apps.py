"""The project as an app, so its system checks (the secrets) are registered."""

from django.apps import AppConfig


class TombsiteConfig(AppConfig):
    name = "tombsite"

    def ready(self) -> None:
        from . import secrets_check  # noqa: F401  (registers the check)
