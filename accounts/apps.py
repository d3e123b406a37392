from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported for its side effect: every saved user claims its name's skeleton.
        from . import signals  # noqa: F401
        # And for its log-in handler: the account's language comes back at log-in.
        from . import language  # noqa: F401
