"""What the compose tests share (tests/compose): the machine's Docker daemon and base
images, a copy of the project, and one compose deployment of it driven as the README's
admin section says. test_stack.py walks that whole section (scripts/test-compose);
test_smoke.py is CI's short run of the stack (scripts/compose-smoke, .ci/run).

The official base images are used when present or pullable; only when they are
neither are the local stand-ins built (../shared/docker-standins/build.sh).
Traffic goes only to 127.0.0.1 (the published port) and between the stack's own
containers.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from tests.service.stack import Visitor, free_port

ROOT = Path(__file__).resolve().parents[2]
STANDINS = Path(os.environ.get("TOMB_DOCKER_STANDINS",
                               ROOT.parent / "shared" / "docker-standins" / "build.sh"))
BASE_IMAGES = ("python:3.11-slim", "postgres:16", "redis:7")
APP_SERVICES = ("web", "worker", "worker-slow", "beat")
OUTPUT = ROOT / "test-output"
DEAL = 2
HTTP_TIMEOUT = 30


# -- the machine -------------------------------------------------------------------

def run(args: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None,
        timeout: float = 600, check: bool = True, stdin: Any = None,
        stdout: Any = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, timeout=timeout, text=True, stdin=stdin,
                          stdout=stdout, stderr=subprocess.PIPE)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({done.returncode}):\n"
                             f"{done.stdout or ''}\n{done.stderr}")
    return done


def docker_answers() -> bool:
    return shutil.which("docker") is not None and run(
        ["docker", "info"], check=False, timeout=60).returncode == 0


def ensure_base_images() -> None:
    """The official images if here or pullable, else the stand-ins under their tags."""
    missing = [tag for tag in BASE_IMAGES
               if run(["docker", "image", "inspect", tag], check=False).returncode != 0]
    missing = [tag for tag in missing
               if run(["docker", "pull", tag], check=False, timeout=900).returncode != 0]
    if missing:
        if not STANDINS.is_file():
            pytest.fail(f"{missing} cannot be pulled and there are no stand-ins at {STANDINS}")
        run(["bash", str(STANDINS)], cwd=ROOT, timeout=1800)
    for tag in BASE_IMAGES:
        check_others_may_enter_the_root(tag)


def check_others_may_enter_the_root(tag: str) -> None:
    """PostgreSQL, Redis and the site run as users other than root: an image whose "/"
    they may not enter fails every start with "libc.so.6: Permission denied" (a base made
    from a mktemp -d folder is 0700). Say so at once rather than after a build."""
    mode = run(["docker", "run", "--rm", "--user", "0", "--entrypoint", "stat", tag,
                "-c", "%a", "/"]).stdout.strip()
    if not int(mode, 8) & 0o001:
        pytest.fail(f"{tag}: '/' has mode {mode}, so no process but root's can run in it; "
                    "rebuild that image with '/' 0755")


def require_docker() -> None:
    if not docker_answers():
        # The stand-ins' starter installs Docker if need be and starts a daemon.
        starter = STANDINS.parent / "start-dockerd.sh"
        if starter.is_file():
            run(["bash", str(starter)], timeout=900, check=False)
    if not docker_answers() or shutil.which("docker-compose") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no Docker daemon or docker-compose, and CI must run the stack")
        pytest.skip("no Docker daemon answers, or docker-compose is missing")
    ensure_base_images()


def copy_project(target: Path) -> None:
    """The project as a fresh clone has it, with the work not yet committed."""
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                 cwd=ROOT).stdout.split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


# -- the deployment ----------------------------------------------------------------

class Figures(dict[str, Any]):
    """The measured times, written to their file (under test-output/) as each comes in."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        self.save()

    def save(self) -> None:
        self.path.parent.mkdir(exist_ok=True)
        self.path.write_text(json.dumps(self, indent=2) + "\n")


class Deployment:
    """One compose project in a folder of its own, driven as the README says."""

    def __init__(self, folder: Path, figures: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.project = f"tombcompose{secrets.token_hex(3)}"
        self.figures = Figures(figures)
        self.env = {**os.environ, "COMPOSE_PROJECT_NAME": self.project,
                    # The client here has no buildx; docker-compose v1 builds through the API.
                    "DOCKER_BUILDKIT": "0", "COMPOSE_DOCKER_CLI_BUILD": "0",
                    # On vfs storage removing a container deletes a whole copy of the
                    # image: on a loaded host that outlasts compose's 60-s default.
                    "COMPOSE_HTTP_TIMEOUT": "300"}
        for name in ("TOMB_ENV_FILE", "TOMB_IMAGE", "WEB_PORT", "WEB_BIND"):
            self.env.pop(name, None)

    def compose(self, *args: str, timeout: float = 600, check: bool = True,
                stdin: Any = None, stdout: Any = subprocess.PIPE
                ) -> subprocess.CompletedProcess[str]:
        return run(["docker-compose", *args], cwd=self.folder, env=self.env, timeout=timeout,
                   check=check, stdin=stdin, stdout=stdout)

    def shell(self, command: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """A README command line as an admin types it in the project folder."""
        return run(["sh", "-c", command.replace("docker compose ", "docker-compose ")],
                   cwd=self.folder, env=self.env, timeout=timeout)

    def timed(self, figure: str, *args: str, timeout: float = 3600) -> None:
        started = time.monotonic()
        self.compose(*args, timeout=timeout)
        self.figures[figure] = round(time.monotonic() - started, 1)

    # -- state of the containers

    def containers(self) -> list[dict[str, Any]]:
        ids = self.compose("ps", "-q").stdout.split()
        if not ids:
            return []
        shown = json.loads(run(["docker", "inspect", *ids]).stdout)
        return [{
            "id": item["Id"], "name": item["Name"].lstrip("/"),
            "service": item["Config"]["Labels"]["com.docker.compose.service"],
            "status": item["State"]["Status"], "exit": item["State"]["ExitCode"],
            "health": (item["State"].get("Health") or {}).get("Status"),
            "pid": item["State"]["Pid"], "restarts": item["RestartCount"],
            "image": item["Image"],
        } for item in shown]

    def of(self, service: str) -> list[dict[str, Any]]:
        return [item for item in self.containers() if item["service"] == service]

    def ready(self, item: dict[str, Any]) -> bool:
        if item["service"] == "migrate":
            return item["status"] == "exited" and item["exit"] == 0
        if item["health"] is None:  # beat: no healthcheck, running is all
            return item["status"] == "running"
        return item["status"] == "running" and item["health"] == "healthy"

    def wait_until_healthy(self, expected: dict[str, int], timeout: float = 600) -> float:
        """Seconds until every service has its containers ready (migrate: exited 0)."""
        started = time.monotonic()
        seen: list[dict[str, Any]] = []
        while time.monotonic() - started < timeout:
            seen = self.containers()
            counts = {service: sum(1 for item in seen
                                   if item["service"] == service and self.ready(item))
                      for service in expected}
            if counts == expected:
                return round(time.monotonic() - started, 1)
            failed = [item for item in seen if item["service"] == "migrate"
                      and item["status"] == "exited" and item["exit"] != 0]
            assert not failed, self.compose("logs", "migrate").stdout
            time.sleep(3)
        logs = self.compose("logs", "--tail", "40").stdout
        raise AssertionError(f"not healthy in {timeout} s: {seen}\n{logs}")

    def running_services(self) -> set[str]:
        return {item["service"] for item in self.containers() if item["status"] == "running"}

    def logs(self, service: str) -> str:
        return self.compose("logs", "--no-color", service).stdout

    def sql(self, query: str) -> str:
        return self.compose(
            "exec", "-T", "db", "sh", "-c",
            f'psql -U "$POSTGRES_USER" -d "$POSTGRES_DB" -At -c "{query}"').stdout.strip()

    def redis_get(self, key: str, redis: str = "") -> str:
        """Straight to the container (``redis``: its id, if known): polled while a task
        runs, so no compose start-up."""
        redis = redis or self.of("redis")[0]["id"]
        return run(["docker", "exec", redis, "redis-cli", "GET", key]).stdout.strip()

    def healthz(self, **headers: str) -> httpx.Response:
        return httpx.get(f"{self.base_url}/healthz", headers=headers, timeout=HTTP_TIMEOUT)


ALL = {"db": 1, "redis": 1, "migrate": 1, "web": 1, "worker": 1, "worker-slow": 1,
       "beat": 1}


def set_env(path: Path, **values: str) -> None:
    """Edit .env as an admin does: replace each named line, add the ones not there."""
    lines = path.read_text().splitlines()
    for key, value in values.items():
        at = [index for index, line in enumerate(lines) if line.startswith(f"{key}=")]
        if at:
            lines[at[0]] = f"{key}={value}"
        else:
            lines.append(f"{key}={value}")
    path.write_text("\n".join(lines) + "\n")



def tree_hash() -> str:
    """A short hash of the project's files as copy_project copies them: an image tagged
    with it was built from this very tree, so a second run may reuse it."""
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                 cwd=ROOT).stdout.split("\0")
    digest = hashlib.sha256()
    for name in sorted(filter(None, listed)):
        source = ROOT / name
        if source.is_file():
            digest.update(name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def image_exists(tag: str) -> bool:
    return run(["docker", "image", "inspect", tag], check=False).returncode == 0


@contextmanager
def deployed(folder: Path, figures: Path) -> Iterator[Deployment]:
    """A copy of the project in ``folder``, as a compose project of its own; whatever
    happens, `down -v` at the end and the figures saved and printed."""
    require_docker()
    copy_project(folder)
    deployment = Deployment(folder, figures)
    try:
        yield deployment
    finally:
        deployment.compose("down", "-v", "--remove-orphans", check=False, timeout=300)
        deployment.figures.save()
        print("compose figures:", json.dumps(deployment.figures))


def write_env(deployment: Deployment, **settings: str) -> None:
    """`cp .env.example .env`, then the edits the README asks for (new keys, the host, a
    database password, the port), then the test's own ``settings``: HTTPS off, as no
    TLS proxy stands in front of the loopback port."""
    env_file = deployment.folder / ".env"
    shutil.copy(deployment.folder / ".env.example", env_file)
    db_password = secrets.token_urlsafe(24)
    set_env(
        env_file,
        SECRET_KEY=secrets.token_urlsafe(50), DAILY_SECRET=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost", CSRF_TRUSTED_ORIGINS=deployment.base_url,
        POSTGRES_PASSWORD=db_password,
        DATABASE_URL=f"postgres://tomb:{db_password}@db:5432/tomb",
        WEB_PORT=str(deployment.port), HTTPS="false", **settings,
    )


def visitor(deployment: Deployment) -> Visitor:
    return Visitor(SimpleNamespace(base_url=deployment.base_url,  # type: ignore[arg-type]
                                   ws_url=deployment.ws_url))


async def play_and_ask_for_a_hint(player: Visitor, game_id: str) -> list[dict[str, Any]]:
    """Over the game's socket: the state, a stock turn, then a hint (its
    acknowledgement and the worker's answer)."""
    async with player.socket(f"/ws/games/{game_id}/", HTTP_TIMEOUT) as board:
        answers = [json.loads(await asyncio.wait_for(board.recv(), HTTP_TIMEOUT))]
        await board.send(json.dumps({"type": "move", "move": "D", "seq": 1}))
        answers.append(json.loads(await asyncio.wait_for(board.recv(), HTTP_TIMEOUT)))
        await board.send(json.dumps({"type": "hint", "seq": 2}))
        answers.append(json.loads(await asyncio.wait_for(board.recv(), HTTP_TIMEOUT)))
        answers.append(json.loads(await asyncio.wait_for(board.recv(), HTTP_TIMEOUT)))
        return answers


def todays_daily(player: Visitor, variant: str, timeout: float = 300) -> httpx.Response:
    """Today's daily from the API, waiting while the worker makes it (503 meanwhile)."""
    deadline = time.monotonic() + timeout
    response = player.get(f"/api/daily/{variant}/")
    while response.status_code == 503 and time.monotonic() < deadline:
        time.sleep(2)
        response = player.get(f"/api/daily/{variant}/")
    assert response.status_code == 200, response.text
    assert response.json()["date"] == datetime.now(UTC).date().isoformat()
    return response
