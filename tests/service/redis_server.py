"""A Redis server of one's own, on a free port, to kill and restart in fault tests.

The shared Redis serves other runs: fault tests never touch it. This one keeps
nothing on disk (no snapshot, no append-only file), so a restart comes back
empty, as a Redis that lost its memory would.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import redis

from .stack import free_port


class OwnRedis:
    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = log_dir / f"redis-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10) -> None:
        server = shutil.which("redis-server")
        if server is None:
            raise RuntimeError("redis-server is not installed")
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--logfile", str(self.log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if redis.Redis.from_url(self.url, socket_timeout=1).ping():
                    return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}; see {self.log}")

    def kill(self) -> None:
        """SIGKILL: the server dies at once, with every connection and queued message."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def restart(self, down_seconds: float = 0.0) -> None:
        self.kill()
        time.sleep(down_seconds)
        self.start()

    def point(self, env: dict[str, str]) -> None:
        """Point a stack's processes (channel layer and Celery broker) at this server."""
        env.update(REDIS_URL=self.url, CELERY_BROKER_URL=self.url)
