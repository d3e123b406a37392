# Shared by scripts/test and scripts/run: a project-local virtualenv with
# everything the project needs, installed from pyproject.toml.
ensure_venv() {
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
  fi
  # shellcheck disable=SC1091
  source .venv/bin/activate
  local stamp=.venv/.installed needed=0 source
  # Reinstall when the dependencies or a game search's compiled core change.
  for source in pyproject.toml setup.py solver_worker/games/*/_core.c solver_worker/games/*.h; do
    if [ ! -f "$stamp" ] || [ "$source" -nt "$stamp" ]; then needed=1; fi
  done
  if [ "$needed" = 1 ]; then
    python -m pip install --quiet --upgrade pip
    python -m pip install --quiet -e ".[dev]"
    touch "$stamp"
  fi
}

# The machines run PostgreSQL and Redis already; start one that has stopped.
ensure_services() {
  if command -v redis-cli >/dev/null && ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
      --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  fi
  if command -v pg_isready >/dev/null && ! pg_isready -h 127.0.0.1 -q; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
  fi
}

# Debian's Chromium drives the browser tests; Debian's docker-compose checks the
# compose file (it needs no Docker engine). Install whichever is missing.
ensure_system_packages() {
  local missing=()
  command -v chromium >/dev/null || missing+=(chromium chromium-driver)
  command -v docker-compose >/dev/null || missing+=(docker-compose)
  [ "${#missing[@]}" = 0 ] && return 0
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The site refuses to run on a public key: make this checkout's own random keys once,
# kept out of git (an environment that sets them wins). For scripts/run and scripts/manage.
ensure_local_secrets() {
  if [ ! -f .local-secrets.env ]; then
    python - > .local-secrets.env <<'EOF_KEYS'
import secrets
print(f"SECRET_KEY={secrets.token_urlsafe(50)}")
print(f"DAILY_SECRET={secrets.token_urlsafe(50)}")
EOF_KEYS
  fi
  SECRET_KEY="${SECRET_KEY:-$(sed -n 's/^SECRET_KEY=//p' .local-secrets.env)}"
  DAILY_SECRET="${DAILY_SECRET:-$(sed -n 's/^DAILY_SECRET=//p' .local-secrets.env)}"
  export SECRET_KEY DAILY_SECRET
}

# -- the compose tests: scripts/test-compose, scripts/compose-smoke, .ci/run ------------

# The shared stand-ins of the Docker Hub images (../shared/docker-standins, beside the
# project): its build script, and its starter of a Docker daemon.
standins() { echo "${TOMB_DOCKER_STANDINS:-../shared/docker-standins/build.sh}"; }

# A Docker daemon: the stand-ins' starter installs and starts one if none answers.
ensure_dockerd() {
  local starter
  starter="$(dirname "$(standins)")/start-dockerd.sh"
  if ! docker info >/dev/null 2>&1 && [ -f "$starter" ]; then
    bash "$starter"
  fi
}

# The base images the Dockerfile and compose file name: the official ones when here or
# pullable, else the stand-ins built under their tags.
ensure_base_images() {
  local tag missing=()
  ensure_dockerd
  for tag in python:3.11-slim postgres:16 redis:7; do
    docker image inspect "$tag" >/dev/null 2>&1 || docker pull -q "$tag" >/dev/null 2>&1 \
      || missing+=("$tag")
  done
  [ "${#missing[@]}" = 0 ] && return 0
  echo "== ${missing[*]}: not pullable here; building the stand-ins ($(standins))"
  bash "$(standins)"
}

# One module of tests/compose on the Docker daemon (each test a step, with its time).
run_compose_test() {
  ensure_venv
  ensure_system_packages
  ensure_base_images
  TOMB_COMPOSE_TEST=1 pytest -p no:cacheprovider -v --durations=0 "$@"
}
