"""/healthz on the embedded default, and with a part missing (really missing: a closed port).

The integration layer's compose test sees it go from 200 to 503 when the real
Celery worker stops.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import httpx
import pytest
from django.test import Client

from tombsite import health

from .stack import CLEARED_VARS, ROOT, free_port

FAILURE_WORDS = ("Traceback", "Error", "refused", "127.0.0.1")


def test_the_embedded_default_is_healthy(db: Any) -> None:
    response = Client().get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok", "database": "ok", "redis": "not used", "hints": "in-process",
        "slow": "in-process",
    }
    assert "no-cache" in response["Cache-Control"]


def test_a_missing_redis_is_named_and_no_worker_is_waited_for(db: Any, settings: Any) -> None:
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    settings.CELERY_TASK_ALWAYS_EAGER = False

    response = Client().get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "failing", "database": "ok", "redis": "unreachable",
        "hints": "not checked: no Redis", "slow": "not checked: no Redis",
        "error": "redis: unreachable; hints: not checked: no Redis; "
                 "slow: not checked: no Redis",
    }
    assert not any(word in response.content.decode() for word in FAILURE_WORDS)


ASK_HEALTHZ = """
import json
from django.test import Client
response = Client().get("/healthz", HTTP_HOST="localhost")
print(json.dumps({"status": response.status_code, "body": response.content.decode()}))
"""


def test_a_missing_database_is_named_without_a_stack_trace() -> None:
    env = {key: value for key, value in os.environ.items() if key not in CLEARED_VARS}
    env.update(
        DJANGO_SETTINGS_MODULE="tombsite.settings",
        DATABASE_URL=f"postgres://tomb@127.0.0.1:{free_port()}/tomb",
        DATABASE_POOL="false",  # a pool would retry for its timeout; one refusal is enough
    )
    shown = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", ASK_HEALTHZ], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=60, check=True,
    )
    answer = json.loads(shown.stdout.splitlines()[-1])

    assert answer["status"] == 503
    body = json.loads(answer["body"])
    assert body["database"] == "unreachable" and body["error"] == "database: unreachable"
    assert body["redis"] == "not used" and body["hints"] == "in-process"
    assert not any(word in answer["body"] for word in FAILURE_WORDS)


@pytest.mark.parametrize(("allowed", "host"), [
    ("tomb.example.org,www.tomb.example.org", "tomb.example.org"),
    (".example.org", "example.org"),
    ("*", "localhost"),
    ("", "localhost"),
])
def test_the_probe_sends_a_host_the_site_accepts(
    monkeypatch: pytest.MonkeyPatch, allowed: str, host: str
) -> None:
    monkeypatch.setenv("ALLOWED_HOSTS", allowed)
    assert health.probe_host() == host


def test_the_probe_fails_when_nothing_answers() -> None:
    assert health.probe(f"http://127.0.0.1:{free_port()}/healthz") == 1


def test_the_probe_passes_behind_https_and_a_real_host_name(
    live_server: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As .env.example sets it up: HTTPS=true (plain HTTP is redirected) and only
    # the site's own name allowed; the probe still reaches /healthz.
    settings.ALLOWED_HOSTS = ["tomb.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    monkeypatch.setenv("ALLOWED_HOSTS", "tomb.example.org")
    url = f"{live_server.url}/healthz"

    assert httpx.get(url).status_code == 400  # a host the site does not serve
    assert health.probe(url) == 0


# -- who sees what -----------------------------------------------------------------

@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch, settings: Any) -> dict[str, set[str]]:
    """Redis and a broker "there"; the queues the workers consume are the test's to set."""
    settings.REDIS_URL = "redis://redis.invalid:6379/0"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_SLOW_QUEUE = "tomb", "slow"
    settings.HEALTHZ_TOKEN = "the-token"
    settings.HEALTHZ_CACHE_SECONDS = 0
    consumed: dict[str, set[str]] = {"queues": {"tomb", "slow"}}
    monkeypatch.setattr(health, "redis_state", lambda: health.OK)
    monkeypatch.setattr(health, "consumed_queues", lambda: consumed["queues"])
    return consumed


def test_each_worker_queue_is_named(db: Any, workers: dict[str, set[str]]) -> None:
    response = Client().get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok",
                               "hints": "ok", "slow": "ok"}


def test_the_slow_worker_answering_does_not_hide_a_missing_hint_worker(
    db: Any, workers: dict[str, set[str]]
) -> None:
    workers["queues"] = {"slow"}  # worker-slow is up, worker is down

    response = Client().get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["hints"] == "no worker consumes queue tomb" and body["slow"] == "ok"
    assert body["error"] == "hints: no worker consumes queue tomb"


def test_a_missing_slow_worker_is_named_too(db: Any, workers: dict[str, set[str]]) -> None:
    workers["queues"] = {"tomb"}

    response = Client().get("/healthz")

    assert response.status_code == 503
    assert response.json()["slow"] == "no worker consumes queue slow"


def test_a_stranger_gets_a_bare_verdict(db: Any, workers: dict[str, set[str]]) -> None:
    stranger = Client(REMOTE_ADDR="203.0.113.9")
    assert stranger.get("/healthz").json() == {"status": "ok"}

    workers["queues"] = {"slow"}
    response = stranger.get("/healthz")

    assert response.status_code == 503 and response.json() == {"status": "failing"}
    assert "no-cache" in response["Cache-Control"]


def test_the_token_shows_the_details_to_a_stranger(
    db: Any, workers: dict[str, set[str]]
) -> None:
    workers["queues"] = {"slow"}

    wrong = Client(REMOTE_ADDR="203.0.113.9", HTTP_X_HEALTH_TOKEN="not-it").get("/healthz")
    right = Client(REMOTE_ADDR="203.0.113.9", HTTP_X_HEALTH_TOKEN="the-token").get("/healthz")

    assert wrong.json() == {"status": "failing"}
    assert right.json()["hints"] == "no worker consumes queue tomb"


def test_a_stranger_cannot_make_the_site_ask_its_workers_at_will(
    db: Any, workers: dict[str, set[str]], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.HEALTHZ_CACHE_SECONDS = 60
    monkeypatch.setattr(health._Verdict, "at", float("-inf"))
    asked = []
    monkeypatch.setattr(health, "consumed_queues",
                        lambda: asked.append(1) or workers["queues"])
    stranger = Client(REMOTE_ADDR="203.0.113.9")

    answers = {stranger.get("/healthz").status_code for _ in range(5)}

    assert answers == {200} and len(asked) == 1


def test_a_host_the_site_does_not_serve_is_one_log_line_not_a_traceback(
    db: Any, caplog: pytest.LogCaptureFixture
) -> None:
    # In a container a request with no Host header falls back to the container's own
    # address, which ALLOWED_HOSTS does not name: the same refusal as a foreign host.
    with caplog.at_level("WARNING", logger="django.security.DisallowedHost"):
        response = Client().get("/healthz", HTTP_HOST="172.18.0.5:8000")

    assert response.status_code == 400
    [record] = [entry for entry in caplog.records
                if entry.name == "django.security.DisallowedHost"]
    assert "Invalid HTTP_HOST header" in record.getMessage()
    assert record.exc_info is None and not record.exc_text
