"""/healthz: is the database there, is Redis there, does a Celery worker answer?

200 with {"status": "ok", "database": "ok", "redis": "ok", "worker": "ok"} when
all three are; 503 with the failing part named otherwise. A part the site does
not use says so ("not used", "in-process") and counts as fine: the embedded
default has no Redis and runs its tasks in the request. Nothing of an
exception's text reaches the reply (it could name a host or a password); the
log has it.

Run as a module (`python -m tombsite.health URL`) it is the container's probe:
it asks the URL with a Host header the site accepts and exits with 0 (healthy) or 1.
"""

from __future__ import annotations

import logging
import os
import sys
import urllib.error
import urllib.request

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

log = logging.getLogger(__name__)

OK = "ok"
PING_TIMEOUT_S = 1.0  # a worker busy on a solver task still answers control messages


def database_state() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        log.exception("health: the database did not answer")
        return "unreachable"
    return OK


def redis_state() -> str:
    if not settings.REDIS_URL:
        return "not used"
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=PING_TIMEOUT_S).ping()
    except redis.RedisError:
        log.exception("health: Redis did not answer")
        return "unreachable"
    return OK


def worker_state() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "in-process"
    from .celery import app

    try:
        # One answer is enough: without a limit the ping waits out its timeout.
        replies = app.control.ping(timeout=PING_TIMEOUT_S, limit=1)
    except Exception:
        log.exception("health: could not ask the workers")
        return "unreachable"
    return OK if replies else "no worker answered"


def fine(state: str) -> bool:
    return state in (OK, "not used", "in-process")


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    parts = {"database": database_state(), "redis": redis_state()}
    # Without the broker a ping can only time out: say so rather than wait.
    parts["worker"] = worker_state() if fine(parts["redis"]) else "not checked: no Redis"
    failing = [name for name, state in parts.items() if not fine(state)]
    if not failing:
        return JsonResponse({"status": OK, **parts})
    error = "; ".join(f"{name}: {parts[name]}" for name in failing)
    return JsonResponse({"status": "failing", **parts, "error": error}, status=503)


# -- the container's probe ------------------------------------------------------

def probe_host() -> str:
    """A Host header ALLOWED_HOSTS accepts: the first entry, made concrete."""
    first = os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0].strip()
    if first in ("", "*"):
        return "localhost"
    return first.lstrip(".")  # ".example.org" allows example.org itself


def probe(url: str) -> int:
    request = urllib.request.Request(url, headers={
        "Host": probe_host(),
        # Behind TLS (HTTPS=true) plain http would be redirected; the probe
        # speaks to the app directly, as the TLS proxy does.
        "X-Forwarded-Proto": "https",
    })
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            print(response.read().decode())
            return 0
    except urllib.error.HTTPError as error:
        print(error.code, error.read().decode())
    except OSError as error:
        print(f"no answer from {url}: {error}")
    return 1


if __name__ == "__main__":
    sys.exit(probe(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000/healthz"))
