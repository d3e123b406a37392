"""CI's run of the production stack (scripts/compose-smoke, after the suite in .ci/run):
the project's Dockerfile and docker-compose.yml on this machine's Docker daemon, short
enough for every CI run. The whole admin section (backup, restore, upgrade, scale, a
killed worker) is test_stack.py's, run by scripts/test-compose.

One deployment, step by step: the image built once for this tree (a second run on the
same files reuses it: its tag names the tree's hash), `up -d` with several web
processes and every service healthy, a game over REST and over sockets spread across
those processes, a hint answered by the worker, today's daily made by the worker and
its page with a static file, /healthz naming a stopped worker, `down -v`. Traffic goes
only to 127.0.0.1 (the published port) and between the stack's own containers.

What differs from a real deployment: no TLS proxy (HTTPS=false, plain HTTP to the
loopback port), one daily variant screened briefly, and a project name and image tag
of the test's own. Each step's seconds go to test-output/compose-smoke.json.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service.stack import Visitor

from .stack import (
    ALL,
    DEAL,
    HTTP_TIMEOUT,
    OUTPUT,
    Deployment,
    deployed,
    image_exists,
    play_and_ask_for_a_hint,
    run,
    todays_daily,
    tree_hash,
    visitor,
    write_env,
)

REPOSITORY = "napoleons-tomb"
# .ci/run's build during the suite keeps its figures apart from the smoke's own.
FIGURES = OUTPUT / os.environ.get("TOMB_SMOKE_FIGURES", "compose-smoke.json")
TOKEN = secrets.token_urlsafe(24)
# Boards open on one game, on every web process (uvicorn's processes share one listening
# socket): each process hears the others' changes only through the channel layer.
BOARDS, MAX_BOARDS = 4, 24
pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    with deployed(tmp_path_factory.mktemp("smoke") / "napoleons-tomb", FIGURES) as stack:
        yield stack


@pytest.fixture(autouse=True)
def step_seconds(request: pytest.FixtureRequest, deployment: Deployment) -> Iterator[None]:
    started = time.monotonic()
    yield
    name = request.node.name.removeprefix("test_")
    deployment.figures[f"step:{name}"] = round(time.monotonic() - started, 1)


def web_concurrency() -> dict[str, str]:
    """The README's default (WEB_CONCURRENCY unset: one process per core) where that is
    several; on a one-core machine two, set as an admin would."""
    return {} if (os.cpu_count() or 1) >= 2 else {"WEB_CONCURRENCY": "2"}


def test_the_image_is_built_once_for_this_tree(deployment: Deployment) -> None:
    tag = f"{REPOSITORY}:tree-{tree_hash()}"
    write_env(deployment, TOMB_IMAGE=tag, HEALTHZ_TOKEN=TOKEN,
              DAILY_VARIANTS="three-card", DAILY_SCREEN_BUDGET_SECONDS="2",
              DAILY_DIFFICULTY_GAMES="0", **web_concurrency())
    reused = image_exists(tag)
    if not reused:
        deployment.timed("build_s", "build")
        forget_other_trees(tag)
    deployment.figures["image"] = "reused" if reused else "built"

    assert image_exists(tag)


def forget_other_trees(kept: str) -> None:
    """Untag the images of earlier trees (their layers stay as the build's cache)."""
    tags = run(["docker", "images", REPOSITORY, "--format", "{{.Repository}}:{{.Tag}}"]
               ).stdout.split()
    old = [tag for tag in tags if tag.startswith(f"{REPOSITORY}:tree-") and tag != kept]
    if old:
        run(["docker", "rmi", *old], check=False)


def test_up_with_several_web_processes_and_every_service_healthy(
    deployment: Deployment
) -> None:
    started = time.monotonic()
    deployment.compose("up", "-d", timeout=900)
    deployment.wait_until_healthy(ALL, timeout=900)
    deployment.figures["up_to_healthy_s"] = round(time.monotonic() - started, 1)

    web = deployment.of("web")[0]["id"]
    expected = int(os.environ.get("WEB_CONCURRENCY") or web_concurrency().get(
        "WEB_CONCURRENCY") or run(["docker", "exec", web, "nproc"]).stdout)
    assert expected >= 2
    assert len(asgi_processes(web)) == expected
    deployment.figures["web_processes"] = expected


def asgi_processes(container: str) -> list[int]:
    """uvicorn's worker processes in the container (host process ids): the children its
    supervisor spawned."""
    shown = run(["docker", "top", container, "-eo", "pid,ppid,args"]).stdout.splitlines()[1:]
    rows = [line.split(None, 2) for line in shown]
    supervisor = next(pid for pid, _, args in rows if "uvicorn" in args)
    return [int(pid) for pid, parent, args in rows
            if parent == supervisor and "spawn_main" in args]


def boards_held(pid: int) -> int:
    """The connections to the site's port (8000) that this process holds open, read
    from the host's /proc: its sockets' inodes among the container's TCP table."""
    held = {os.readlink(f"/proc/{pid}/fd/{fd}")[len("socket:["):-1]
            for fd in os.listdir(f"/proc/{pid}/fd")
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:[")}
    table = Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]
    rows = [line.split() for line in table]
    # local address "0100007F:1F40"-like (port 8000 = 0x1F40), state 01 = established
    return sum(1 for row in rows
               if row[1].endswith(":1F40") and row[3] == "01" and row[9] in held)


def test_a_game_over_rest_and_sockets_on_every_process_with_a_hint(
    deployment: Deployment
) -> None:
    alice = visitor(deployment)
    game = alice.new_game(DEAL)
    moved = alice.post(f"/api/games/{game['id']}/moves/", {"move": "D"})
    assert moved.status_code == 200, moved.text
    assert moved.json()["moves"] == 1

    processes = asgi_processes(deployment.of("web")[0]["id"])
    heard = asyncio.run(boards_hear_each_change(alice, game["id"], processes))

    boards = heard["boards"]
    assert min(heard["held"].values()) >= 1, heard["held"]  # every process holds a board
    assert heard["rest"] == [2] * boards  # a REST move, heard by every board
    assert heard["socket"] == [3] * boards  # a socket's move, by the others too
    assert all(hint["verdict"] in ("winnable", "lost", "unknown") for hint in heard["hints"])
    assert len(heard["hints"]) == boards  # the worker's answer reached every board
    deployment.figures["boards_per_process"] = sorted(heard["held"].values())
    assert "game.answer_hint" in deployment.logs("worker")
    # The shared helper's round: a move and a hint on one socket, as the board plays.
    answers = asyncio.run(play_and_ask_for_a_hint(alice, game["id"]))
    assert [answer["type"] for answer in answers] == ["state", "state", "state", "hint"]
    assert answers[1]["game"]["moves"] == 4
    alice.close()


async def boards_hear_each_change(
    player: Visitor, game_id: str, processes: list[int]
) -> dict[str, Any]:
    """Boards opened on the game until each web process holds one (the kernel hands a
    new connection to whichever process accepts first), then what each heard of a REST
    move, of a socket's move and of a hint."""
    boards: list[Any] = []
    before = {pid: boards_held(pid) for pid in processes}  # the REST client's, say
    held = dict.fromkeys(processes, 0)
    try:
        while len(boards) < BOARDS or (min(held.values()) == 0 and len(boards) < MAX_BOARDS):
            boards.append(await player.socket(f"/ws/games/{game_id}/", HTTP_TIMEOUT))
            await next_of(boards[-1], "state")
            held = {pid: boards_held(pid) - before[pid] for pid in processes}
        await asyncio.to_thread(
            player.post, f"/api/games/{game_id}/moves/", {"move": "D"})
        rest = [(await next_of(board, "state"))["game"]["moves"] for board in boards]
        await boards[0].send(json.dumps({"type": "move", "move": "D", "seq": 1}))
        socket = [(await next_of(board, "state"))["game"]["moves"] for board in boards]
        await boards[0].send(json.dumps({"type": "hint", "seq": 2}))
        hints = [(await next_of(board, "hint"))["hint"] for board in boards]
        return {"boards": len(boards), "held": held, "rest": rest, "socket": socket,
                "hints": hints}
    finally:
        for board in boards:
            await board.close()


async def next_of(board: Any, kind: str) -> dict[str, Any]:
    """The board's next message of this type (a hint's asker hears a state first)."""
    while True:
        message = json.loads(await asyncio.wait_for(board.recv(), HTTP_TIMEOUT))
        assert message["type"] != "error", message
        if message["type"] == kind:
            return dict(message)


def test_todays_daily_page_and_a_static_file(deployment: Deployment) -> None:
    bob = visitor(deployment)
    todays_daily(bob, "three-card")  # made by the worker for the first request

    page = bob.http.get("/daily/three-card/", follow_redirects=True)
    assert page.status_code == 200 and "/three-card/daily/" in str(page.url), page.url
    stylesheet = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', page.text)
    assert stylesheet, page.text[:500]
    asset = bob.http.get(stylesheet.group(1), headers={"Accept-Encoding": "gzip"})
    assert asset.status_code == 200, stylesheet.group(1)
    assert asset.headers["content-type"].startswith("text/css")
    assert asset.headers.get("content-encoding") == "gzip"  # whitenoise's compressed copy
    assert "immutable" in asset.headers.get("cache-control", "")  # a hashed name
    assert len(asset.text) > 100
    bob.close()


def test_healthz_reports_a_stopped_worker(deployment: Deployment) -> None:
    assert deployment.healthz().json() == {"status": "ok"}

    deployment.compose("stop", "worker")
    started = time.monotonic()
    detailed = deployment.healthz(**{"X-Health-Token": TOKEN})
    while detailed.status_code == 200 and time.monotonic() - started < 120:
        time.sleep(2)  # the verdict is cached for HEALTHZ_CACHE_SECONDS
        detailed = deployment.healthz(**{"X-Health-Token": TOKEN})

    assert detailed.status_code == 503, detailed.text
    assert detailed.json()["hints"].startswith("no worker consumes queue"), detailed.json()
    assert detailed.json()["slow"] == "ok"
    deployment.figures["healthz_noticed_s"] = round(time.monotonic() - started, 1)
    # The bare verdict is each web process's own, at most HEALTHZ_CACHE_SECONDS (10) old:
    # once that has passed, every process says so (each request a new connection).
    time.sleep(10)
    bare = [deployment.healthz() for _ in range(12)]
    assert [(answer.status_code, answer.json()) for answer in bare] == [
        (503, {"status": "failing"})] * 12


def test_down_removes_the_containers_and_the_volumes(deployment: Deployment) -> None:
    deployment.compose("down", "-v", timeout=300)

    assert deployment.containers() == []
    volumes = run(["docker", "volume", "ls", "-q", "-f",
                   f"label=com.docker.compose.project={deployment.project}"]).stdout.split()
    assert volumes == []
