"""/healthz: is the database there, is Redis there, does a worker consume each queue?

To the loopback (the container's own probe, `docker compose exec web python -m
tombsite.health`) or a request carrying HEALTHZ_TOKEN in X-Health-Token: 200 with
{"status": "ok", "database": "ok", "redis": "ok", "hints": "ok", "slow": "ok"}, or
503 with the failing part named: "hints" is the queue of hints and screening (the
`worker` service), "slow" the queue of making and rating dailies (`worker-slow`).
Each needs a worker consuming it: worker-slow answering a ping says nothing about
the hints. A part the site does not use says so ("not used", "in-process", "the
hints queue") and counts as fine: the embedded default has no Redis and runs its
tasks in the request.

Anyone else gets only {"status": "ok"} (200) or {"status": "failing"} (503), from a
verdict at most HEALTHZ_CACHE_SECONDS old: a public URL must not let a stranger
learn which part is down, nor make the site ping its broker and workers at will.
Nothing of an exception's text reaches any reply (it could name a host or a
password); the log has it.

Run as a module (`python -m tombsite.health URL`) it is the container's probe:
it asks the URL with a Host header the site accepts and exits with 0 (healthy) or 1.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import sys
import threading
import time
import urllib.error
import urllib.request

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache

log = logging.getLogger(__name__)

OK = "ok"
PING_TIMEOUT_S = 1.0  # a worker busy on a solver task still answers control messages
TOKEN_HEADER = "X-Health-Token"


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


def consumed_queues() -> set[str] | None:
    """The queues some live worker consumes (None: the workers could not be asked)."""
    from .celery import app

    try:
        # Every worker's answer: the one consuming a given queue may be the slowest.
        replies = app.control.inspect(timeout=PING_TIMEOUT_S).active_queues() or {}
    except Exception:
        log.exception("health: could not ask the workers")
        return None
    return {queue["name"] for queues in replies.values() for queue in queues or ()}


def queue_states() -> dict[str, str]:
    """Each worker queue: "ok" when a live worker consumes it."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"hints": "in-process", "slow": "in-process"}
    hints, slow = settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_SLOW_QUEUE
    consumed = consumed_queues()
    if consumed is None:
        return {"hints": "unreachable", "slow": "unreachable"}

    def state(queue: str) -> str:
        return OK if queue in consumed else f"no worker consumes queue {queue}"

    return {"hints": state(hints), "slow": "the hints queue" if slow == hints else state(slow)}


def fine(state: str) -> bool:
    return state in (OK, "not used", "in-process", "the hints queue")


def health_parts() -> dict[str, str]:
    parts = {"database": database_state(), "redis": redis_state()}
    if fine(parts["redis"]):
        parts.update(queue_states())
    else:  # without the broker the workers can only time out: say so rather than wait
        parts.update(hints="not checked: no Redis", slow="not checked: no Redis")
    return parts


def may_see_details(request: HttpRequest) -> bool:
    """The host itself (the container's probe, `exec`), or whoever has the token."""
    token = settings.HEALTHZ_TOKEN
    if token and constant_time_compare(request.headers.get(TOKEN_HEADER, ""), token):
        return True
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


class _Verdict:
    """The last public verdict and when it was reached (per process)."""

    lock = threading.Lock()
    healthy = True
    at = float("-inf")


def public_verdict() -> bool:
    with _Verdict.lock:
        if time.monotonic() - _Verdict.at >= settings.HEALTHZ_CACHE_SECONDS:
            _Verdict.healthy = all(fine(state) for state in health_parts().values())
            _Verdict.at = time.monotonic()
        return _Verdict.healthy


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    if not may_see_details(request):
        healthy = public_verdict()
        return JsonResponse({"status": OK if healthy else "failing"},
                            status=200 if healthy else 503)
    parts = health_parts()
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
        # From the container itself the loopback sees the details anyway; from
        # elsewhere the token shows them.
        TOKEN_HEADER: os.environ.get("HEALTHZ_TOKEN", ""),
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
