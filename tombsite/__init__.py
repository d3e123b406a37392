"""The Django project: settings from the environment, URLs, ASGI routing, Celery app."""

from .celery import app as celery_app

__all__ = ["celery_app"]
