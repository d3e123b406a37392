from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported for their side effects: every saved user claims its name's skeleton
        # (signals), and the account's language comes back at log-in (language).
        from . import language, signals  # noqa: F401
