"""Settings of the unit-test layer: the embedded default, whatever the shell has set.

The integration layer starts its own server and worker with the production
settings (tombsite.settings) pointed at PostgreSQL and Redis.
"""

import os
import secrets

for _name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER",
              "HTTPS", "DEBUG", "HINT_SOLVER", "DAILY_SECRET", "DAILY_SCREENER", "FAIR_PLAY_REVIEW",
              "DAILY_DIFFICULTY_GAMES", "DAILY_VARIANTS"):
    os.environ.pop(_name, None)

from .settings import *  # noqa: E402, F403

DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
# Fast hashing keeps account tests quick.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# No blind-player games in unit tests (minutes on classic); tests that rate
# a daily ask for one game on the 3-card deal.
DAILY_DIFFICULTY_GAMES = 0
# Keys of this test process's own (the site refuses public ones with DEBUG off).
SECRET_KEY = "unit-tests-" + secrets.token_urlsafe(40)
DAILY_SECRET = DAILY_SECRET_OWN = "unit-tests-daily-" + secrets.token_urlsafe(40)
# The unit layer's database lives in one connection's transaction, where a second
# writer thread cannot work: a missing daily goes to the (eager) task instead. The
# background thread is exercised on a real server (bench/daily_page.py, browser tests).
DAILY_PREPARE = "task"
# The unit tests' players are mostly scripted solvers, cheats by construction: the
# fair-play judge runs only where a test asks for it (tests/service/test_fair_play.py).
FAIR_PLAY_REVIEW = "off"
# Tests play at machine speed (a winning line over REST in a fraction of a second), as
# the integration stack's do: each socket's bucket and the write allowance it shares with
# REST (game.limits) are raised here; the tests of the limits set their own figures.
WS_RATE_PER_SECOND = 1000.0
WS_BURST = 1000
