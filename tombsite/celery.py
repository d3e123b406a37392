"""The Celery app: broker REDIS_URL; tasks of game, leaderboards and solver_worker."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tombsite.settings")

app = Celery("tombsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Listed by hand: solver_worker is not a Django app, so the installed-apps
# default would miss its tasks.
app.autodiscover_tasks(["game", "leaderboards", "solver_worker"])
