"""The production stack for real: the project's own Dockerfile and docker-compose.yml on
this machine's Docker daemon, following the README's admin section step by step.

Each test is one step of that section, in its order, on one deployment: start (a copy
of the project, `cp .env.example .env` with the secrets set, `build`, `up -d`, every
service healthy), health, a game over HTTP and WebSocket with a hint from the worker,
the daily, the admin user, backup / change / restore, scaling, a SIGKILLed worker
whose task is delivered again, an upgrade with a migration, `down -v`. Traffic goes
only to 127.0.0.1 (the published port) and between the stack's own containers.

The official base images are used when present or pullable; only when they are
neither are the local stand-ins built (../shared/docker-standins/build.sh).

What differs from a real deployment, and why: no TLS proxy (HTTPS=false, the test
speaks plain HTTP to the loopback port), a short CELERY_VISIBILITY_TIMEOUT (30 s
instead of 900: a real admin waits up to 900 s for a killed worker's task to run
again), a HINT_BUDGET_SECONDS of 8 s instead of 0.8 (the worker is killed while its
solver searches, which must take longer than spotting the kill's moment in the log),
a short daily screening, and an image tag and project name of the test's own
so that a real deployment on the same machine is not touched.

Run by scripts/test-compose; the figures it measures go to
test-output/compose-figures.json (docs/figures.md, "Issue 17").
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from solver_worker.book import book_of
from tests.service.stack import Visitor

from .stack import (
    ALL,
    APP_SERVICES,
    DEAL,
    HTTP_TIMEOUT,
    OUTPUT,
    Deployment,
    deployed,
    play_and_ask_for_a_hint,
    run,
    todays_daily,
    visitor,
    write_env,
)

IMAGE = "napoleons-tomb:compose-test"
VISIBILITY_TIMEOUT_S = 30
HINT_BUDGET_S = 8
FIGURES = OUTPUT / "compose-figures.json"
PASSWORD = "a-long-admin-password-for-the-test"
pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    with deployed(tmp_path_factory.mktemp("deploy") / "napoleons-tomb", FIGURES) as stack:
        yield stack


# -- the README's admin section, step by step ---------------------------------------

def test_start_with_the_secrets_set_and_every_service_healthy(deployment: Deployment) -> None:
    write_env(
        deployment,
        # The test's own, not the README's: a tag of its own, a short visibility
        # timeout, a long hint and a quick daily (module docstring).
        TOMB_IMAGE=IMAGE, CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT_S),
        HINT_BUDGET_SECONDS=str(HINT_BUDGET_S),
        DAILY_VARIANTS="three-card", DAILY_SCREEN_BUDGET_SECONDS="2",
        DAILY_DIFFICULTY_GAMES="0",
    )
    # What an admin's folder holds after a while: none of it may enter the image.
    (deployment.folder / "tomb-2026-11-29.dump").write_text("a backup")
    (deployment.folder / "results.csv").write_text("an export")

    deployment.timed("build_s", "build")
    started = time.monotonic()
    deployment.compose("up", "-d", timeout=900)
    deployment.wait_until_healthy(ALL)
    deployment.figures["up_to_healthy_s"] = round(time.monotonic() - started, 1)

    images = {item["image"] for item in deployment.containers()
              if item["service"] in (*APP_SERVICES, "migrate")}
    assert len(images) == 1  # one build, run by every app service


def test_the_image_holds_no_secret_dump_export_compiler_or_pip_cache(
    deployment: Deployment
) -> None:
    found = run(["docker", "run", "--rm", "--user", "0", "--entrypoint", "sh", IMAGE, "-c",
                 "ls -a /app; command -v gcc cc c++ x86_64-linux-gnu-gcc; "
                 "ls -d /root/.cache/pip /app/build 2>/dev/null; true"]).stdout.split()
    for unwanted in (".env", "tomb-2026-11-29.dump", "results.csv", "gcc", "cc",
                     "/root/.cache/pip", "/app/build"):
        assert not [name for name in found if name.endswith(unwanted)], (unwanted, found)
    assert "manage.py" in found
    size = int(run(["docker", "image", "inspect", "-f", "{{.Size}}", IMAGE]).stdout)
    deployment.figures["image_mb"] = round(size / 1e6, 1)


def test_healthz_is_bare_from_outside_and_detailed_from_inside(
    deployment: Deployment
) -> None:
    outside = deployment.healthz()
    inside = deployment.compose("exec", "-T", "web", "python", "-m", "tombsite.health")

    assert outside.status_code == 200 and outside.json() == {"status": "ok"}
    assert json.loads(inside.stdout) == {"status": "ok", "database": "ok", "redis": "ok",
                                         "hints": "ok", "slow": "ok"}


def test_no_host_header_is_refused_without_a_traceback(deployment: Deployment) -> None:
    with socket.create_connection(("127.0.0.1", deployment.port), timeout=10) as raw:
        raw.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
        answer = raw.recv(4096).decode(errors="replace")

    assert answer.split()[1] == "400", answer
    time.sleep(1)
    assert "Traceback" not in deployment.logs("web")


def test_a_game_over_http_and_websocket_with_a_hint_from_the_worker(
    deployment: Deployment
) -> None:
    alice = visitor(deployment)
    game = alice.new_game(DEAL)
    moved = alice.post(f"/api/games/{game['id']}/moves/", {"move": "D"})
    assert moved.status_code == 200, moved.text

    answers = asyncio.run(play_and_ask_for_a_hint(alice, game["id"]))

    assert [answer["type"] for answer in answers] == ["state", "state", "state", "hint"]
    assert answers[1]["game"]["moves"] == 2
    assert answers[3]["hint"]["verdict"] in ("winnable", "lost", "unknown")
    assert "game.answer_hint" in deployment.logs("worker")
    deployment.figures["game_id"] = game["id"]
    alice.close()


def test_todays_daily_is_made_and_served(deployment: Deployment) -> None:
    bob = visitor(deployment)
    todays_daily(bob, "three-card")
    bob.close()


def admin_log_in(deployment: Deployment) -> httpx.Response:
    with httpx.Client(base_url=deployment.base_url, timeout=HTTP_TIMEOUT) as browser:
        form = browser.get("/admin/login/?next=/admin/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
        assert token, form.text[:300]
        logged = browser.post("/admin/login/?next=/admin/", data={
            "username": "admin", "password": PASSWORD, "next": "/admin/",
            "csrfmiddlewaretoken": token.group(1)})
        assert logged.status_code == 302, logged.text[:300]
        return browser.get("/admin/")


def test_createsuperuser_and_the_admin_logs_in(deployment: Deployment) -> None:
    # README: non-interactive, with the password in the environment of the one command.
    deployment.compose("exec", "-T", "-e", f"DJANGO_SUPERUSER_PASSWORD={PASSWORD}", "web",
                       "python", "manage.py", "createsuperuser", "--noinput",
                       "--username", "admin", "--email", "admin@example.org")

    page = admin_log_in(deployment)

    assert page.status_code == 200 and "Site administration" in page.text


def test_export_results_runs_as_the_readme_shows(deployment: Deployment) -> None:
    deployment.shell("docker compose exec -T web python manage.py export_results "
                     "--variant three-card > results.csv")

    assert (deployment.folder / "results.csv").read_text().startswith("date,variant,player")


def test_backup_then_a_change_then_restore(deployment: Deployment) -> None:
    kept = deployment.figures["game_id"]
    dump = f"tomb-{datetime.now(UTC).date().isoformat()}.dump"
    deployment.shell("docker compose exec -T db sh -c 'pg_dump -U \"$POSTGRES_USER\" "
                     f"-d \"$POSTGRES_DB\" -Fc' > {dump}")
    assert (deployment.folder / dump).stat().st_size > 1000

    carol = visitor(deployment)
    changed = carol.new_game(DEAL + 1)["id"]
    assert carol.get(f"/api/games/{changed}/").status_code == 200

    # README, "Restore it": stop everything that writes, empty the database, restore.
    deployment.shell("docker compose stop web worker worker-slow beat")
    assert deployment.running_services() == {"db", "redis"}
    deployment.shell("docker compose exec -T db sh -c 'dropdb -U \"$POSTGRES_USER\" --force "
                     "\"$POSTGRES_DB\" && createdb -U \"$POSTGRES_USER\" \"$POSTGRES_DB\"'")
    deployment.shell("docker compose exec -T db sh -c 'pg_restore -U \"$POSTGRES_USER\" "
                     f"-d \"$POSTGRES_DB\" --no-owner --exit-on-error' < {dump}")
    deployment.shell("docker compose up -d")
    deployment.wait_until_healthy(ALL)

    assert deployment.sql(f"SELECT count(*) FROM game_game WHERE id = '{changed}'") == "0"
    assert deployment.sql(f"SELECT count(*) FROM game_game WHERE id = '{kept}'") == "1"
    assert admin_log_in(deployment).status_code == 200
    carol.close()


def test_scale_the_workers(deployment: Deployment) -> None:
    deployment.shell("docker compose up -d --scale worker=2")

    deployment.wait_until_healthy({**ALL, "worker": 2})
    assert deployment.healthz().status_code == 200


# Classic deal 6's opening is one the solver cannot decide (unknown after 60 s) and the
# book does not hold: its hint searches for the whole budget (HINT_BUDGET_S in the
# test's .env), long enough to kill its worker. A deal the book decides is answered at
# once (deal 1, proved lost, was: the kill then raced the answer and the board heard
# the hint with no "no answer yet" before it).
SLOW_HINT_DEAL, SLOW_HINT_VARIANT = 6, "classic"
HINT_RECEIVED = re.compile(r"game\.answer_hint\[([0-9a-f-]+)\] received")


def test_a_sigkilled_worker_comes_back_and_its_task_is_delivered_again(
    deployment: Deployment
) -> None:
    """A hint (game.answer_hint: late-acked, rejected on worker lost) asked over the
    socket; the worker that received it is SIGKILLed while its solver searches. The
    board hears the hint only once the task, never acknowledged, was delivered again
    after the visibility timeout and ran to its end."""
    assert SLOW_HINT_DEAL not in book_of(SLOW_HINT_VARIANT), "the book answers it at once"
    dave = visitor(deployment)
    game = dave.new_game(SLOW_HINT_DEAL, SLOW_HINT_VARIANT)
    workers = deployment.of("worker")

    killed = asyncio.run(ask_for_a_hint_and_kill_its_worker(deployment, dave, game["id"]))

    task = killed["task_id"]
    hint_at = killed["answers"][-1][0]
    assert killed["answers"][-1][1]["hint"]["move"], killed["answers"]
    # The board was told in time that no answer came, then got the real one.
    assert any("error" in answer for _, answer in killed["answers"][:-1]), killed["answers"]
    # The first run never ended: the one success is the redelivered run's, and it came
    # after the visibility timeout (the solver's budget alone is far shorter).
    logs = {item["id"]: timestamped_log(item["id"]) for item in deployment.of("worker")}
    received = sorted(at for log in logs.values() for at, line in log
                      if f"game.answer_hint[{task}] received" in line)
    succeeded = [at for log in logs.values() for at, line in log
                 if f"game.answer_hint[{task}] succeeded" in line]
    assert len(received) == 2 and len(succeeded) == 1, (received, succeeded)
    assert hint_at - killed["at"] >= VISIBILITY_TIMEOUT_S - 1
    assert deployment.redis_get(deliveries_key(task)) == "2"  # both runs started the task
    # The killed worker came back (its restart policy) before the hint was answered.
    deployment.wait_until_healthy({**ALL, "worker": len(workers)})
    holder = killed["holder"]
    back = next(item for item in deployment.of("worker") if item["id"] == holder["id"])
    assert back["restarts"] == holder["restarts"] + 1
    assert started_at(back["id"]) < hint_at
    redelivered_to = next(item for item, log in logs.items()
                          if any(at == received[1] for at, _ in log))
    deployment.figures["redelivered_after_s"] = round(received[1] - killed["at"], 1)
    deployment.figures["done_after_kill_s"] = round(hint_at - killed["at"], 1)
    deployment.figures["redelivered_to"] = (
        "the killed worker, restarted" if redelivered_to == holder["id"]
        else "the other worker")
    dave.close()


async def ask_for_a_hint_and_kill_its_worker(
    deployment: Deployment, player: Visitor, game_id: str
) -> dict[str, Any]:
    """The kill's time, the task's id, the worker killed, and the board's answers
    (wall time, answer) up to the hint itself."""
    redis = deployment.of("redis")[0]["id"]
    async with player.socket(f"/ws/games/{game_id}/", HTTP_TIMEOUT) as board:
        await asyncio.wait_for(board.recv(), HTTP_TIMEOUT)  # the state
        with WorkerLogs(deployment.of("worker")) as logs:
            await board.send(json.dumps({"type": "hint", "seq": 1}))
            holder, task_id = await asyncio.to_thread(logs.first, HINT_RECEIVED, 60)
            # Received is not yet started: wait for the task to count its delivery, just
            # before its solver searches (game.tasks.answer_hint).
            await asyncio.to_thread(wait_until_started, deployment, redis, task_id)
            # The worker's main process, as an OOM kill would: the whole container goes.
            os.kill(holder["pid"], signal.SIGKILL)
            killed_at = time.time()
        answers: list[tuple[float, dict[str, Any]]] = []
        while not (answers and "hint" in answers[-1][1]):
            answer = json.loads(await asyncio.wait_for(
                board.recv(), VISIBILITY_TIMEOUT_S + HINT_BUDGET_S + 300))
            answers.append((time.time(), answer))
    return {"at": killed_at, "task_id": task_id, "holder": holder, "answers": answers}


def deliveries_key(task_id: str) -> str:
    """The cache key where game.tasks.delivery_count counts the task's starts (Django's
    key format, the deployment's default prefix)."""
    return f"tomb:1:task-deliveries:{task_id}"


def wait_until_started(deployment: Deployment, redis: str, task_id: str) -> None:
    deadline = time.monotonic() + HINT_BUDGET_S
    while deployment.redis_get(deliveries_key(task_id), redis) != "1":
        assert time.monotonic() < deadline, f"{task_id} received but never started"
        time.sleep(0.1)


class WorkerLogs:
    """The workers' log lines as they are written (`docker logs -f`): the kill has to
    land within the hint's few seconds, which reading whole logs again cannot."""

    def __init__(self, workers: list[dict[str, Any]]) -> None:
        since = str(int(time.time()) - 2)  # nothing written while the followers attach is lost
        self.lines: queue.Queue[tuple[dict[str, Any], str]] = queue.Queue()
        self.followers = [subprocess.Popen(
            ["docker", "logs", "--follow", "--since", since, item["id"]],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for item in workers]
        for item, follower in zip(workers, self.followers, strict=True):
            threading.Thread(target=self.read, args=(item, follower), daemon=True).start()

    def read(self, item: dict[str, Any], follower: subprocess.Popen[str]) -> None:
        assert follower.stdout is not None
        for line in follower.stdout:
            self.lines.put((item, line))

    def first(self, pattern: re.Pattern[str], timeout: float) -> tuple[dict[str, Any], str]:
        """The worker that logs a line matching ``pattern`` first, and the match's group."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                item, line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if found := pattern.search(line):
                return item, found.group(1)
        raise AssertionError(f"no worker logged {pattern.pattern!r} in {timeout} s")

    def __enter__(self) -> WorkerLogs:
        return self

    def __exit__(self, *exc: object) -> None:
        for follower in self.followers:
            follower.kill()
            follower.wait(timeout=30)


def timestamped_log(container: str) -> list[tuple[float, str]]:
    """(Unix time, line) of every run of the container: a restarted one keeps its
    earlier runs' lines."""
    shown = run(["docker", "logs", "--timestamps", container], check=False)
    lines = (shown.stdout + shown.stderr).splitlines()
    return [(docker_time(line.split(" ", 1)[0]), line) for line in lines if " " in line]


def started_at(container: str) -> float:
    """When the container's current run started (Unix time)."""
    return docker_time(run(["docker", "inspect", "-f", "{{.State.StartedAt}}",
                            container]).stdout.strip())


def docker_time(text: str) -> float:
    """Docker's RFC 3339 time with nanoseconds, e.g. 2026-12-01T06:30:01.123456789Z."""
    whole, _, fraction = text.rstrip("Z").partition(".")
    return datetime.fromisoformat(whole).replace(tzinfo=UTC).timestamp() + float(
        f"0.{fraction or 0}")


UPGRADE_MIGRATION = '''from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("game", "{previous}")]
    operations = [migrations.RunSQL("CREATE TABLE upgrade_check (id integer)",
                                    "DROP TABLE upgrade_check")]
'''


def test_an_upgrade_with_a_migration(deployment: Deployment) -> None:
    # `git pull` brings new code and a migration; here the copy gets them directly.
    migrations = deployment.folder / "game" / "migrations"
    previous = max(path.stem for path in migrations.glob("0*.py"))
    (migrations / "0999_upgrade_check.py").write_text(UPGRADE_MIGRATION.format(
        previous=previous))
    old_image = run(["docker", "image", "inspect", "-f", "{{.Id}}", IMAGE]).stdout.strip()

    deployment.timed("upgrade_build_s", "build")
    started = time.monotonic()
    deployment.shell("docker compose up -d")
    deployment.wait_until_healthy(ALL)  # `up -d` without --scale: one worker again
    deployment.figures["upgrade_up_to_healthy_s"] = round(time.monotonic() - started, 1)
    deployment.shell("docker image prune -f")

    assert "Applying game.0999_upgrade_check... OK" in deployment.logs("migrate")
    assert deployment.sql("SELECT count(*) FROM upgrade_check") == "0"
    kept = deployment.figures["game_id"]
    assert deployment.sql(f"SELECT count(*) FROM game_game WHERE id = '{kept}'") == "1"
    new_image = run(["docker", "image", "inspect", "-f", "{{.Id}}", IMAGE]).stdout.strip()
    assert new_image != old_image
    assert {item["image"] for item in deployment.containers()
            if item["service"] in APP_SERVICES} == {new_image}
    # The old image and the build stages are gone: nothing dangling is left behind. An
    # old image that another tag still holds stays, rightly (compose-smoke's tree tag, when
    # it built the same tree on this daemon before), but no longer as the deployment's.
    left = run(["docker", "image", "inspect", "-f", "{{json .RepoTags}}", old_image],
               check=False)
    if left.returncode == 0:
        tags = json.loads(left.stdout)
        assert tags and IMAGE not in tags, tags
    assert run(["docker", "images", "-q", "-f", "dangling=true"]).stdout.split() == []


def test_down_removes_the_containers_and_the_volumes(deployment: Deployment) -> None:
    deployment.shell("docker compose down -v")

    assert deployment.containers() == []
    volumes = run(["docker", "volume", "ls", "-q", "-f",
                   f"label=com.docker.compose.project={deployment.project}"]).stdout.split()
    assert volumes == []
