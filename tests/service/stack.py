"""The real stack for the integration layer: PostgreSQL, Redis, a Celery worker, uvicorn.

Each run gets its own PostgreSQL database, Redis key prefix and Celery queue
(named after the process id and a random suffix) so parallel runs on one
machine do not collide; all of them are removed, and every subprocess
killed, when the run ends.
"""

from __future__ import annotations

import itertools
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import redis
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("TOMB_IT_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_BASE = os.environ.get("TOMB_IT_REDIS", "redis://127.0.0.1:6379")
REDIS_DB = int(os.environ.get("TOMB_IT_REDIS_DB", "11"))
CLEARED_VARS = (
    "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "HTTPS",
    "DEBUG", "HINT_SOLVER", "DJANGO_SETTINGS_MODULE", "STATIC_ROOT",
)


def services_missing() -> str | None:
    """Why the real services cannot be reached, or None when they can."""
    try:
        psycopg.connect(PG_ADMIN, connect_timeout=3).close()
    except psycopg.Error as error:
        return f"PostgreSQL is not reachable ({error})"
    try:
        redis.Redis.from_url(f"{REDIS_BASE}/{REDIS_DB}", socket_timeout=3).ping()
    except redis.RedisError as error:
        return f"Redis is not reachable ({error})"
    return None


def require_services() -> None:
    missing = services_missing()
    if missing is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the integration layer must run on CI: {missing}")
    pytest.skip(missing)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Stack:
    def __init__(self, log_dir: Path) -> None:
        run = f"{os.getpid()}_{secrets.token_hex(3)}"
        self.database = f"tomb_it_{run}"
        self.prefix = f"tomb-it-{run}"
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log_dir = log_dir
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.env = self._env()

    def _env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if key not in CLEARED_VARS}
        env.update(
            DJANGO_SETTINGS_MODULE="tombsite.settings",
            DATABASE_URL=PG_ADMIN.rsplit("/", 1)[0] + "/" + self.database,
            REDIS_URL=f"{REDIS_BASE}/{REDIS_DB}",
            CHANNELS_PREFIX=self.prefix,
            CELERY_TASK_DEFAULT_QUEUE=self.prefix,
            SECRET_KEY=secrets.token_urlsafe(50),
            DAILY_SECRET=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            HINT_SOLVER="solver_worker.hints:hint",
            WS_RATE_PER_SECOND="1000",  # the tests play faster than a person
            WS_BURST="1000",
            SIGNUP_RATE="1000/hour",  # every test player signs up from 127.0.0.1
            # The tests' players are scripted solvers, cheats by construction: the
            # fair-play judge runs on the stacks that test it (attacks.ATTACK_ENV).
            FAIR_PLAY_REVIEW="off",
            PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
        )
        return env

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> None:
        self.create_database()
        self.start_worker()
        self.start_server()

    def create_database(self) -> None:
        """A fresh database of this run's, migrated."""
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.database}"')
            # A commit here does not wait for the disk: a test's data need survive no
            # crash, and the paced attacks time moves through commits, which must not
            # measure whatever else writes to this machine's disk (CI builds the Docker
            # image beside the suite). The site's own databases keep the default.
            admin.execute(f'ALTER DATABASE "{self.database}" SET synchronous_commit = off')
        self.manage("migrate", "--noinput")

    def stop(self) -> None:
        for name in list(self.processes):
            self.kill(name, signal.SIGTERM)
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        keys = redis.Redis.from_url(f"{REDIS_BASE}/{REDIS_DB}")
        found = list(keys.scan_iter(match=f"*{self.prefix}*", count=1000))
        if found:
            keys.delete(*found)

    def manage(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True,
            capture_output=True, timeout=120,
        )

    def spawn(self, name: str, args: list[str]) -> None:
        log = (self.log_dir / f"{name}.log").open("ab")
        # A session of its own, so a kill reaches the process and its children.
        self.processes[name] = subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.processes.pop(name, None)
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)

    def start_worker(self, pool: str = "solo") -> None:
        """A Celery worker on this run's queue; ``pool="prefork"`` is production's pool
        (a main process and one solver child)."""
        self.spawn("worker", [
            sys.executable, "-m", "celery", "-A", "tombsite", "worker", f"--pool={pool}",
            *(["--concurrency=1"] if pool == "prefork" else []),
            "--queues", self.prefix, "--without-gossip", "--without-mingle",
            "--without-heartbeat", "--loglevel", "INFO",
        ])
        self._wait_for_worker()

    def restart_worker(self, pool: str = "solo") -> None:
        """A new worker process; the old one's log is set aside (its "ready." would count)."""
        self.kill("worker", signal.SIGTERM)
        log = self.log_dir / "worker.log"
        if log.exists():
            log.rename(self.log_dir / f"worker-{time.monotonic_ns()}.log")
        self.start_worker(pool)

    def start_server(self) -> None:
        self.spawn("server", [
            sys.executable, "-m", "uvicorn", "tombsite.asgi:application", "--host", "127.0.0.1",
            "--port", str(self.port), "--ws-max-size", "65536", "--no-access-log",
            # Like production behind its proxy: the tests are the trusted proxy, and each
            # Visitor names its own client address in X-Forwarded-For.
            "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1",
        ])
        self._wait_for_server()

    def _wait_for_server(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._check_alive("server")
            try:
                if httpx.get(f"{self.base_url}/api/csrf/", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the ASGI server did not start; see {self.log_dir}/server.log")

    def _wait_for_worker(self, timeout: float = 60) -> None:
        log = self.log_dir / "worker.log"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._check_alive("worker")
            if log.exists() and b"ready." in log.read_bytes():
                return
            time.sleep(0.2)
        raise RuntimeError(f"the Celery worker did not start; see {log}")

    def _check_alive(self, name: str) -> None:
        process = self.processes[name]
        if process.poll() is not None:
            log = (self.log_dir / f"{name}.log").read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{name} exited with {process.returncode}:\n{log}")

    # -- reading the database directly ----------------------------------------

    def row(self, game_id: str) -> dict[str, Any]:
        with psycopg.connect(self.env["DATABASE_URL"]) as connection:
            cursor = connection.execute(
                "SELECT status, log, moves, undos, hints, version, home FROM game_game "
                "WHERE id = %s", (game_id,),
            )
            names = [column.name for column in cursor.description or []]
            found = cursor.fetchone()
        assert found is not None, f"game {game_id} is not in the database"
        return dict(zip(names, found, strict=True))


class Visitor:
    """An HTTP client with its session and CSRF token, like a browser's page, from a
    client address of its own (sent as a trusted proxy would, in X-Forwarded-For: the
    daily's fair-play check compares addresses)."""

    addresses = itertools.count(1)

    def __init__(self, stack: Stack, address: str | None = None) -> None:
        self.stack = stack
        number = next(self.addresses)
        self.address = address or f"198.18.{number // 256 % 256}.{number % 256}"
        self.http = httpx.Client(base_url=stack.base_url, timeout=30,
                                 headers={"X-Forwarded-For": self.address})
        self.token = self.http.get("/api/csrf/").json()["csrf_token"]

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body, headers={"X-CSRFToken": self.token})

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def new_game(self, deal: int, variant: str = "three-card") -> dict[str, Any]:
        response = self.post("/api/games/", {"variant": variant, "deal": deal})
        assert response.status_code == 201, response.text
        return dict(response.json())

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())

    def socket(self, path: str, timeout: float = 20) -> connect:
        """A WebSocket to `path` as this visitor, from the site's own page (its Origin).

        Await it, or use it with `async with`."""
        return connect(
            f"{self.stack.ws_url}{path}", origin=self.stack.base_url,  # type: ignore[arg-type]
            additional_headers={"Cookie": self.cookie_header, "X-Forwarded-For": self.address},
            open_timeout=timeout,
        )

    def close(self) -> None:
        self.http.close()


@contextmanager
def started_stack(
    log_dir: Path, env: dict[str, str] | None = None, dailies: bool = False
) -> Iterator[Stack]:
    """A whole stack (database, worker, server) for a test module, with extra settings."""
    require_services()
    running = Stack(log_dir)
    running.env.update(env or {})
    try:
        running.start()
        if dailies:
            # Today's dailies, as beat makes them ahead: a request never makes one (it
            # hands a missing one to the worker and answers 503 meanwhile).
            running.manage("make_dailies", "--days", "0")
        yield running
    finally:
        running.stop()
