"""The site's secrets, checked before it serves: a system check, run by `manage.py check`
(and every command that checks), by the ASGI application and by the Celery worker and beat
at start-up, so a production deployment cannot run on a guessable key.

SECRET_KEY signs sessions; DAILY_SECRET derives every daily's seed, so whoever knows it
can compute every future daily offline. With DEBUG off each must be set, not the embedded
default, not a placeholder of .env.example (they contain "change-me"), at least 32
characters, and DAILY_SECRET must be its own, not a copy of SECRET_KEY.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

MIN_LENGTH = 32
TAG = "secrets"


def problems(name: str, value: str) -> list[str]:
    found = []
    if not value:
        found.append(f"{name} is not set")
    elif value in settings.EMBEDDED_SECRETS:
        found.append(f"{name} is the embedded default, which is public")
    elif "change-me" in value.lower():
        found.append(f"{name} is still the .env.example placeholder")
    elif len(value) < MIN_LENGTH:
        found.append(f"{name} is shorter than {MIN_LENGTH} characters")
    return found


@checks.register(TAG, deploy=False)
def check_secrets(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if settings.DEBUG:
        return []
    found = problems("SECRET_KEY", settings.SECRET_KEY)
    found += problems("DAILY_SECRET", settings.DAILY_SECRET_OWN)
    if settings.DAILY_SECRET_OWN and settings.DAILY_SECRET_OWN == settings.SECRET_KEY:
        found.append("DAILY_SECRET is a copy of SECRET_KEY: set it on its own")
    hint = ('make each with: python3 -c "import secrets; print(secrets.token_urlsafe(50))" '
            "(README, Admins); DEBUG=true is for development only")
    return [checks.Error(text, hint=hint, id=f"tombsite.E00{number}")
            for number, text in enumerate(found, start=1)]


def refuse_to_start_without_secrets() -> None:
    """For the processes that run no system checks themselves (uvicorn, Celery)."""
    errors = [error for error in check_secrets() if error.is_serious()]
    if errors:
        found = "; ".join(error.msg for error in errors)
        raise ImproperlyConfigured(f"refusing to start: {found} ({errors[0].hint})")
