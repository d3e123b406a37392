"""Settings from the environment: the embedded default, and production passing check --deploy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_VARS = (
    "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "HTTPS",
    "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "STATIC_ROOT",
)
PRODUCTION = {
    "DATABASE_URL": "postgres://tomb:secret@db.internal:5432/tomb",
    "REDIS_URL": "redis://redis.internal:6379/0",
    "SECRET_KEY": "k3y-" + "x7Qp2vRz9LmN4bW8" * 4,
    "ALLOWED_HOSTS": "tomb.example.com",
    "DEBUG": "false",
    "HTTPS": "true",
}
SHOW = """
import json
from django.conf import settings
print(json.dumps({
    "database": settings.DATABASES["default"]["ENGINE"],
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "broker": settings.CELERY_BROKER_URL,
    "debug": settings.DEBUG,
}))
"""


def run(args: list[str], extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARS}
    env.update(extra, DJANGO_SETTINGS_MODULE="tombsite.settings")
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=60,
    )


def test_nothing_set_runs_the_embedded_default() -> None:
    shown = json.loads(run(["shell", "-c", SHOW], {}).stdout.splitlines()[-1])
    assert shown == {
        "database": "django.db.backends.sqlite3",
        "layer": "channels.layers.InMemoryChannelLayer",
        "eager": True,
        "broker": "memory://",
        "debug": False,
    }


def test_production_uses_postgresql_redis_and_a_celery_worker() -> None:
    shown = json.loads(run(["shell", "-c", SHOW], PRODUCTION).stdout.splitlines()[-1])
    assert shown["database"] == "django.db.backends.postgresql"
    assert shown["layer"] == "channels_redis.core.RedisChannelLayer"
    assert (shown["eager"], shown["broker"]) == (False, PRODUCTION["REDIS_URL"])


def test_check_deploy_reports_nothing_in_production() -> None:
    result = run(["check", "--deploy", "--fail-level", "DEBUG"], PRODUCTION)
    assert result.returncode == 0, result.stderr
    # The one silenced check is axes.W002 (it looks for axes' middleware by name; the site's
    # accounts.throttle.LockoutMiddleware is a subclass of it).
    assert "System check identified no issues (1 silenced)." in result.stdout
    from django.conf import settings

    assert settings.SILENCED_SYSTEM_CHECKS == ["axes.W002"]
