"""A Celery app of the solver tasks alone, for the worker test.

The site's own app (tombsite.celery) wires the same tasks into Django; this
one proves the tasks need nothing of Django: broker and results on Redis.
"""

import os

from celery import Celery

REDIS = os.environ.get("SOLVER_TEST_REDIS", "redis://127.0.0.1:6379/14")

app = Celery("solver-test", broker=REDIS, backend=REDIS, include=["solver_worker.tasks"])
app.conf.update(
    task_default_queue="solver-test",
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    broker_connection_retry_on_startup=True,
)
