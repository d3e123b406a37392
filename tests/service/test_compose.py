"""docker-compose.yml's services, started natively: the quick check that runs in every
suite (tests/compose, run by scripts/test-compose, builds the image and runs the stack
on a Docker daemon).

`docker-compose config` resolves the file as compose would (with .env.example
as the env file); each app service's own command then runs with its own
environment, changed only where a container's world differs from this machine:
PostgreSQL and Redis are the local ones (a fresh database, and a Redis server of
this test's own, so that the workers answering /healthz's ping are this
stack's), there is no TLS proxy, and the ports and paths are free ones. The
stack must serve a game over HTTP and WebSocket, a hint from the real worker,
today's daily made by the worker, hashed static files and /healthz; and when
the worker stops, /healthz must say so. The image's build context is checked
against .dockerignore the way `docker compose build` reads it.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import yaml

from .redis_server import OwnRedis
from .secrecy import StockWatch
from .stack import CLEARED_VARS, PG_ADMIN, ROOT, Stack, Visitor, require_services

pytestmark = [pytest.mark.integration]
DEAL = 2
TIMEOUT = 20
BIN = Path(sys.executable).parent


def require_compose() -> str:
    found = shutil.which("docker-compose")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("docker-compose is missing (scripts/test installs it)")
        pytest.skip("docker-compose is not installed")
    return found


def compose_services() -> dict[str, Any]:
    """The services as compose resolves them, with .env.example as their env file."""
    env = {**os.environ, "TOMB_ENV_FILE": ".env.example"}
    shown = subprocess.run(
        [require_compose(), "--env-file", ".env.example", "config"], cwd=ROOT, env=env,
        capture_output=True, text=True, check=True, timeout=60,
    )
    return dict(yaml.safe_load(shown.stdout)["services"])


def native(argv: list[str], replace: dict[str, str]) -> list[str]:
    """A container's command line for this machine: the project's own Python and
    scripts, and the options in ``replace`` given other values."""
    program = sys.executable if argv[0] == "python" else str(BIN / argv[0])
    args = list(argv[1:])
    for option, value in replace.items():
        if option in args:
            args[args.index(option) + 1] = value
    return [program, *args]


class ComposeStack(Stack):
    """Stack's database, logs and process handling, with compose's commands and settings."""

    def __init__(self, log_dir: Path) -> None:
        self.services = compose_services()
        self.own_redis = OwnRedis(log_dir)
        super().__init__(log_dir)
        self.schedule = log_dir / "celerybeat-schedule"
        self.static_root = log_dir / "staticfiles"
        self.env["STATIC_ROOT"] = str(self.static_root)  # the image's ENV

    def _env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if key not in CLEARED_VARS}
        # Every app service reads the same env file; the web's is the one to take.
        env.update({key: str(value) for key, value in self.services["web"]["environment"].items()})
        env.update(
            DJANGO_SETTINGS_MODULE="tombsite.settings",
            DATABASE_URL=PG_ADMIN.rsplit("/", 1)[0] + "/" + self.database,
            REDIS_URL=self.own_redis.url,
            CHANNELS_PREFIX=self.prefix,
            # No TLS proxy in front: plain HTTP on loopback.
            HTTPS="false",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            CSRF_TRUSTED_ORIGINS=self.base_url,
            # The web never screens: it leaves today's daily to the worker, so the
            # worker makes it; a short screening budget per candidate and no
            # blind-player rating keep the test within its minute.
            DAILY_VARIANTS="three-card",
            DAILY_SCREEN_BUDGET_SECONDS="2",
            DAILY_DIFFICULTY_GAMES="0",
            # The admin made real keys as the README says: .env.example's placeholders are
            # refused (test_the_placeholder_keys_are_refused).
            SECRET_KEY=secrets.token_urlsafe(50),
            DAILY_SECRET=secrets.token_urlsafe(50),
            PATH=os.pathsep.join([str(BIN), os.environ.get("PATH", "")]),
            HOSTNAME=socket.gethostname(),  # as a container's shell has it
        )
        return env

    def command(self, service: str) -> list[str]:
        return native(self.services[service]["command"], {
            "--host": "127.0.0.1", "--port": str(self.port), "--schedule": str(self.schedule),
        })

    def healthcheck(self, service: str) -> subprocess.CompletedProcess[str]:
        """The service's compose healthcheck, run here against this stack."""
        kind, *test = self.services[service]["healthcheck"]["test"]
        text = " ".join(test).replace("$$", "$").replace(":8000/", f":{self.port}/")
        args = ["sh", "-c", text] if kind == "CMD-SHELL" else native(text.split(), {})
        return subprocess.run(args, cwd=ROOT, env=self.env, capture_output=True, text=True,
                              timeout=60)

    def start(self) -> None:
        self.own_redis.start()
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.database}"')
        self.run_once(self.command("migrate"))
        self.run_once([sys.executable, "manage.py", "collectstatic", "--noinput"])  # the build's
        self.spawn("worker", self.command("worker"))
        self._wait_for_worker()
        self.spawn("worker-slow", self.command("worker-slow"))
        self._wait_until_ready("worker-slow")  # as compose waits for its healthcheck
        self.spawn("beat", self.command("beat"))
        self.spawn("server", self.command("web"))
        self._wait_for_server()

    def _wait_until_ready(self, name: str, timeout: float = 60) -> None:
        log = self.log_dir / f"{name}.log"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._check_alive(name)
            if log.exists() and b"ready." in log.read_bytes():
                return
            time.sleep(0.2)
        raise RuntimeError(f"{name} did not start; see {log}")

    def run_once(self, args: list[str]) -> None:
        subprocess.run(args, cwd=ROOT, env=self.env, check=True, capture_output=True,
                       timeout=120)

    def stop(self) -> None:
        for name in list(self.processes):
            self.kill(name, signal.SIGTERM)
        self.own_redis.kill()
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ComposeStack]:
    require_services()
    running = ComposeStack(tmp_path_factory.mktemp("compose"))
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture
def alice(stack: ComposeStack) -> Iterator[Visitor]:
    visitor = Visitor(stack)
    yield visitor
    visitor.close()


def test_the_compose_file_has_the_five_services_and_a_one_shot_migration() -> None:
    services = compose_services()
    assert {"web", "worker", "worker-slow", "beat", "db", "redis", "migrate"} == set(services)
    assert str(services["web"]["ports"][0]).startswith("127.0.0.1:")  # behind the proxy only
    for app in ("web", "worker", "worker-slow", "beat"):
        assert services[app]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"}
        assert services[app]["depends_on"]["redis"] == {"condition": "service_healthy"}
    assert services["migrate"]["depends_on"]["db"] == {"condition": "service_healthy"}
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
    assert "redis-cli ping" in " ".join(services["redis"]["healthcheck"]["test"])
    assert services["db"]["volumes"][0].startswith("db:/var/lib/postgresql/data")


BUILD_CONTEXT = """
import json, sys
from docker.utils.build import exclude_paths
with open(sys.argv[1]) as ignore:
    patterns = [line.strip() for line in ignore if line.strip() and not line.startswith("#")]
print(json.dumps(sorted(exclude_paths(".", patterns))))
"""
IMAGE_NEEDS = ("game/", "leaderboards/", "solver_worker/", "tombsite/", "frontend/",
               "manage.py", "pyproject.toml", "setup.py")
LOCAL_STATE = (".env", ".env.production", "db.sqlite3", ".venv/bin/python", ".git/config",
               "solver_worker/games/tomb/_core.cpython-311-x86_64-linux-gnu.so",
               "game/__pycache__/a.pyc", "staticfiles/tomb/play.css", "tests/service/stack.py")
# What the README's admin steps leave in the project folder: a backup, an export, keys.
ADMIN_LEFTOVERS = ("tomb-2026-11-29.dump", "results.csv", "backups/tomb.sql.gz",
                   "backups/tomb-2026-11-30.dump", "tls/site.key", "tls/site.pem")


def build_context(directory: Path) -> set[str]:
    """The files `docker compose build` sends, read by docker-compose's own Python."""
    with open(require_compose()) as script:
        python = script.readline().removeprefix("#!").strip()
    shown = subprocess.run([python, "-c", BUILD_CONTEXT, str(ROOT / ".dockerignore")],
                           cwd=directory, capture_output=True, text=True, check=True, timeout=60)
    return {name for name in json.loads(shown.stdout) if (directory / name).is_file()}


def test_the_build_context_has_every_file_of_the_code() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    needed = [name for name in tracked if name.startswith(IMAGE_NEEDS)]
    context = build_context(ROOT)
    assert needed and [name for name in needed if name not in context] == []


def test_the_build_context_leaves_out_secrets_and_local_state(tmp_path: Path) -> None:
    for name in (*LOCAL_STATE, *ADMIN_LEFTOVERS, "game/models.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")

    assert build_context(tmp_path) == {"game/models.py"}


def test_git_ignores_the_admins_settings_backups_and_exports() -> None:
    names = (".env", ".env.production", "tomb-2026-11-29.dump", "results.csv")
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *names], cwd=ROOT,
                             capture_output=True, text=True, timeout=60).stdout.split()
    assert sorted(ignored) == sorted(names)
    kept = subprocess.run(["git", "check-ignore", "--no-index", ".env.example"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert kept.returncode == 1  # the example stays tracked


def test_one_service_builds_the_image_the_others_run() -> None:
    services = compose_services()
    builders = [name for name, service in services.items() if "build" in service]
    assert builders == ["web"]
    image = services["web"]["image"]
    for app in ("migrate", "worker", "worker-slow", "beat"):
        assert services[app]["image"] == image


def test_the_database_container_gets_only_its_own_settings() -> None:
    database = compose_services()["db"]["environment"]
    assert set(database) == {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"}


def test_healthz_is_ok_and_the_containers_healthchecks_pass(stack: ComposeStack) -> None:
    response = httpx.get(f"{stack.base_url}/healthz", timeout=TIMEOUT)

    assert response.status_code == 200, response.text
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok", "hints": "ok",
                               "slow": "ok"}
    web = stack.healthcheck("web")
    assert web.returncode == 0, web.stdout + web.stderr
    worker = stack.healthcheck("worker")
    assert worker.returncode == 0, worker.stdout + worker.stderr
    assert "pong" in worker.stdout


def test_a_game_is_played_over_http_and_websocket_with_a_hint_from_the_worker(
    stack: ComposeStack, alice: Visitor
) -> None:
    game = alice.new_game(DEAL)
    moved = alice.post(f"/api/games/{game['id']}/moves/", {"move": "D"})
    assert moved.status_code == 200, moved.text
    watch = StockWatch(DEAL)
    watch.played("D")

    answers = asyncio.run(play_and_ask_for_a_hint(stack, alice, game["id"], watch))

    assert [answer["type"] for answer in answers] == ["state", "state", "state", "hint"]
    assert answers[1]["game"]["moves"] == 2 and answers[1]["seq"] == 1
    assert answers[3]["hint"]["verdict"] in ("winnable", "lost", "unknown")
    row = stack.row(game["id"])
    assert row["moves"] == 2 and row["hints"] == 1


async def play_and_ask_for_a_hint(
    stack: ComposeStack, visitor: Visitor, game_id: str, watch: StockWatch
) -> list[dict[str, Any]]:
    async with visitor.socket(f"/ws/games/{game_id}/", TIMEOUT) as board:
        answers = [await receive(board, watch)]
        await board.send(json.dumps({"type": "move", "move": "D", "seq": 1}))
        watch.played("D")
        answers.append(await receive(board, watch))
        await board.send(json.dumps({"type": "hint", "seq": 2}))
        answers.append(await receive(board, watch))  # the hint counted
        answers.append(await receive(board, watch))  # the worker's answer
        return answers


async def receive(board: Any, watch: StockWatch) -> dict[str, Any]:
    text = await asyncio.wait_for(board.recv(), TIMEOUT)
    watch.check(text)
    return dict(json.loads(text))


def test_todays_daily_is_made_by_the_worker(stack: ComposeStack, alice: Visitor) -> None:
    # The web only asks the worker and says so, with the progress; if beat's hourly
    # job came first, the daily is there already.
    first = alice.get("/api/daily/three-card/")
    assert first.status_code == 200 or "being prepared" in first.json()["error"], first.text

    daily = wait_for_daily(alice)

    assert daily["date"] == datetime.now(UTC).date().isoformat()
    assert daily["variant"] == "three-card"
    log = (stack.log_dir / "worker.log").read_text(errors="replace")
    assert "leaderboards.make_daily" in log and "succeeded" in log
    stack._check_alive("beat")
    assert "beat: Starting" in (stack.log_dir / "beat.log").read_text(errors="replace")


def wait_for_daily(visitor: Visitor, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        response = visitor.get("/api/daily/three-card/")
        if response.status_code == 200:
            return dict(response.json())
        assert response.status_code == 503, response.text
        time.sleep(0.5)
    raise AssertionError("the worker did not make today's daily")


def test_pages_name_hashed_static_files_that_whitenoise_serves(stack: ComposeStack) -> None:
    page = httpx.get(f"{stack.base_url}/", timeout=TIMEOUT, follow_redirects=True)
    assert page.status_code == 200
    found = re.findall(r'/static/[\w/.-]+\.(?:css|js)', page.text)
    assert found
    for url in found:
        assert re.search(r"\.[0-9a-f]{12}\.(css|js)$", url), url
        asset = httpx.get(f"{stack.base_url}{url}", timeout=TIMEOUT)
        assert asset.status_code == 200, url
        assert "immutable" in asset.headers["cache-control"]
        # A module's own imports are hashed too, so the page's preloads are the ones used.
        imported = re.findall(r'from\s*"(\./[^"]+)"', asset.text)
        assert all(re.search(r"\.[0-9a-f]{12}\.js$", name) for name in imported), imported


def test_healthz_says_503_when_the_hint_worker_stops(stack: ComposeStack) -> None:
    # worker-slow still answers pings: the hints queue must be named as down all the same.
    stack.kill("worker", signal.SIGTERM)

    response = httpx.get(f"{stack.base_url}/healthz", timeout=TIMEOUT)

    assert response.status_code == 503
    assert response.json() == {
        "status": "failing", "database": "ok", "redis": "ok",
        "hints": "no worker consumes queue tomb", "slow": "ok",
        "error": "hints: no worker consumes queue tomb",
    }
    assert stack.healthcheck("worker").returncode != 0
    assert stack.healthcheck("worker-slow").returncode == 0
    assert stack.healthcheck("web").returncode != 0
