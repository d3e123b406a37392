"""Settings, read from the environment (django-environ).

With nothing set the site runs on the embedded default: a SQLite file, the
in-memory channel layer and Celery tasks run in-process. Production sets
DATABASE_URL (PostgreSQL), REDIS_URL (channel layer and Celery broker),
SECRET_KEY, ALLOWED_HOSTS and HTTPS=true; then `manage.py check --deploy`
has nothing to report.
"""

from __future__ import annotations

from pathlib import Path

import environ
from celery.schedules import crontab

from solver_worker.book import WINNABLE_DIR as SHIPPED_WINNABLE_DEALS

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

# Public keys for DEBUG runs only: with DEBUG off the site, the workers and `manage.py
# check` refuse them (tombsite.secrets_check). `scripts/run` makes local random keys.
_EMBEDDED_SECRET_KEY = "embedded-default-insecure-key-set-SECRET_KEY-in-production"
_EMBEDDED_DAILY_SECRET = "embedded-default-insecure-daily-secret-set-DAILY_SECRET"
EMBEDDED_SECRETS = (_EMBEDDED_SECRET_KEY, _EMBEDDED_DAILY_SECRET)

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default=_EMBEDDED_SECRET_KEY)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
REDIS_URL = env.str("REDIS_URL", default="")

INSTALLED_APPS = [
    "tombsite.apps.TombsiteConfig",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "channels",
    "axes",
    "accounts",
    "game",
    "leaderboards",
    "races",
]

MIDDLEWARE = [
    # First, so it compresses what every later one wrote: pages and API answers (static
    # files come compressed already, whitenoise's .br and .gz). Django's own, with its
    # BREACH mitigation (random bytes in each gzip header, Django 4.2+).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Where Django's docs put it: after the session, before CommonMiddleware.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in player's saved language, when the browser has no language cookie yet.
    "accounts.language.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The tomb_device cookie (two years) the daily's fair-play check compares.
    "leaderboards.device.DeviceCookieMiddleware",
    # Last, as axes asks: a locked-out log-in's page goes out with 429.
    "accounts.throttle.LockoutMiddleware",
]

ROOT_URLCONF = "tombsite.urls"
ASGI_APPLICATION = "tombsite.asgi.application"
WSGI_APPLICATION = "tombsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "frontend" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# -- database -------------------------------------------------------------

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions take SQLite's write lock at BEGIN, so two moves on
    # one game queue up instead of failing with "database is locked"; SQLite
    # has no SELECT ... FOR UPDATE, and this is what serialises its writers.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
elif env.bool("DATABASE_POOL", default=True):
    # Under ASGI persistent connections are per thread and leak; a pool is the
    # supported way to avoid a new PostgreSQL connection per request.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": env.int("DATABASE_POOL_SIZE", default=20),
        "timeout": 10,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- live play and background work -----------------------------------------

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis, delivering to this process's own sockets directly (layers.py).
            "BACKEND": "tombsite.layers.LocalFirstRedisChannelLayer",
            "CONFIG": {
                # redis-py fails rather than waits past its pool's limit (100 by
                # default), and a burst of boards joining their groups needs more.
                "hosts": [{
                    "address": REDIS_URL,
                    "max_connections": env.int("REDIS_MAX_CONNECTIONS", default=2000),
                    # Past the layer's 5 s blocking pop (brpop_timeout): with redis-py's
                    # own default, also 5 s, every idle receive fails and drops sockets.
                    "socket_timeout": 15,
                    # Else it defaults to socket_timeout (15 s): a connect to a Redis that is
                    # restarting should fail fast and let the board retry, not hold it.
                    "socket_connect_timeout": 2,
                }],
                # A prefix per deployment (and per test run) keeps groups apart.
                "prefix": env.str("CHANNELS_PREFIX", default="tomb"),
                # Per channel, queued messages before the layer drops: a second tab
                # of a busy game must get every state, so queue rather than drop
                # (200 overflowed in the 200-player bench with a second tab each).
                "capacity": env.int("CHANNELS_CAPACITY", default=2000),
            },
        },
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache holds the log-in and sign-up throttles' counters: on Redis every ASGI
# replica shares them; the embedded default keeps them in the one process.
if REDIS_URL:
    CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        # A prefix per deployment (and per test run), as for the channel layer.
        "KEY_PREFIX": env.str("CHANNELS_PREFIX", default="tomb"),
    }}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
# Without a broker the embedded default answers hints inline, in the request.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="tomb")
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task is acknowledged when it ends, not when it starts: a worker that dies
# mid-task (killed, out of memory, host lost) leaves it to another worker.
# Every task is written to be safe twice (hints name their version, dailies
# are made with get_or_create on a unique constraint). A task that fails or
# times out is still acknowledged (Celery's default), so bad input never loops.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# With late acks a worker holds only the task it runs: prefetched ones would
# wait behind a long screening while another worker sits idle.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis has no acknowledgements of its own: kombu keeps a started task in an
# "unacked" set and gives it back to the queue once it is older than
# visibility_timeout (swept every unacked_restore_interval seconds). A worker
# that shuts down warmly, or a pool child that dies, requeues at once; only a
# whole worker lost (SIGKILL, host down) waits for the timeout. The trade-off:
# it must exceed the longest late-acked task's hard time limit (today
# leaderboards.forget_addresses, 360 s), or a task still running is handed to a
# second worker; and a hint lost with its worker comes back only that late, which
# is why the socket answers a hint unanswered after HINT_TIMEOUT_SECONDS with a
# clear error. Tests set seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=900),
    "unacked_restore_interval": env.int("CELERY_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": 1,  # one cheap sorted-set read per sweep
}
# Hourly, so a missed run or a new variant is caught up within the hour; the
# job is idempotent, and a run with every daily made costs one query per day.
CELERY_BEAT_SCHEDULE = {
    "make-dailies-ahead": {
        "task": "leaderboards.make_dailies",
        "schedule": crontab(minute=7),
    },
    # Races past their time limit whose task was lost, lobbies left empty, the deal pool.
    "races-sweep": {
        "task": "races.sweep",
        "schedule": crontab(minute="*"),
    },
    "races-fill-pool": {
        "task": "races.fill_pool",
        "schedule": crontab(minute="*/10"),
    },
    # Ranked results whose fair-play judgement was lost with its worker.
    "judge-missed-results": {
        "task": "leaderboards.judge_missed",
        "schedule": crontab(minute=23),
    },
    "forget-attempt-addresses": {
        "task": "leaderboards.forget_addresses",
        "schedule": crontab(minute=37, hour=3),
    },
}
# The long jobs (rating a daily plays the blind player for minutes on classic) on a
# queue of their own (docker compose's worker-slow), so hints never wait behind them;
# with no slow queue set they share the default one.
CELERY_SLOW_QUEUE = env.str("CELERY_SLOW_QUEUE", default=CELERY_TASK_DEFAULT_QUEUE)
# /healthz (tombsite.health): who may see which part failed besides the loopback, and
# how long a stranger's bare verdict is reused.
HEALTHZ_TOKEN = env.str("HEALTHZ_TOKEN", default="")
HEALTHZ_CACHE_SECONDS = env.float("HEALTHZ_CACHE_SECONDS", default=10.0)
CELERY_TASK_ROUTES = {
    "leaderboards.rate_daily": {"queue": CELERY_SLOW_QUEUE},
    "leaderboards.make_dailies": {"queue": CELERY_SLOW_QUEUE},
    "leaderboards.judge_result": {"queue": CELERY_SLOW_QUEUE},
    "leaderboards.judge_missed": {"queue": CELERY_SLOW_QUEUE},
    "races.fill_pool": {"queue": CELERY_SLOW_QUEUE},
}

# The solver the hint task asks: "module:function" with the contract of
# solver_worker.hints.hint (position, budget_s) -> {"move", "verdict", "line_length"}.
HINT_SOLVER = env.str("HINT_SOLVER", default="solver_worker.hints:hint")
HINT_BUDGET_SECONDS = env.float("HINT_BUDGET_SECONDS", default=0.8)
# The fair hint (the sampling player, blind to the stock) searches this long.
FAIR_HINT_BUDGET_SECONDS = env.float("FAIR_HINT_BUDGET_SECONDS", default=2.0)
# A board that asked for a hint and heard nothing this long (the worker died,
# the queue is jammed) gets {"type": "hint", "error": ...} instead of waiting forever.
HINT_TIMEOUT_SECONDS = env.float("HINT_TIMEOUT_SECONDS", default=20.0)
# Hints per player, and per client address (higher: a school shares one), over REST
# and the socket alike (game.limits); "30/minute" as in DRF's rates.
HINT_RATE = env.str("HINT_RATE", default="30/minute")
HINT_ADDRESS_RATE = env.str("HINT_ADDRESS_RATE", default="120/minute")
# The proved-won deals "winnable deals only" deals from, <variant>.txt each (the ones
# that ship: scripts/make_winnable_deals.py). A variant with no file there has no option.
WINNABLE_DEALS_DIR = Path(env.str("WINNABLE_DEALS_DIR", default="") or SHIPPED_WINNABLE_DEALS)

# -- the daily challenge (leaderboards) ----------------------------------------

# Daily seeds are derived from this secret, the date and the variant: whoever
# knows it knows every future daily. Production sets it on its own (checked); a made
# daily keeps its stored seed, so rotating the secret changes only dailies not yet made.
DAILY_SECRET_OWN = env.str("DAILY_SECRET", default="")
DAILY_SECRET = DAILY_SECRET_OWN or (_EMBEDDED_DAILY_SECRET if DEBUG else SECRET_KEY)
# Empty: every registered variant of every game gets a daily (leaderboards.dailies).
DAILY_VARIANTS = env.list("DAILY_VARIANTS", default=[])
DAILY_DAYS_AHEAD = env.int("DAILY_DAYS_AHEAD", default=2)
# "module:function" with the contract of solver_worker.tasks.screen
# (spec, budget_s, games) -> {"winnable", "line_length", "difficulty", ...}.
DAILY_SCREENER = env.str("DAILY_SCREENER", default="solver_worker.tasks:screen")
DAILY_SCREEN_BUDGET_SECONDS = env.float("DAILY_SCREEN_BUDGET_SECONDS", default=30.0)
DAILY_MAX_CANDIDATES = env.int("DAILY_MAX_CANDIDATES", default=50)
# The week ramps (leaderboards.dailies.WEEK_BANDS): the first this many candidates
# are searched for one of the weekday's bands before the closest band is taken.
DAILY_BAND_CANDIDATES = env.int("DAILY_BAND_CANDIDATES", default=40)
# Who makes a daily a request found missing (a request never screens): "task" asks
# the slow worker; "thread" (the embedded default, no worker) a background maker
# thread in the server process, which also makes today's and tomorrow's at start-up
# (DAILY_PREPARE_AT_START) and tomorrow's DAILY_PREPARE_AHEAD_SECONDS before midnight.
DAILY_PREPARE = env.str("DAILY_PREPARE", default="thread" if CELERY_TASK_ALWAYS_EAGER else "task")
# Where the fair-play judge runs when a ranked result ends (leaderboards.reviewing):
# task (the slow worker), thread (the embedded default's own), inline, or off.
FAIR_PLAY_REVIEW = env.str("FAIR_PLAY_REVIEW",
                           default="thread" if CELERY_TASK_ALWAYS_EAGER else "task")
# The most solver time one judgement spends (a longer game's later choices are left out).
FAIR_PLAY_JUDGE_SECONDS = env.float("FAIR_PLAY_JUDGE_SECONDS", default=30.0)
DAILY_PREPARE_AT_START = env.bool("DAILY_PREPARE_AT_START", default=True)
DAILY_PREPARE_AHEAD_SECONDS = env.float("DAILY_PREPARE_AHEAD_SECONDS", default=3600.0)
# Public address of the site for the share line's link (e.g. https://tomb.example.org);
# empty: the request's own scheme and host.
SITE_URL = env.str("SITE_URL", default="").rstrip("/")
# Games of the blind sampling player per daily (slow on classic: minutes),
# run by a follow-up task; 0 leaves the difficulty unknown.
DAILY_DIFFICULTY_GAMES = env.int("DAILY_DIFFICULTY_GAMES", default=4)
BOARD_PAGE_SIZE = env.int("BOARD_PAGE_SIZE", default=50)
BOARD_MIN_GAMES = env.int("BOARD_MIN_GAMES", default=10)  # for the win-rate board
# A ranked attempt keeps its client address (as a keyed hash, never the address)
# this long for the fair-play review; then the daily beat job blanks it.
ATTEMPT_ADDRESS_RETENTION_DAYS = env.int("ATTEMPT_ADDRESS_RETENTION_DAYS", default=30)

# -- races ----------------------------------------------------------------------

# Rooms a logged-in player may open (races.limits), DRF's notation.
RACE_CREATE_RATE = env.str("RACE_CREATE_RATE", default="10/hour")
RACE_COUNTDOWN_SECONDS = env.float("RACE_COUNTDOWN_SECONDS", default=5.0)
# Seeds proved winnable kept ahead per variant (races.actions.pool); empty list: all.
RACE_POOL_SIZE = env.int("RACE_POOL_SIZE", default=3)
RACE_POOL_VARIANTS = env.list("RACE_POOL_VARIANTS", default=[])
# Each candidate seed's proof budget, and how many candidates before giving up (503).
RACE_SCREEN_BUDGET_SECONDS = env.float("RACE_SCREEN_BUDGET_SECONDS", default=3.0)
RACE_SCREEN_TRIES = env.int("RACE_SCREEN_TRIES", default=20)
# A lobby whose players' sockets have all been closed this long closes; one no socket
# ever opened, after the second figure.
RACE_LOBBY_EMPTY_SECONDS = env.float("RACE_LOBBY_EMPTY_SECONDS", default=60.0)
RACE_LOBBY_UNSEEN_SECONDS = env.float("RACE_LOBBY_UNSEEN_SECONDS", default=1800.0)
# A room's progress goes out as one batch (each player's latest figures) at most this
# often, in seconds, from each server process (races.events).
RACE_PROGRESS_INTERVAL = env.float("RACE_PROGRESS_INTERVAL", default=0.25)

# Live play: a token bucket per socket lets key repeats through and stops
# floods. Load tests and fast bots raise these through the environment.
WS_RATE_PER_SECOND = env.float("WS_RATE_PER_SECOND", default=20.0)
WS_BURST = env.int("WS_BURST", default=40)

# -- accounts -------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "play"
LOGOUT_REDIRECT_URL = "play"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 90  # anonymous players keep their games for a season
# Failed log-ins within the window before further attempts are refused unchecked
# (django-axes, accounts.throttle): per username from one address, and per address
# (higher: a school or an office shares one address). A stranger's failures for a
# rival's name lock the stranger's address, never the rival.
LOGIN_THROTTLE_FAILURES = env.int("LOGIN_THROTTLE_FAILURES", default=5)
LOGIN_THROTTLE_IP_FAILURES = env.int("LOGIN_THROTTLE_IP_FAILURES", default=30)
LOGIN_THROTTLE_WINDOW_SECONDS = env.int("LOGIN_THROTTLE_WINDOW_SECONDS", default=15 * 60)
# A browser an account has logged in from keeps a signed device cookie (OWASP's scheme,
# accounts.throttle): its attempts for that account count against the cookie alone, so a
# neighbour behind the same address cannot lock its owner out; a stolen cookie still gets
# only this many failures within the window.
LOGIN_DEVICE_FAILURES = env.int("LOGIN_DEVICE_FAILURES", default=5)
LOGIN_DEVICE_COOKIE_AGE = 60 * 60 * 24 * 365  # a year, renewed at each log-in
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out attempt before the password
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "accounts.throttle.LoginThrottle"  # the cache handler, a limit per parameter
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = "accounts.throttle.address_limit"
AXES_COOLOFF_TIME = "accounts.throttle.cool_off"  # LOGIN_THROTTLE_WINDOW_SECONDS
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_address"  # REMOTE_ADDR, never X-Forwarded-For
# A refused attempt counts too and restarts the cool-off, so whoever keeps trying stays
# out, and the page's "try again in N minutes" is the whole window.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = True
AXES_ENABLE_ADMIN = False  # the cache handler leaves axes' tables empty
# axes.W002 looks for its own middleware by name; accounts.throttle.LockoutMiddleware is it.
SILENCED_SYSTEM_CHECKS = ["axes.W002"]
# New accounts per client address (count/second|minute|hour|day); past it, 429.
SIGNUP_RATE = env.str("SIGNUP_RATE", default="5/hour")

# -- API ------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["game.authentication.SessionCsrfAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["game.parsers.BoundedJSONParser"],
    "EXCEPTION_HANDLER": "game.api.error_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Napoleon's Tomb",
    "DESCRIPTION": "Play Napoleon's Tomb with the server as referee (RULES.md notation).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
}

# -- languages (README: "Languages") ----------------------------------------------

# The language comes from the django_language cookie (the menu, or the account's at
# log-in), else the browser's Accept-Language; URLs stay the same in every language.
USE_I18N = True
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ru", "Русский"),
    ("fi", "Suomi"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365  # a year; Django's default ends with the session
LANGUAGE_COOKIE_SAMESITE = "Lax"

# -- static files and the rest ----------------------------------------------

STATIC_URL = "static/"
# collectstatic writes here (production images); whitenoise warns about a
# missing folder, so the embedded default leaves it unset.
STATIC_ROOT = env.str("STATIC_ROOT", default="") or None
STATICFILES_DIRS = [BASE_DIR / "frontend" / "static"]
# Without STATIC_ROOT whitenoise serves from the finders, so the embedded default
# needs no collectstatic step; production images run it and serve only its output.
WHITENOISE_USE_FINDERS = STATIC_ROOT is None
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # With STATIC_ROOT (the image runs collectstatic) pages name content-hashed
    # files that whitenoise serves cached for ever; an upgrade changes the names.
    "staticfiles": {"BACKEND": "tombsite.staticfiles.HashedModulesStorage"
                    if STATIC_ROOT else "whitenoise.storage.CompressedStaticFilesStorage"},
}

TIME_ZONE = "UTC"
USE_TZ = True

# -- production hardening: HTTPS=true behind TLS ------------------------------

if env.bool("HTTPS", default=False):
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "without_traceback": {"()": "tombsite.logging_filters.WithoutTraceback"},
        "answered_client_error": {"()": "tombsite.logging_filters.AnsweredClientError"},
    },
    # An answered 4xx (an oversize body, a bad CSRF token, a 404...) is the client's error:
    # one WARNING line, no traceback; a 5xx keeps both. On the handler, not a logger: a
    # logger's filter sees only its own records, and Django logs these under a logger per
    # exception class (django.security.RequestDataTooBig, ...).
    "handlers": {"console": {"class": "logging.StreamHandler",
                             "filters": ["answered_client_error"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
    # A bad or missing Host header is the client's error (400): one line, no traceback.
    "loggers": {"django.security.DisallowedHost": {"filters": ["without_traceback"]}},
}
