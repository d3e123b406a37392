# The site's one image: the web server (uvicorn), the Celery worker and beat all run
# it, each with its own command (docker-compose.yml). README: "Admins: running it
# with docker compose".
#
# Few instructions, the settings before the big copies: on Docker's vfs storage (CI's
# machines) each instruction copies the whole image so far, settings alone included,
# so every one saved is a copy saved, and settings placed early stay cached whatever
# the code's change.

# -- build: the dependencies and the solver's compiled core need a C compiler -----
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1 \
    PATH=/venv/bin:$PATH STATIC_ROOT=/app/staticfiles
WORKDIR /app
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* \
    && python -m venv /venv \
    && pip install --upgrade pip
# The dependencies first, from pyproject.toml alone: a layer that a code change
# does not invalidate.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt
COPY . .
# Editable, as scripts/run installs it: the site finds its templates and static
# files beside its code (settings.BASE_DIR), and build_ext puts the Tomb's compiled
# core there too (solver_worker/games/tomb/), so every process imports the one copy
# in /app. setuptools' build/ holds the core's object files: not for the runtime
# stage. No bytecode: then /venv is the same after any change of the code, and the
# runtime stage's copy of it stays cached. Then the content-hashed static files,
# served by whitenoise (STATIC_ROOT set).
RUN pip install --no-deps --no-compile -e . && rm -rf build \
    && python manage.py collectstatic --noinput

# -- run: no compiler, no pip cache, a user without rights to the code -------------
# (tests/compose checks both in the built image.)
FROM python:3.11-slim
ENV PATH=/venv/bin:$PATH PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    STATIC_ROOT=/app/staticfiles DJANGO_SETTINGS_MODULE=tombsite.settings
RUN useradd --system --uid 10001 --user-group --home-dir /nonexistent --no-create-home tomb
WORKDIR /app
USER tomb
EXPOSE 8000
# WEB_CONCURRENCY's default, one ASGI process per core (docker/entrypoint.sh).
ENTRYPOINT ["sh", "/app/docker/entrypoint.sh"]
# The web server's check; docker-compose.yml gives the worker and beat their own.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "-m", "tombsite.health", "http://127.0.0.1:8000/healthz"]
CMD ["uvicorn", "tombsite.asgi:application", "--host", "0.0.0.0", "--port", "8000", \
     "--ws-max-size", "65536", "--no-access-log"]
# The code last: owned by root (COPY ignores USER), read-only to the site's user.
COPY --from=build /venv /venv
COPY --from=build /app /app
