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
    "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "STATIC_ROOT", "DAILY_SECRET",
)
PRODUCTION = {
    "DATABASE_URL": "postgres://tomb:secret@db.internal:5432/tomb",
    "REDIS_URL": "redis://redis.internal:6379/0",
    "SECRET_KEY": "k3y-" + "x7Qp2vRz9LmN4bW8" * 4,
    "DAILY_SECRET": "d41ly-" + "Hq8sTn3wYc6vKe1J" * 4,
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
    assert shown["layer"] == "tombsite.layers.LocalFirstRedisChannelLayer"
    assert (shown["eager"], shown["broker"]) == (False, PRODUCTION["REDIS_URL"])


def test_check_deploy_reports_nothing_in_production() -> None:
    result = run(["check", "--deploy", "--fail-level", "DEBUG"], PRODUCTION)
    assert result.returncode == 0, result.stderr
    # The one silenced check is axes.W002 (it looks for axes' middleware by name; the site's
    # accounts.throttle.LockoutMiddleware is a subclass of it).
    assert "System check identified no issues (1 silenced)." in result.stdout
    from django.conf import settings

    assert settings.SILENCED_SYSTEM_CHECKS == ["axes.W002"]


BAD_KEYS = {
    "missing": None,
    "the embedded default": "embedded-default-insecure-key-set-SECRET_KEY-in-production",
    "the placeholder": "change-me-to-a-long-random-string",
    "short": "Zq8-short-but-random",
}


def test_check_deploy_refuses_each_bad_secret_key() -> None:
    for name, value in BAD_KEYS.items():
        for variable in ("SECRET_KEY", "DAILY_SECRET"):
            settings = {**PRODUCTION}
            settings.pop(variable)
            if value is not None:
                settings[variable] = value
            result = run(["check", "--deploy"], settings)
            assert result.returncode != 0, (name, variable)
            assert f"{variable} is" in result.stderr and "tombsite.E00" in result.stderr


def test_the_daily_secret_must_be_its_own() -> None:
    result = run(["check"], {**PRODUCTION, "DAILY_SECRET": PRODUCTION["SECRET_KEY"]})
    assert result.returncode != 0 and "DAILY_SECRET is a copy of SECRET_KEY" in result.stderr


def test_the_site_and_the_workers_refuse_to_start_on_a_public_key() -> None:
    # On the embedded default's database and broker, so nothing but the key is in the way.
    placeholders = {**PRODUCTION, "SECRET_KEY": BAD_KEYS["the placeholder"]}
    for local in ("DATABASE_URL", "REDIS_URL"):
        placeholders.pop(local)
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARS}
    env.update(placeholders, DJANGO_SETTINGS_MODULE="tombsite.settings")
    site = subprocess.run([sys.executable, "-c", "import tombsite.asgi"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    worker = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "tombsite", "worker", "--pool", "solo"],
        cwd=ROOT, env={**env, "CELERY_BROKER_URL": "memory://"}, capture_output=True,
        text=True, timeout=60)
    for process in (site, worker):
        assert process.returncode != 0
        assert "refusing to start: SECRET_KEY is still the .env.example placeholder" in (
            process.stderr + process.stdout)


def test_debug_runs_on_the_embedded_keys() -> None:
    result = run(["check"], {"DEBUG": "true"})
    assert result.returncode == 0, result.stderr
