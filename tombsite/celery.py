"""The Celery app: broker REDIS_URL; tasks of game, leaderboards, races and solver_worker."""

import os
import sys
from typing import Any

from celery import Celery
from celery.signals import beat_init, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tombsite.settings")

app = Celery("tombsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Listed by hand: solver_worker is not a Django app, so the installed-apps
# default would miss its tasks.
app.autodiscover_tasks(["game", "leaderboards", "races", "solver_worker"])


@worker_init.connect
@beat_init.connect
def check_secrets(**kwargs: Any) -> None:
    """A worker or beat with a guessable DAILY_SECRET would make guessable dailies.

    SystemExit, not the ImproperlyConfigured itself: Celery logs and swallows a signal
    handler's exceptions, and the worker would run on."""
    from django.core.exceptions import ImproperlyConfigured

    from tombsite.secrets_check import refuse_to_start_without_secrets

    try:
        refuse_to_start_without_secrets()
    except ImproperlyConfigured as error:
        sys.stderr.write(f"{error}\n")
        raise SystemExit(1) from error
