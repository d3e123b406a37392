"""The daily challenge on the real stack: PostgreSQL, Redis, a Celery worker, uvicorn.

The beat job runs on the real worker while two `make_dailies` commands run
at once against the same database, and six makers insert one daily at the
same instant: one daily per day and variant comes out.
Six simultaneous requests to start one ranked attempt make exactly one. A
ranked daily is played over WebSocket while another player watches the
field through Redis, every message checked against the secret stock order.
On CI (CI=true) these tests fail rather than skip when a service is missing.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import psycopg
import pytest
from celery import Celery
from django.test import override_settings
from websockets.asyncio.client import ClientConnection

from leaderboards.days import candidate_seed
from solver_worker.clairvoyance import limits

from .lines import seeded_line
from .secrecy import StockWatch
from .stack import ROOT, Stack, Visitor, require_services

pytestmark = pytest.mark.integration
SECRET = "integration-daily-secret-of-forty-two-chars"
TIMEOUT = 20
PASSWORD = "tomb-of-the-emperor"


def placement_pause_s(line: tuple[str, ...], variant: str) -> float:
    """Seconds before each placement of a live-played ranked daily: faster than most
    people, still above the variant's measured pace floors (leaderboards.fairplay: the
    median per placement and the whole win), so the result is ranked at once."""
    floor = limits(variant)
    placements = sum(1 for move in line if move not in ("D", "R"))
    return max(floor.median_ms * 1.2, floor.win_ms * 1.2 / placements) / 1000


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require_services()
    running = Stack(tmp_path_factory.mktemp("daily-stack"))
    running.env.update(
        DAILY_SECRET=SECRET, DAILY_VARIANTS="three-card", DAILY_DAYS_AHEAD="1",
        # Short screening: a 3-card candidate is proved in milliseconds or skipped.
        DAILY_SCREEN_BUDGET_SECONDS="2", DAILY_DIFFICULTY_GAMES="1",
    )
    try:
        running.start()
        yield running
    finally:
        # A rating may still be running: no need to wait for it to finish.
        running.kill("worker", signal.SIGKILL)
        running.stop()


def sql(stack: Stack, query: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(stack.env["DATABASE_URL"]) as connection:
        return connection.execute(query, args).fetchall()  # type: ignore[arg-type]


def today() -> Any:
    return datetime.now(UTC).date()


def sign_up(stack: Stack, name: str, address: str | None = None, days_ago: int = 30) -> Visitor:
    """A player signed up ``days_ago`` days ago: older than today's daily, so they may play it."""
    visitor = Visitor(stack, address)
    response = visitor.http.post("/accounts/signup/", data={
        "username": name, "password1": PASSWORD, "password2": PASSWORD,
    }, headers={"X-CSRFToken": visitor.token})
    assert response.status_code == 302, response.text[:300]
    visitor.token = visitor.http.get("/api/csrf/").json()["csrf_token"]  # rotated at log-in
    with psycopg.connect(stack.env["DATABASE_URL"]) as connection:
        connection.execute("UPDATE auth_user SET date_joined = now() - make_interval(days => %s)"
                           " WHERE username = %s", (days_ago, name))
    return visitor


def worker_succeeded(stack: Stack, task: str) -> int:
    lines = (stack.log_dir / "worker.log").read_text().splitlines()
    return sum(f"Task {task}[" in line and " succeeded " in line for line in lines)


def wait_for(check: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def test_the_beat_job_is_idempotent_even_run_concurrently(stack: Stack) -> None:
    beat = Celery(broker=stack.env["REDIS_URL"])
    makers = [
        subprocess.Popen([sys.executable, "manage.py", "make_dailies", "--days", "1"],
                         cwd=ROOT, env=stack.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    for _ in range(2):  # the beat job, twice, on the real worker
        beat.send_task("leaderboards.make_dailies", queue=stack.prefix)
    for maker in makers:
        _, err = maker.communicate(timeout=120)
        assert maker.returncode == 0, err.decode()[-2000:]
    wait_for(lambda: worker_succeeded(stack, "leaderboards.make_dailies") == 2,
             "the beat job's two runs")

    rows = sql(stack, "SELECT date, variant, seed, candidate FROM leaderboards_daily "
                      "ORDER BY date")
    assert [(row[0], row[1]) for row in rows] == [
        (today(), "three-card"), (today() + timedelta(days=1), "three-card")]
    with override_settings(DAILY_SECRET=SECRET):
        assert all(seed == candidate_seed(day, variant, index)
                   for day, variant, seed, index in rows)


def test_makers_inserting_the_same_daily_at_one_instant_store_one(stack: Stack) -> None:
    day = today() + timedelta(days=30)
    run = subprocess.run(
        [sys.executable, "-m", "service.daily_race", day.isoformat(), "three-card", "6"],
        cwd=ROOT, env={**stack.env, "DAILY_DIFFICULTY_GAMES": "0"}, capture_output=True,
        timeout=120, check=True,
    )

    got = json.loads(run.stdout)
    (daily_id, count), = sql(stack, "SELECT min(id), count(*) FROM leaderboards_daily "
                                     "WHERE date = %s", day)
    assert count == 1 and got == [daily_id] * 6, run.stderr.decode()[-2000:]


def test_simultaneous_starts_make_exactly_one_ranked_attempt(stack: Stack) -> None:
    carol = sign_up(stack, "carol")
    barrier = threading.Barrier(6)
    answers: list[httpx.Response] = []

    def start() -> None:
        with httpx.Client(base_url=stack.base_url, cookies=carol.http.cookies,
                          timeout=60) as client:
            barrier.wait()
            answers.append(client.post("/api/daily/three-card/play/",
                                       headers={"X-CSRFToken": carol.token}))

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)

    assert sorted(answer.status_code for answer in answers) == [200] * 5 + [201]
    assert len({answer.json()["id"] for answer in answers}) == 1
    user = "(SELECT id FROM auth_user WHERE username = 'carol')"
    assert sql(stack, f"SELECT count(*) FROM leaderboards_attempt WHERE user_id = {user}") == [
        (1,)]
    assert sql(stack, f"SELECT count(*), bool_and(ranked) FROM game_game "
                      f"WHERE owner_id = {user}") == [(1, True)]
    assert sql(stack, f"SELECT games FROM leaderboards_playerstats WHERE user_id = {user}") == [
        (1,)]
    carol.close()


async def receive(socket: ClientConnection, watch: StockWatch) -> dict[str, Any]:
    text = await asyncio.wait_for(socket.recv(), TIMEOUT)
    watch.check(str(text))
    return dict(json.loads(text))


async def open_socket(stack: Stack, visitor: Visitor, path: str) -> ClientConnection:
    return await visitor.socket(path, TIMEOUT)


@pytest.mark.asyncio
async def test_a_ranked_daily_played_live_while_the_field_watches(stack: Stack) -> None:
    dave, erin = sign_up(stack, "dave"), Visitor(stack)
    game = dave.post("/api/daily/three-card/play/").json()
    (seed,) = sql(stack, "SELECT seed FROM leaderboards_daily WHERE date = %s", today())[0]
    from patience.tomb import deal_from_seed

    watch, line = StockWatch(deal_from_seed(seed)), seeded_line(seed)
    pause = placement_pause_s(line, "three-card")
    field = await open_socket(stack, erin, "/ws/daily/three-card/")
    board = await open_socket(stack, dave, f"/ws/games/{game['id']}/")
    assert (await receive(field, watch))["type"] == "field"
    await receive(board, watch)

    await board.send(json.dumps({"type": "move", "move": "D", "seq": 0}))
    watch.played("D")
    await receive(board, watch)
    await board.send(json.dumps({"type": "undo", "seq": 1}))
    refused = await receive(board, watch)
    assert refused["type"] == "error" and "cannot be undone" in refused["error"]
    for seq, move in enumerate(line[1:], start=2):
        if move not in ("D", "R"):  # placements above the human floor (fairplay): ranked
            await asyncio.sleep(pause)
        await board.send(json.dumps({"type": "move", "move": move, "seq": seq}))
        watch.played(move)
        assert (await receive(board, watch))["seq"] == seq

    seen = [await receive(field, watch)]
    while seen[-1]["entry"]["home"] < 52:
        seen.append(await receive(field, watch))
    assert {entry["entry"]["player"] for entry in seen} == {"dave"}
    assert seen[-1]["entry"]["status"] == "won"
    me = dave.get("/api/daily/three-card/").json()["me"]
    assert me["share"].startswith(f"Napoleon's Tomb 3-card deal daily {today()}: won in ")
    board_page = erin.get(f"/api/daily/three-card/{today()}/board/").json()
    assert board_page["entries"][0]["player"] == "dave"
    for response in (me, board_page, erin.get("/napoleons-tomb/three-card/daily/").text):
        watch.check(response if isinstance(response, str) else json.dumps(response))
    await field.close()
    await board.close()
    dave.close()
    erin.close()


def test_a_second_account_behind_the_same_address_is_held_for_review(stack: Stack) -> None:
    """Through the proxy headers uvicorn trusts (FORWARDED_ALLOW_IPS): the address a
    trusted proxy names is the one compared; only its keyed hash is stored."""
    first, second = sign_up(stack, "frank"), sign_up(stack, "grace", "198.51.100.7")
    third = sign_up(stack, "heidi", "198.51.100.7")
    for visitor in (first, second, third):
        assert visitor.post("/api/daily/three-card/play/").status_code in (200, 201)
    rows = dict(sql(stack, "SELECT u.username, a.flags || '/' || a.review FROM "
                           "leaderboards_attempt a JOIN auth_user u ON u.id = a.user_id "
                           "WHERE u.username IN ('frank', 'grace', 'heidi')"))
    # grace and heidi share an address: both are held (which came first tells nothing).
    assert rows == {"frank": "/", "grace": "address/pending", "heidi": "address/pending"}
    assert sql(stack, "SELECT count(*) FROM leaderboards_attempt WHERE address_hash LIKE %s "
                      "OR address_hash = ''", "%198.51%") == [(0,)]
    me = third.get("/api/daily/three-card/").json()["me"]
    assert me["under_review"] is True
    board = first.get(f"/api/daily/three-card/{today()}/board/").json()
    assert "frank" in {row["player"] for row in board["entries"]}
    assert not {"grace", "heidi"} & {row["player"] for row in board["entries"]}
    for visitor in (first, second, third):
        visitor.close()


def test_the_difficulty_is_filled_in_by_the_real_worker(stack: Stack) -> None:
    wait_for(lambda: sql(stack, "SELECT difficulty FROM leaderboards_daily WHERE date = %s",
                         today())[0][0] is not None, "the rating task", timeout=90)
    (difficulty, rate), = sql(stack, "SELECT difficulty, sampling_win_rate FROM "
                                     "leaderboards_daily WHERE date = %s", today())
    assert 0 <= difficulty <= 1 and rate == pytest.approx(1 - difficulty)
